#!/usr/bin/env bats
# The process tree of a run: found whole, measured once per process, and
# killed without touching anything outside the run.  Each test runs the
# runner twice: with the run's cgroups (killed through cgroup.kill, read
# from cgroup.procs) and with MEMREPRO_CGROUP=0 (read from the children
# files, killed top down), and each time with two sentinels that must
# live: one in the runner's own process group, one in a group of its own.

load test_helper

# tree_run NAME CGROUP RC ARGS...: the runner on the forks fixture, exit
# status RC, in a session of its own (a sentinel beside it in its group)
# and with another sentinel outside; fails if either sentinel died or a
# process of the fixture is left.  Results in $BATS_TEST_TMPDIR/NAME.
tree_run() {
	local name=$1 cg=$2 rc=$3 d own other left
	shift 3
	d=$BATS_TEST_TMPDIR/$name
	setsid sleep 600 </dev/null >/dev/null 2>&1 3>&- &
	other=$!
	SENTINELS+=("$other")
	# shellcheck disable=SC2016 # expanded by that bash
	run "-$rc" timeout -k 5 120 setsid bash -c 'sleep 600 </dev/null >/dev/null 2>&1 3>&- & echo $! > "$0"; exec "$@"' \
		"$BATS_TEST_TMPDIR/$name.sentinel" env MEMREPRO_CGROUP="$cg" \
		"$MR" run --cases "$FIX" --out "$d" forks --axis allocator=glibc --repeat 1 "$@"
	own=$(cat "$BATS_TEST_TMPDIR/$name.sentinel")
	SENTINELS+=("$own")
	left=$(pgrep -f "^$FIX/forks" || true)
	kill -0 "$own" || { echo "the sentinel in the runner's group ($own) was killed"; return 1; }
	kill -0 "$other" || { echo "the sentinel in a group of its own ($other) was killed"; return 1; }
	kill "$own" "$other"
	[ -z "$left" ] || { echo "left over: $(ps -o pid=,ppid=,pgid=,stat=,args= -p "${left//$'\n'/,}")"; return 1; }
	[ "$cg" = 0 ] || assert_no_run_cgroups "$d"
}

SENTINELS=()
teardown() {
	[ "${#SENTINELS[@]}" -eq 0 ] || kill "${SENTINELS[@]}" 2>/dev/null || true
}

# ck NAME COLUMN: the column of the run's (only) checkpoint row.
ck() {
	tsv_col "$BATS_TEST_TMPDIR/$1/checkpoints.tsv" "$2"
}

# assert_tree_charged NAME CGNAME: run NAME's tree PSS is within 5 % of
# what run CGNAME's cgroup was charged at the same checkpoint (the same
# work measured with cgroups; a run without them has no charge of its own).
assert_tree_charged() {
	local pss cgk
	pss=$(ck "$1" tree_pss_kb)
	cgk=$(ck "$2" cgroup_kb)
	[ "$cgk" != - ] || return 0 # no cgroup on this machine: nothing to hold it to
	within "$pss" "$cgk" 5 || { echo "$1: tree_pss_kb $pss vs cgroup_kb $cgk of $2"; return 1; }
}

# within A B PCT: A is within PCT % of B.
within() {
	awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= b * p / 100) }'
}

@test "500 children that sleep: each measured once, all killed, nothing outside the run touched" {
	for cg in 1 0; do
		tree_run sleep$cg "$cg" 0 --axis mode=sleep --axis n=500 --axis mb=4
		d=$BATS_TEST_TMPDIR/sleep$cg
		[ "$(tsv_col "$d/runs.tsv" outcome)" = ok ]
		det=$(tsv_col "$d/runs.tsv" detail)
		# a machine paused under the run (a VM's host) adds that its times
		# are not measured; the count must be exact either way
		[[ "$det" =~ ^killed\ 500\ leftover\ processes(\;\ the\ runner\ stood\ still\ for\ [0-9.]+\ s\ .*)?$ ]] || {
			echo "cgroup $cg: detail: $det"
			return 1
		}
		[ "$(ck "sleep$cg" tree_nproc)" = 501 ]
		# 500 x 4 MiB of their own, and the case's few pages
		within "$(ck "sleep$cg" tree_private_dirty_kb)" $((500 * 4096)) 5 || {
			echo "tree_private_dirty_kb $(ck "sleep$cg" tree_private_dirty_kb), want 2048000 +/- 5 %"
			return 1
		}
		assert_tree_charged "sleep$cg" sleep1
	done
}

