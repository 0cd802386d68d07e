#!/usr/bin/env bats
# What a case leaves behind that hides what marks it the run's (its
# session, the runner's token, as root its cgroups): killed when the
# runner can prove it the run's, by descent (it forked the case while it
# had no other child), else named and left running.  Every test keeps a
# sentinel outside the run that must live.

load test_helper

setup() {
	sentinel_start
}

teardown() {
	sentinels_stop
}

# log_pids DIR: the daemons' pids from the run's logs ("pid N").
log_pids() {
	grep -rho 'pid [0-9]*' "$1/logs" | awk '{ print $2 }'
}

# daemon_pid DIR [PID]: the daemon's pid (PID, else the first in DIR's
# logs) into $p, kept to be killed by teardown should the runner have left
# it (only a daemon of the fixture).
daemon_pid() {
	p=${2:-$(log_pids "$1" | head -n 1)}
	[ -n "$p" ] || { echo "no pid in the logs of $1"; return 1; }
	if [ -e "/proc/$p" ] && grep -qx 'sleep\|daemon' "/proc/$p/comm"; then
		SENTINELS+=("$p")
	fi
}

# assert_sentinel: the process outside the run lives.
@test "a daemon with a clean environment and a session of its own is killed without cgroups" {
	for env in clean wipe; do
		d=$BATS_TEST_TMPDIR/$env
		run -0 env MEMREPRO_CGROUP=0 timeout -k 5 60 "$MR" run --cases "$FIX" --out "$d" daemon \
			--axis allocator=glibc --axis env="$env" --repeat 1
		daemon_pid "$d"
		pid_gone "$p" || { echo "env=$env: the daemon $p outlived the run: $(ps -o pid=,ppid=,args= -p "$p")"; return 1; }
		[ "$(tsv_col "$d/runs.tsv" detail)" = "killed 1 leftover process" ]
		assert_sentinel
	done
}

@test "a -j worker's daemon with a clean environment is killed without cgroups" {
	d=$BATS_TEST_TMPDIR/j
	run -0 env MEMREPRO_CGROUP=0 timeout -k 5 60 "$MR" run --cases "$FIX" --out "$d" -j 2 daemon \
		--axis allocator=glibc --axis env=clean,wipe --repeat 1
	[ "$(log_pids "$d" | wc -l)" = 2 ]
	for p in $(log_pids "$d"); do
		daemon_pid "$d" "$p"
		pid_gone "$p" || { echo "the daemon $p outlived the run"; return 1; }
	done
	# each run says it killed what it left (the daemon; its parent too
	# when a busy worker found the double fork still half done)
	run -0 tsv_col "$d/runs.tsv" detail
	[ "${#lines[@]}" -eq 2 ]
	for l in "${lines[@]}"; do
		[[ "$l" =~ ^killed\ [12]\ leftover\ process(es)?$ ]] || { echo "detail: $l"; false; }
	done
	assert_sentinel
}

@test "as root, a daemon that left the run's cgroups and wiped its token is killed" {
	[ "$(id -u)" = 0 ] || skip "only root can move a process out of the run's cgroups"
	d=$BATS_TEST_TMPDIR/root
	run -0 timeout -k 5 60 "$MR" run --cases "$FIX" --out "$d" daemon \
		--axis allocator=glibc --axis env=wipe --axis cgroup=leave --repeat 1
	daemon_pid "$d"
	pid_gone "$p" || { echo "the daemon $p outlived the run: $(cat "/proc/$p/cgroup")"; return 1; }
	[ "$(tsv_col "$d/runs.tsv" detail)" = "killed 1 leftover process" ]
	assert_sentinel
	assert_no_run_cgroups "$d"
}

@test "a runner with a child of its own cannot prove the daemon its run's: named, left running" {
	d=$BATS_TEST_TMPDIR/inh
	# the runner inherits a job: its descendants could come to the runner
	# too, so a child without token or cgroup is no longer provably the run's
	# shellcheck disable=SC2016 # expanded by that bash
	run -0 --separate-stderr timeout -k 5 60 bash -c 'sleep 600 </dev/null >/dev/null 2>&1 3>&- & echo $! > "$0"; exec "$@"' \
		"$BATS_TEST_TMPDIR/job.pid" env MEMREPRO_CGROUP=0 "$MR" run --cases "$FIX" --out "$d" daemon \
		--axis allocator=glibc --axis env=clean --repeat 1
	SENTINELS+=("$(cat "$BATS_TEST_TMPDIR/job.pid")")
	daemon_pid "$d"
	kill -0 "$p" || { echo "the daemon $p, not provably the run's, was killed"; return 1; }
	want="pid $p (sleep) left running: not provably this run's"
	[ "$(tsv_col "$d/runs.tsv" detail)" = "$want" ] || { tsv_col "$d/runs.tsv" detail; return 1; }
	[[ "$stderr" == *"daemon: $want"* ]] || { echo "stderr: $stderr"; return 1; }
	kill -0 "${SENTINELS[1]}" || { echo "the inherited job was killed"; return 1; }
	assert_sentinel
}
