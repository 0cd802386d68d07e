#!/usr/bin/env bats
# Interrupting the runner: its cases are stopped, every finished run stays
# readable, and run --resume finishes the job with the same results as a run
# that was never interrupted.

load test_helper

# nap sleeps 60 ms per run: 3 modes x 3 repeats of it, then 3 of touch.
NAP_MS=60
MATRIX=(nap touch --axis allocator=glibc --axis "ms=$NAP_MS" --axis mb=4 --repeat 3)

# The runner on MATRIX into $1, sent signal $2 once two runs have ended and
# the third (a nap) has begun: nine runs, 0.5 s or more, are still to come
# when it lands.
interrupted_run() {
	local d
	d=$(printf %q "$1")
	signal_when "$2" "runs_ended $d 2 && runs_begun $d 3" \
		"$MR" run --cases "$FIX" --out "$1" "${MATRIX[@]}"
}

# The rows that must match between two result sets: the runs and their
# checkpoints, without the figures that vary from run to run.
rows() {
	cut -f1-5 "$1/runs.tsv"
	cut -f1-5 "$1/checkpoints.tsv"
}

@test "SIGINT stops the case, keeps every finished run readable, exits 130 and says how to resume" {
	d=$BATS_TEST_TMPDIR/int
	run -130 --separate-stderr interrupted_run "$d" INT
	echo "$stderr"
	[[ "$stderr" == *"interrupted by SIGINT"* ]] || false
	[[ "$stderr" == *"memrepro run --resume $d"* ]] || false
	n=$(tsv_col "$d/runs.tsv" outcome | wc -l)
	echo "runs ended: $n"
	[ "$n" -ge 1 ]
	[ "$n" -lt 12 ]
	[ "$(tsv_col "$d/runs.tsv" outcome | sort -u)" = ok ]
	# the results so far are complete enough to check: no half row anywhere
	run -0 timeout 60 "$MR" check --from "$d" --expected "$NO_EXPECTED"
	# no case of the interrupted run is left (the one it stopped included)
	assert_interrupted_logs_pids_gone "$d" nap 1
	[ "$(ls "$d"/logs/nap/*.log | wc -l)" -ge "$n" ]
}

@test "SIGTERM does the same and exits 143" {
	d=$BATS_TEST_TMPDIR/term
	run -143 interrupted_run "$d" TERM
	[[ "$output" == *"interrupted by SIGTERM"* ]] || false
	[[ "$output" == *"memrepro run --resume $d"* ]] || false
	[ "$(tsv_col "$d/runs.tsv" outcome | sort -u)" = ok ]
}

@test "run --resume finishes an interrupted run with the same results as an uninterrupted one" {
	# The uninterrupted run goes side by side with the other two (mostly
	# naps: they hardly compete, and none of their figures is compared).
	# fd 3 closed: bats waits for whoever holds it.
	u=$BATS_TEST_TMPDIR/uninterrupted
	timeout -k 5 120 "$MR" run --cases "$FIX" --out "$u" "${MATRIX[@]}" >"$u.out" 2>&1 3>&- &
	upid=$!
	d=$BATS_TEST_TMPDIR/resumed
	run -130 interrupted_run "$d" INT
	done_before=$(tsv_col "$d/runs.tsv" outcome | wc -l)
	run -0 timeout -k 5 120 "$MR" run --resume "$d"
	[[ "$output" == *"resuming $d: $done_before runs had ended"* ]] || false
	grep -q $'^resumed.1\t' "$d/env.tsv"

	wait "$upid" || { cat "$u.out"; false; }
	diff <(rows "$d") <(rows "$u")
	[ "$(tsv_col "$d/runs.tsv" outcome | wc -l)" -eq 12 ]
	run -0 timeout 60 "$MR" check --from "$d" --expected "$NO_EXPECTED"
}

@test "--resume repairs what a runner killed outright leaves: a line cut short, rows of the unfinished run" {
	d=$BATS_TEST_TMPDIR/killed
	run -130 interrupted_run "$d" INT
	# As if SIGKILLed in the middle of writing the next run: its
	# checkpoint row got out, its runs.tsv row only half.
	last=$(tail -n 1 "$d/checkpoints.tsv")
	printf '%s\n' "$last" | awk -F'\t' -v OFS='\t' '{ $3 = 99; print }' >> "$d/checkpoints.tsv"
	printf 'nap\tallocator=glibc,mode=a,ms=%s\t99\to' "$NAP_MS" >> "$d/runs.tsv"
	run -2 timeout 60 "$MR" check --from "$d" --expected "$NO_EXPECTED"
	[[ "$output" == *"runs.tsv:"*"line cut short"* ]] || false

	run -0 timeout -k 5 120 "$MR" run --resume "$d"
	[[ "$output" == *"runs.tsv: resuming: dropped a line cut short"* ]] || false
	[[ "$output" == *"checkpoints.tsv: resuming: dropped 1 row of the run that was interrupted"* ]] || false
	# the repeat column only: a figure may well be 99
	[ "$(awk -F'\t' 'NR > 1 && $3 == 99' "$d/checkpoints.tsv" | wc -l)" -eq 0 ]
	[ "$(tsv_col "$d/runs.tsv" outcome | wc -l)" -eq 12 ]
	run -0 timeout 60 "$MR" check --from "$d" --expected "$NO_EXPECTED"
}

