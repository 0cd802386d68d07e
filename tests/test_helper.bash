# Shared set-up for memrepro's bats tests.
bats_require_minimum_version 1.5.0
# Tests run against the built tree: `make test` builds first.

ROOT="$(cd "$BATS_TEST_DIRNAME/.." && pwd)"
# MEMREPRO_BUILD=build-san: the runner of `make sanitize` (cases and
# fixtures stay the plain build's: sanitizers would change their figures).
MR="$ROOT/${MEMREPRO_BUILD:-build}/memrepro"
FIX="$ROOT/build/fixtures"
CASES="$ROOT/build/cases"
# Slow environments (sanitizers) stretch the timeouts of tests that time.
SLOW=${MEMREPRO_SLOW:-1}
# The user's own allocator registry (~/.config/memrepro/allocators) stays
# out of the tests; a test that wants one sets XDG_CONFIG_HOME itself.
export XDG_CONFIG_HOME="$BATS_RUN_TMPDIR/no-user-config"
# Nor does its release cache (~/.cache/memrepro): what a test fetches goes
# to the run's own cache; a test that wants a fresh one sets its own.
export XDG_CACHE_HOME="$BATS_RUN_TMPDIR/cache"
# An expectations directory that is there and empty: --expected must name
# a directory (a misspelt one is exit 2).
NO_EXPECTED="$BATS_RUN_TMPDIR/no-expected"
mkdir -p "$NO_EXPECTED"

# needs_network: the test fetches from Debian's archive or the npm
# registry; it runs only when asked (MEMREPRO_TEST_NETWORK=1, as .ci/run
# does), else it is skipped saying so.  `make test` alone needs no network.
needs_network() {
	[ "${MEMREPRO_TEST_NETWORK:-}" = 1 ] || skip "needs the network: set MEMREPRO_TEST_NETWORK=1"
}

# Run the runner on the fixture cases, never longer than a minute.
mr() {
	timeout -k 5 60 "$MR" "$@"
}

# mrf SUBCOMMAND ...: the runner on the fixtures, results into the test's tmpdir.
mrf() {
	local sub=$1
	shift
	timeout -k 5 120 "$MR" "$sub" --cases "$FIX" --out "$BATS_TEST_TMPDIR/out" "$@"
}

# Column value: tsv_col FILE COLUMN ROW_FILTER_AWK_EXPR -> prints the column of matching rows.
tsv_col() {
	awk -F'\t' -v col="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next }
		'"${3:-1}"' { print $(idx[col]) }' "$1"
}

# No process of process group $1 is left.
assert_group_gone() {
	local left
	left=$(ps -e -o pgid=,pid=,comm= | awk -v g="$1" '$1 == g')
	if [ -n "$left" ]; then
		echo "left over in group $1: $left"
		return 1
	fi
}

# Process $1 is gone: no such process, or a zombie (dead: only its
# parent's wait is missing).  /proc is looked at again after ps: the
# process may have been reaped in between.
pid_gone() {
	[ ! -e "/proc/$1" ] || [ "$(ps -o stat= -p "$1" | cut -c1)" = Z ] || [ ! -e "/proc/$1" ]
}

# No process whose pid is listed in a run's log ("pid N" lines) is alive.
assert_log_pids_gone() {
	local p pids
	pids=$(grep -o 'pid [0-9]*' "$1" | awk '{print $2}')
	[ -n "$pids" ] || { echo "no pids in $1"; return 1; }
	for p in $pids; do
		if ! pid_gone "$p"; then
			echo "pid $p of $1 is still alive: $(ps -o pid=,stat=,comm= -p "$p")"
			return 1
		fi
	done
}

