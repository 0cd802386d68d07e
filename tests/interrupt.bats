#!/usr/bin/env bats
# Interrupting the runner: its cases are stopped, every finished run stays
# readable, and run --resume finishes the job with the same results as a run
# that was never interrupted.

load test_helper

# nap sleeps 150 ms per run: 3 modes x 3 repeats of it, then 3 of touch.
MATRIX=(nap touch --axis allocator=glibc --axis ms=150 --axis mb=4 --repeat 3)

# The runner on MATRIX into $1, sent signal $2 after $3 seconds.
interrupted_run() {
	timeout --preserve-status -k 10 -s "$2" "$3" \
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
	run -130 --separate-stderr interrupted_run "$d" INT 1
	echo "$stderr"
	[[ "$stderr" == *"interrupted by SIGINT"* ]] || false
	[[ "$stderr" == *"memrepro run --resume $d"* ]] || false
	n=$(tsv_col "$d/runs.tsv" outcome | wc -l)
	echo "runs ended: $n"
	[ "$n" -ge 1 ]
	[ "$n" -lt 12 ]
	[ "$(tsv_col "$d/runs.tsv" outcome | sort -u)" = ok ]
	# the results so far are complete enough to check: no half row anywhere
	run -0 timeout 60 "$MR" check --from "$d" --expected "$BATS_TEST_TMPDIR/none"
	# no case of the interrupted run is left (the one it stopped included)
	for log in "$d"/logs/nap/*.log; do
		assert_log_pids_gone "$log"
	done
	[ "$(ls "$d"/logs/nap/*.log | wc -l)" -ge "$n" ]
}

@test "SIGTERM does the same and exits 143" {
	d=$BATS_TEST_TMPDIR/term
	run -143 interrupted_run "$d" TERM 1
	[[ "$output" == *"interrupted by SIGTERM"* ]] || false
	[ "$(tsv_col "$d/runs.tsv" outcome | sort -u)" = ok ]
}

@test "run --resume finishes an interrupted run with the same results as an uninterrupted one" {
	d=$BATS_TEST_TMPDIR/resumed
	run -130 interrupted_run "$d" INT 1
	done_before=$(tsv_col "$d/runs.tsv" outcome | wc -l)
	run -0 timeout -k 5 120 "$MR" run --resume "$d"
	[[ "$output" == *"resuming $d: $done_before runs had ended"* ]] || false
	grep -q $'^resumed.1\t' "$d/env.tsv"

	u=$BATS_TEST_TMPDIR/uninterrupted
	run -0 timeout -k 5 120 "$MR" run --cases "$FIX" --out "$u" "${MATRIX[@]}"
	diff <(rows "$d") <(rows "$u")
	[ "$(tsv_col "$d/runs.tsv" outcome | wc -l)" -eq 12 ]
	run -0 timeout 60 "$MR" check --from "$d" --expected "$BATS_TEST_TMPDIR/none"
}

@test "--resume repairs what a runner killed outright leaves: a line cut short, rows of the unfinished run" {
	d=$BATS_TEST_TMPDIR/killed
	run -130 interrupted_run "$d" INT 1
	# As if SIGKILLed in the middle of writing the next run: its
	# checkpoint row got out, its runs.tsv row only half.
	last=$(tail -n 1 "$d/checkpoints.tsv")
	printf '%s\n' "$last" | awk -F'\t' -v OFS='\t' '{ $3 = 99; print }' >> "$d/checkpoints.tsv"
	printf 'nap\tallocator=glibc,mode=a,ms=150\t99\to' >> "$d/runs.tsv"
	run -2 timeout 60 "$MR" check --from "$d" --expected "$BATS_TEST_TMPDIR/none"
	[[ "$output" == *"runs.tsv:"*"line cut short"* ]] || false

	run -0 timeout -k 5 120 "$MR" run --resume "$d"
	[[ "$output" == *"runs.tsv: resuming: dropped a line cut short"* ]] || false
	[[ "$output" == *"checkpoints.tsv: resuming: dropped 1 row of the run that was interrupted"* ]] || false
	! grep -q $'\t99\t' "$d/checkpoints.tsv"
	[ "$(tsv_col "$d/runs.tsv" outcome | wc -l)" -eq 12 ]
	run -0 timeout 60 "$MR" check --from "$d" --expected "$BATS_TEST_TMPDIR/none"
}

@test "--resume refuses options of its own, and results recorded on another setup" {
	d=$BATS_TEST_TMPDIR/refuse
	run -130 interrupted_run "$d" INT 1
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

@test "a runner killed outright takes its case along; the next runner kills what escaped" {
	d=$BATS_TEST_TMPDIR/sigkill
	# (no `timeout` around it: $! must be the runner; it is killed below)
	"$MR" run --cases "$FIX" --out "$d" hang --axis allocator=glibc --repeat 1 --timeout 30 >/dev/null &
	runner=$!
	log=$d/logs/hang/default.1.log
	for _ in $(seq 100); do
		[ "$(grep -c '^pid' "$log" 2>/dev/null)" = 3 ] && break
		sleep 0.1
	done
	kill -KILL "$runner"
	wait "$runner" || true
	grep -q $'^memory_cgroup\tnone$' "$d/env.tsv" && skip "no memory cgroup here to find the escaped ones by"
	# the case itself dies with the runner (PR_SET_PDEATHSIG)
	case_pid=$(awk '/\(case\)/ { print $2 }' "$log")
	for _ in $(seq 50); do
		kill -0 "$case_pid" 2>/dev/null || break
		sleep 0.1
	done
	! kill -0 "$case_pid" 2>/dev/null
	# its child and its grandchild (in a group of its own) escaped that,
	# but not the next runner, which finds them in the dead runner's cgroup
	run -0 timeout -k 5 60 "$MR" run --cases "$FIX" --out "$BATS_TEST_TMPDIR/next" touch \
		--axis allocator=glibc --axis mb=4 --repeat 1
	[[ "$output" == *"left in "*"memrepro-$runner-"*"by runner $runner, which is gone"* ]] || false
	sleep 0.2
	assert_log_pids_gone "$log"
	assert_no_run_cgroups "$d"
}