@test "300 children that exit: zombies hold no memory and no pid is misread" {
	for cg in 1 0; do
		tree_run exit$cg "$cg" 0 --axis mode=exit --axis n=300
		d=$BATS_TEST_TMPDIR/exit$cg
		[ "$(tsv_col "$d/runs.tsv" outcome)" = ok ]
		[ "$(ck "exit$cg" tree_nproc)" -le 301 ]
		# what the tree holds is at most what was charged for it
		if [ "$(ck "exit$cg" cgroup_kb)" != - ]; then
			[ "$(ck "exit$cg" tree_pss_kb)" -le "$(ck "exit$cg" cgroup_kb)" ]
		fi
		[ "$(ck "exit$cg" tree_private_dirty_kb)" -le $((301 * 1024)) ]
	done
}

@test "a chain that forks its successor and exits, over and over, ends with the run" {
	for cg in 1 0; do
		tree_run chain$cg "$cg" 0 --axis mode=chain
		[ "$(tsv_col "$BATS_TEST_TMPDIR/chain$cg/runs.tsv" outcome)" = ok ]
	done
}

@test "a grandchild that left the session while its parent lives is killed with it" {
	for cg in 1 0; do
		tree_run daemon$cg "$cg" 0 --axis mode=daemon --axis mb=8
		d=$BATS_TEST_TMPDIR/daemon$cg
		[ "$(tsv_col "$d/runs.tsv" detail)" = "killed 2 leftover processes" ]
		[ "$(ck "daemon$cg" tree_nproc)" = 3 ]
		assert_tree_charged "daemon$cg" daemon1
	done
}

@test "a daemon's parent slow to exit (its environment gone long before it is a zombie): the daemon is killed with the run" {
	# hold=256: the parent frees 264 MiB of small pages as it exits, and
	# only then is the daemon orphaned to the runner; the runner's
	# sentinel child in tree_run leaves proof by descent out
	for cg in 1 0; do
		tree_run slow$cg "$cg" 0 --axis mode=daemon --axis mb=8 --axis hold=256
		[ "$(tsv_col "$BATS_TEST_TMPDIR/slow$cg/runs.tsv" detail)" = "killed 2 leftover processes" ]
		# killed at its deadline: the daemon's parent comes to the
		# runner only as the case dies, already on its way out
		tree_run slowhang$cg "$cg" 1 --axis mode=daemon-hang --axis mb=8 --axis hold=256 \
			--timeout $((4 * SLOW))
		[ "$(tsv_col "$BATS_TEST_TMPDIR/slowhang$cg/runs.tsv" outcome)" = timeout ]
		# the parent unproved (its environment wiped), the daemon not:
		# the parent is waited for all the same, until it hands the
		# daemon on
		tree_run slowwipe$cg "$cg" 0 --axis mode=daemon --axis mb=8 --axis hold=256 --axis wipe=1
	done
}

@test "the end of a case reaps the run's processes and no other child of the runner's" {
	# a child that is not the run's (a -j worker that has just ended,
	# its waiter not back yet) keeps its exit status for its own wait
	run -0 "$ROOT/${MEMREPRO_BUILD:-build}/unit/treeend"
}