# The logs of an interrupted run in results directory $1 (case $2): no
# process any of them lists is alive.  A run that ended (a row of
# runs.tsv) must list its pids; one the signal stopped may have been
# stopped before its case said them: at most $3 such (the runs in flight).
assert_interrupted_logs_pids_gone() {
	local log rel silent=0
	for log in "$1"/logs/"$2"/*.log; do
		rel=${log#"$1"/}
		if grep -q '^pid ' "$log"; then
			assert_log_pids_gone "$log" || return 1
		elif tsv_col "$1/runs.tsv" log | grep -qxF "$rel"; then
			echo "no pids in $log, whose run ended"
			return 1
		else
			silent=$((silent + 1))
		fi
	done
	[ "$silent" -le "$3" ] || { echo "$silent logs without pids: more than the $3 runs in flight"; return 1; }
}

# wait_for SECONDS COMMAND...: COMMAND every 20 ms until it succeeds, for
# SECONDS or a little more; its last status.
wait_for() {
	local n=$(($1 * 50))
	shift
	until "$@"; do
		[ $((n -= 1)) -gt 0 ] || return 1
		sleep 0.02
	done
}

# runs_begun DIR N: N runs or more of results directory DIR have begun: their
# logs have a "pid N" line (nap and hang write it first thing).
runs_begun() {
	[ "$(grep -l '^pid ' "$1"/logs/*/*.log 2>/dev/null | wc -l)" -ge "$2" ]
}

# runs_ended DIR N: DIR/runs.tsv has N rows or more.
runs_ended() {
	[ "$(tail -n +2 "$1/runs.tsv" 2>/dev/null | wc -l)" -ge "$2" ]
}

# signal_when SIGNAL CONDITION COMMAND...: COMMAND in the background (under
# timeout, a bound only), sent SIGNAL as soon as the command
# line CONDITION succeeds (30 s at most), then waited for: its exit status.
# Polling, not a fixed delay: the signal lands at the same point of the
# runs however loaded the machine is.
signal_when() {
	local sig=$1 cond=$2 pid child
	shift 2
	timeout -k 10 120 "$@" &
	pid=$!
	wait_for 30 eval "$cond || ! kill -0 $pid 2>/dev/null" || true
	# To the command itself, as a terminal's ^C reaches it: timeout would
	# pass it on to its whole group and follow it with SIGCONT, which
	# discards the SIGSTOP of a ptrace attach in flight (LeakSanitizer's
	# at exit, under make sanitize: the runner then spins for good).
	child=$(pgrep -P "$pid" | head -n 1)
	kill -s "$sig" "${child:-$pid}" 2>/dev/null || true
	wait "$pid"
}

# No memory cgroup a runner made (memrepro-<pid>-<n>, under the parent
# env.tsv names) is left once the run of results directory $1 is over: none
# whose runner is gone (a runner removes its own before it exits, so those
# left are leaks; a live runner's are its own business: another test suite
# may be running on the machine).  What a runner killed outright elsewhere
# leaves, the next runner there sweeps within a moment: only what is still
# there after 2 s counts.
assert_no_run_cgroups() {
	local parent
	parent=$(awk -F'\t' '$1 == "memory_cgroup.parent" { print $2 }' "$1/env.tsv")
	[ -n "$parent" ] || return 0
	wait_for 2 no_leaked_cgroups "$parent" || {
		echo "cgroups left by runners that are gone: $(leaked_cgroups "$parent")"
		return 1
	}
}

