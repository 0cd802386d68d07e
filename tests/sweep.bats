#!/usr/bin/env bats
# The sweep of the cgroups of runners that are gone (proc/cgsweep.c): only
# on proof that holds in any pid namespace, else left and said so.  The
# runners here run in a cgroup of the test's own (own_cgroup), where no
# other runner on the machine sweeps; every test keeps a sentinel outside
# the runs that must live.

load test_helper

setup() {
	sentinel_start
}

teardown() {
	sentinels_stop
	own_cgroup_remove
}

# free_pid: a pid no process has here.
free_pid() {
	local p
	for ((p = 30001; p < 32700; p++)); do
		[ -e "/proc/$p" ] || { echo "$p"; return 0; }
	done
	return 1
}

# quick_run: a run of the ok fixture in the test's own cgroup, whose
# sweep is looked at.
quick_run() {
	run -0 timeout -k 5 60 "${IN_OWN_CG[@]}" "$MR" run --cases "$FIX" --out "$BATS_TEST_TMPDIR/o" ok \
		--axis allocator=glibc --repeat 1
}

# sleeper_in CG: a process unrelated to any runner, put in cgroup CG
# (made), into $s.
sleeper_in() {
	mkdir "$1"
	setsid sleep 600 </dev/null >/dev/null 2>&1 3>&- &
	s=$!
	SENTINELS+=("$s")
	echo "$s" >"$1/cgroup.procs"
}

@test "a cgroup named as an older runner's, its pid absent: the process in it lives, the cgroup is left and said so" {
	own_cgroup
	fp=$(free_pid)
	sleeper_in "$OWN_CG/memrepro-$fp-1"
	quick_run
	kill -0 "$s" || { echo "the process in memrepro-$fp-1 was killed: $output"; return 1; }
	[[ "$output" == *"left memrepro-$fp-1: named without its runner's pid namespace and start time"* ]] || false
	kill -0 "${SENTINELS[0]}"
}

@test "a cgroup whose name proves its runner gone (this pid namespace, no such pid): emptied and removed" {
	own_cgroup
	fp=$(free_pid)
	cg=$OWN_CG/memrepro-$fp-p$(stat -L -c %i /proc/self/ns/pid)-t$(stat -L -c %i /proc/self/ns/time 2>/dev/null || echo 0)-s12345-1
	sleeper_in "$cg"
	quick_run
	[[ "$output" == *"left in $cg by runner $fp, which is gone"* ]] || false
	wait_for 5 pid_gone "$s" || true
	pid_gone "$s"
	[ ! -d "$cg" ]
	kill -0 "${SENTINELS[0]}"
}

@test "a runner in another pid namespace, its pid absent here: its live run is left alone" {
	[ "$(id -u)" = 0 ] || skip "unshare --pid needs root"
	command -v unshare >/dev/null || skip "no unshare"
	own_cgroup
	fp=$(free_pid)
	d=$BATS_TEST_TMPDIR/inner
	# the inner runner gets pid fp in its namespace, which no process has here
	# shellcheck disable=SC2016 # expanded by that bash
	timeout -k 5 60 "${IN_OWN_CG[@]}" unshare --pid --fork --mount-proc bash -c 'echo $(($0 - 1)) > /proc/sys/kernel/ns_last_pid && "$@"; exit $?' \
		"$fp" "$MR" run --cases "$FIX" --out "$d" nap --axis allocator=glibc --axis mode=a \
		--axis ms=$((4000 * SLOW)) --repeat 1 >"$BATS_TEST_TMPDIR/inner.out" 2>&1 &
	inner=$!
	wait_for 20 eval 'compgen -G "$OWN_CG/memrepro-$fp-*" >/dev/null' || {
		cat "$BATS_TEST_TMPDIR/inner.out"
		skip "the inner runner did not get pid $fp"
	}
	quick_run
	wait "$inner" || { cat "$BATS_TEST_TMPDIR/inner.out"; return 1; }
	[ "$(tsv_col "$d/runs.tsv" outcome)" = ok ] || { cat "$d/runs.tsv"; return 1; }
	[[ "$output" == *"left memrepro-$fp-p"*": made by a runner in another pid namespace"* ]] || false
	kill -0 "${SENTINELS[0]}"
}