@test "a tree of 200 that hangs is killed whole at the timeout" {
	for cg in 1 0; do
		# time for 200 forks to reach their checkpoint on a busy machine
		# (2 s was too short at load 32)
		tree_run hang$cg "$cg" 1 --axis mode=hang --axis n=200 --axis mb=1 --timeout $((6 * SLOW))
		[ "$(tsv_col "$BATS_TEST_TMPDIR/hang$cg/runs.tsv" outcome)" = timeout ]
		[ "$(ck "hang$cg" tree_nproc)" = 201 ]
	done
}

@test "a case whose --describe leaves a daemon behind: the daemon is killed" {
	pidfile=$BATS_TEST_TMPDIR/leak.pid
	run -0 env FORKS_DESCRIBE_LEAK="$pidfile" timeout -k 5 60 "$MR" list --cases "$FIX"
	[[ "$output" == *forks* ]] || false
	pid=$(cat "$pidfile")
	[ -n "$pid" ]
	pid_gone "$pid"
}

@test "an inherited job's child, started during the run, is not the run's: it lives" {
	for cg in 1 0; do
		rm -f "$BATS_TEST_TMPDIR/b.pid"
		# the shell's job sleeps, then starts a daemon and exits: the
		# daemon is orphaned to the runner (a subreaper) mid-run
		# shellcheck disable=SC2016 # expanded by that bash
		run -1 timeout -k 5 60 setsid bash -c '( sleep 1; sleep 600 </dev/null >/dev/null 2>&1 3>&- & echo $! > "$0" ) </dev/null >/dev/null 2>&1 3>&- & exec "$@"' \
			"$BATS_TEST_TMPDIR/b.pid" env MEMREPRO_CGROUP="$cg" "$MR" run --cases "$FIX" \
			--out "$BATS_TEST_TMPDIR/inh$cg" forks --axis allocator=glibc --repeat 1 \
			--axis mode=hang --axis n=2 --timeout $((3 * SLOW))
		b=$(cat "$BATS_TEST_TMPDIR/b.pid")
		SENTINELS+=("$b")
		kill -0 "$b" || { echo "cg=$cg: the runner killed $b, a process outside the run"; return 1; }
		[ "$(tsv_col "$BATS_TEST_TMPDIR/inh$cg/runs.tsv" outcome)" = timeout ]
	done
}

@test "a runner started with SIGCHLD ignored still proves and reaps its children" {
	run -0 timeout 60 perl -e '$SIG{CHLD} = "IGNORE"; exec @ARGV' "$MR" run --cases "$FIX" \
		--out "$BATS_TEST_TMPDIR/o" forks --axis allocator=glibc --axis mode=daemon --repeat 1
	[[ "$output" != *"did not die"* ]] || false
	[ "$(tsv_col "$BATS_TEST_TMPDIR/o/runs.tsv" detail)" = "killed 2 leftover processes" ]
	[ -z "$(pgrep -f "^$FIX/forks" || true)" ]
}

@test "a -j worker that dies: what its case started is killed by the runner, nothing is left" {
	d=$BATS_TEST_TMPDIR/wd
	# (no `timeout` around it: $! must be the runner)
	"$MR" run --cases "$FIX" --out "$d" -j 2 forks --axis allocator=glibc --axis mode=hang \
		--axis n=3,4 --axis mb=1 --timeout $((8 * SLOW)) --repeat 1 >"$BATS_TEST_TMPDIR/wd.out" 2>&1 &
	runner=$!
	# both runs going: 2 cases with 3 and 4 children
	wait_for 30 eval '[ "$(pgrep -f "^$FIX/forks" | wc -l)" -ge 9 ]'
	w=$(pgrep -P "$runner" -x memrepro | head -n 1)
	[ -n "$w" ]
	kill -KILL "$w"
	wait "$runner" || true
	cat "$BATS_TEST_TMPDIR/wd.out"
	[[ "$(cat "$BATS_TEST_TMPDIR/wd.out")" == *"worker $w was killed by signal 9"* ]] || false
	[ -z "$(pgrep -f "^$FIX/forks" || true)" ]
}