# The memrepro-<pid>-<n> cgroups under $1 whose runner (pid) is gone.
leaked_cgroups() {
	local cg pid
	for cg in "$1"/memrepro-*-*; do
		[ -d "$cg" ] || continue
		pid=${cg##*/memrepro-}
		pid=${pid%%-*}
		if [[ "$pid" =~ ^[0-9]+$ ]] && pid_gone "$pid"; then
			echo "$cg"
		fi
	done
}

no_leaked_cgroups() {
	[ -z "$(leaked_cgroups "$1")" ]
}

# fake_platform DIR KEY THP KERNEL: results DIR's env.tsv says it ran on
# platform KEY (THP mode, kernel), as if taken on another machine.
fake_platform() {
	awk -F'\t' -v OFS='\t' -v key="$2" -v thp="$3" -v kernel="$4" '
		$1 == "platform" { $2 = key } $1 == "thp" { $2 = thp }
		$1 == "kernel" { $2 = kernel } { print }' "$1/env.tsv" > "$1/env.tsv.new"
	mv "$1/env.tsv.new" "$1/env.tsv"
}

# touch_runs DIR: three runs of the touch fixture (32 MiB, glibc) into
# DIR, the results a file's tests make once and copy (setup_file).
touch_runs() {
	timeout -k 5 120 "$MR" run --cases "$FIX" --out "$1" --axis allocator=glibc \
		--axis mb=32 --repeat 3 --quiet touch >/dev/null
}

# A memory cgroup of the test's own beside the ones runners make, named so
# that no runner sweeps it: its path in OWN_CG, and in IN_OWN_CG a command
# prefix that runs a command in it under the same pid (exec).  Skips where
# the runner makes none.
own_cgroup() {
	local parent
	run -0 timeout -k 5 60 "$MR" run --cases "$FIX" --out "$BATS_TEST_TMPDIR/probe" touch \
		--axis allocator=glibc --axis mb=4 --repeat 1
	parent=$(tsv_col "$BATS_TEST_TMPDIR/probe/env.tsv" value '$1 == "memory_cgroup.parent"')
	[ -n "$parent" ] || skip "no memory cgroup here to find the escaped ones by"
	OWN_CG=$parent/bats-$BASHPID
	mkdir "$OWN_CG"
	# and on the unified hierarchy, where the kill cgroups go, when it is
	# another one (the hybrid layout)
	OWN_KCG=$(tsv_col "$BATS_TEST_TMPDIR/probe/env.tsv" value '$1 == "kill_cgroup.parent"')
	if [ -n "$OWN_KCG" ] && [ "$OWN_KCG" != - ] && [ "$OWN_KCG" != "$parent" ]; then
		OWN_KCG=$OWN_KCG/bats-$BASHPID
		mkdir "$OWN_KCG"
	else
		OWN_KCG=$OWN_CG
	fi
	# shellcheck disable=SC2016 # expanded by that sh
	IN_OWN_CG=(sh -c 'echo $$ > "$0/cgroup.procs" && echo $$ > "$1/cgroup.procs" && shift && exec "$@"' "$OWN_CG" "$OWN_KCG")
}

# What a failed test left in OWN_CG (own_cgroup), processes and cgroups,
# is removed; for its teardown.
own_cgroup_remove() {
	local cg p
	[ -d "${OWN_CG:-}" ] || return 0
	for cg in "$OWN_CG"/*/ "$OWN_CG/" "$OWN_KCG"/*/ "$OWN_KCG/"; do
		for p in $(cat "$cg/cgroup.procs" 2>/dev/null); do
			kill -KILL "$p" 2>/dev/null || true
		done
	done
	for cg in "$OWN_CG"/*/ "$OWN_CG/" "$OWN_KCG"/*/ "$OWN_KCG/"; do
		if [ -d "$cg" ]; then
			wait_for 5 rmdir "$cg" 2>/dev/null
		fi
	done
}

# as_idle DIR: results DIR as if the machine had been idle (other_cpu_ms 0
# in runs.tsv), for tests about something else than the load: a busy
# machine's times are not figures (tests/machine.bats).
as_idle() {
	awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "other_cpu_ms") c = i }
		NR > 1 && c && $c != "-" { $c = 0 } { print }' "$1/runs.tsv" > "$1/runs.tsv.idle"
	mv "$1/runs.tsv.idle" "$1/runs.tsv"
}

# A process outside every run, started by sentinel_start in a test's
# setup: a test that spawns and kills checks it with assert_sentinel, and
# sentinels_stop (teardown) ends it.
SENTINELS=()
sentinel_start() {
	setsid sleep 600 </dev/null >/dev/null 2>&1 3>&- &
	SENTINELS+=("$!")
}
sentinels_stop() {
	[ "${#SENTINELS[@]}" -eq 0 ] || kill "${SENTINELS[@]}" 2>/dev/null || true
}
assert_sentinel() {
	kill -0 "${SENTINELS[0]}" || { echo "the sentinel ${SENTINELS[0]}, outside the run, was killed"; return 1; }
}