@test "--resume refuses options of its own, and results recorded on another setup" {
	d=$BATS_TEST_TMPDIR/refuse
	run -130 interrupted_run "$d" INT
	run -2 "$MR" run --resume "$d" --repeat 5
	[[ "$output" == *"--repeat cannot be given with --resume"* ]] || false
	run -2 "$MR" run --resume "$d" touch
	[[ "$output" == *"case names cannot be given with --resume"* ]] || false
	# another kernel (or libc, allocator, memrepro...) than the one recorded
	sed -i 's/^kernel\t.*/kernel\t0.0.1 elsewhere/' "$d/env.tsv"
	run -2 "$MR" run --resume "$d"
	[[ "$output" == *"kernel was '0.0.1 elsewhere' when the runs began"* ]] || false
	# nothing was run
	[ "$(tsv_col "$d/runs.tsv" outcome | wc -l)" -lt 12 ]
	run -2 "$MR" run --resume "$BATS_TEST_TMPDIR/no-such-dir"
}

# What a failed test left in its own cgroup (own_cgroup) is removed.
teardown() {
	own_cgroup_remove
}

@test "a runner killed outright takes its case along; the next runner kills what escaped" {
	# Both runners in a cgroup of the test's own: a runner of another test
	# suite on the machine, started in between, would otherwise sweep what
	# the killed one left before the next one here could.
	own_cgroup
	d=$BATS_TEST_TMPDIR/sigkill
	# (no `timeout` around it: $! must be the runner; it is killed below)
	"${IN_OWN_CG[@]}" "$MR" run --cases "$FIX" --out "$d" hang --axis allocator=glibc --repeat 1 --timeout 30 >/dev/null &
	runner=$!
	log=$d/logs/hang/default.1.log
	wait_for 10 eval '[ "$(grep -c "^pid" "$log" 2>/dev/null)" = 3 ]' || true
	kill -KILL "$runner"
	wait "$runner" || true
	# (cgroup v2 gives no controller to the children of a cgroup with
	# processes in it)
	grep -q $'^memory_cgroup\tnone$' "$d/env.tsv" && skip "no memory cgroup for a runner in a cgroup of the test's own"
	[ "$(tsv_col "$d/env.tsv" value '$1 == "memory_cgroup.parent"')" = "$OWN_CG" ]
	# the case itself dies with the runner (PR_SET_PDEATHSIG)
	case_pid=$(awk '/\(case\)/ { print $2 }' "$log")
	wait_for 5 pid_gone "$case_pid" || true
	pid_gone "$case_pid"
	# its child and its grandchild (in a group of its own) escaped that,
	# but not the next runner, which finds them in the dead runner's cgroup
	run -0 timeout -k 5 60 "${IN_OWN_CG[@]}" "$MR" run --cases "$FIX" --out "$BATS_TEST_TMPDIR/next" touch \
		--axis allocator=glibc --axis mb=4 --repeat 1
	[[ "$output" == *"left in "*"memrepro-$runner-"*"by runner $runner, which is gone"* ]] || false
	wait_for 5 assert_log_pids_gone "$log" >/dev/null || true
	assert_log_pids_gone "$log"
	assert_no_run_cgroups "$d"
}

@test "a runner stopped (SIGSTOP) during a run: its times are marked not measured, no verdict uses them" {
	d=$BATS_TEST_TMPDIR/stopped
	# (no `timeout` around it: $! must be the runner)
	"$MR" run --cases "$FIX" --out "$d" nap --axis allocator=glibc --axis mode=a,b --axis ms=1500 \
		--repeat 1 >/dev/null 2>&1 &
	runner=$!
	wait_for 20 runs_begun "$d" 1
	kill -STOP "$runner"
	sleep 1
	kill -CONT "$runner"
	wait "$runner"
	# the first run stood still about 1 s; the second did not
	[ "$(tsv_col "$d/runs.tsv" stopped_ms '$2 ~ /mode=a/')" -ge 900 ]
	[ "$(tsv_col "$d/runs.tsv" stopped_ms '$2 ~ /mode=b/')" = 0 ]
	[[ "$(tsv_col "$d/runs.tsv" detail '$2 ~ /mode=a/')" == "the runner stood still for "*" s (stopped or suspended): its times are not measured" ]] || false
	mkdir "$BATS_TEST_TMPDIR/exp"
	printf '%s\n' 'naps holds wall_ms[mode=a] > 1000 "fixture: nap sleeps 1.5 s"' \
		'naps-b holds wall_ms[mode=b] > 1000 "fixture: nap sleeps 1.5 s"' > "$BATS_TEST_TMPDIR/exp/nap.claims"
	run -0 timeout 60 "$MR" check --from "$d" --expected "$BATS_TEST_TMPDIR/exp"
	[[ "$output" == *"naps "*"skipped ("*"measured while the runner stood still (stopped or suspended)"* ]] || false
	[[ "$output" == *"naps-b "*"held"* ]] || false
}

@test "SIGTERM or SIGINT before any run (a case still describing itself) exits 143 or 130, not 2" {
	c=$BATS_TEST_TMPDIR/cases
	mkdir -p "$c"
	printf '#!/bin/sh\n: > "%s/described"\nexec sleep 30\n' "$BATS_TEST_TMPDIR" > "$c/sleepy"
	chmod +x "$c/sleepy"
	for sig in TERM:143 INT:130; do
		rm -f "$BATS_TEST_TMPDIR/described"
		run -"${sig#*:}" signal_when "${sig%:*}" "[ -e $BATS_TEST_TMPDIR/described ]" \
			"$MR" run --cases "$c" --out "$BATS_TEST_TMPDIR/out" sleepy
		[[ "$output" == *"sleepy --describe: interrupted"* ]] || false
		[ ! -e "$BATS_TEST_TMPDIR/out" ]
	done
}
