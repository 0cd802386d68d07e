#!/usr/bin/env bats
# -j N: runs whose times nobody compares go side by side; the timed ones
# run alone; runs.tsv says which had company, and no time of one that had
# any reaches a verdict.

load test_helper

setup() {
	EXP=$BATS_TEST_TMPDIR/expected
	mkdir -p "$EXP"
	# nap's mode=c is timed (a claim on its wall_ms); a and b are not
	printf '%s\n' \
		'c-naps holds wall_ms[mode=c] > 40 "fixture: mode c sleeps 60 ms"' \
		'c-rests holds t_ms@rested[mode=c] > 40 "fixture: the same at its checkpoint"' > "$EXP/nap.claims"
	printf '%s\n' \
		'writes holds rss_kb@touched > 7000 "fixture: 8 MiB written"' > "$EXP/touch.claims"
}

# jrun DIR [OPTIONS]: nap (60 ms, modes a b c) and touch (8 MiB), 2 repeats.
jrun() {
	timeout -k 5 120 "$MR" run --cases "$FIX" --expected "$EXP" --axis allocator=glibc \
		--axis ms=60 --repeat 2 -q --out "$1" "${@:2}" nap touch
}

# The verdicts of check --from DIR as "verdict claim" lines, sorted.
verdicts() {
	timeout -k 5 60 "$MR" check --from "$1" --expected "$2" --format tap |
		grep -E '^(not )?ok ' | sed 's/^\(not ok\|ok\) [0-9]* /\1 /' | sort
}

@test "with -j 2 the untimed runs overlap and the timed ones run alone" {
	d=$BATS_TEST_TMPDIR/j2
	run -0 jrun "$d" -j 2
	[ "$(tsv_col "$d/env.tsv" value '$1 == "jobs"')" = 2 ]
	[ "$(tsv_col "$d/runs.tsv" outcome | sort -u)" = ok ]
	[ "$(tsv_col "$d/runs.tsv" outcome | wc -l)" -eq 8 ]
	# mode c: timed, so alone, every repeat
	[ "$(tsv_col "$d/runs.tsv" overlap '$1 == "nap" && $2 ~ /mode=c/' | sort -u)" = 0 ]
	# a and b and touch had company: two at a time, six runs (the last
	# one started may find the other slot just freed)
	beside=$(tsv_col "$d/runs.tsv" overlap '!($1 == "nap" && $2 ~ /mode=c/)' |
		awk '$1 > 0' | wc -l)
	echo "runs with company: $beside"
	[ "$beside" -ge 5 ]
	run -0 timeout -k 5 60 "$MR" check --from "$d" --expected "$EXP"
}

@test "without -j every run is alone, and says so" {
	d=$BATS_TEST_TMPDIR/j1
	run -0 timeout -k 5 60 "$MR" run --cases "$FIX" --axis allocator=glibc --axis ms=20 \
		--repeat 2 -q --out "$d" nap
	[ "$(tsv_col "$d/runs.tsv" overlap | sort -u)" = 0 ]
	[ "$(tsv_col "$d/env.tsv" value '$1 == "jobs"')" = 1 ]
}

@test "-j 1 and -j 2 give the same rows and verdicts" {
	# The two side by side: a runner's -j is about its own runs, and the
	# claims on nap's times hold however loaded the machine is (it sleeps
	# 60 ms at least).  fd 3 closed: bats waits for whoever holds it.
	jrun "$BATS_TEST_TMPDIR/a" -j 1 >"$BATS_TEST_TMPDIR/a.out" 2>&1 3>&- &
	a=$!
	run -0 jrun "$BATS_TEST_TMPDIR/b" -j 2
	wait "$a" || { cat "$BATS_TEST_TMPDIR/a.out"; false; }
	rows() { cut -f1-4 "$1/runs.tsv" | sort; cut -f1-5 "$1/checkpoints.tsv" | sort; }
	diff <(rows "$BATS_TEST_TMPDIR/a") <(rows "$BATS_TEST_TMPDIR/b")
	# each runner is the other's busy machine: what -j changes is the
	# question here, not the load (machine.bats asks that)
	as_idle "$BATS_TEST_TMPDIR/a"
	as_idle "$BATS_TEST_TMPDIR/b"
	diff <(verdicts "$BATS_TEST_TMPDIR/a" "$EXP") <(verdicts "$BATS_TEST_TMPDIR/b" "$EXP")
}

@test "a time measured beside other runs never reaches a verdict" {
	d=$BATS_TEST_TMPDIR/untimed
	# no claims: nothing is timed, every run may have company
	run -0 timeout -k 5 120 "$MR" run --cases "$FIX" --expected "$NO_EXPECTED" \
		--axis allocator=glibc --axis ms=150 --axis mode=c --repeat 2 -q -j 2 --out "$d" nap
	[ "$(tsv_col "$d/runs.tsv" overlap '$(idx["overlap"]) == 0' | wc -l)" -eq 0 ]
	# then a claim on that time: it has no figure, and says why
	run -0 --separate-stderr timeout -k 5 60 "$MR" check --from "$d" --expected "$EXP" -v
	echo "$output"
	[[ "$output" == *"c-naps"*"wall_ms measured beside other runs (-j)"* ]] || false
	[[ "$output" == *"c-rests"*"t_ms measured beside other runs (-j)"* ]] || false
	# a memory figure of the same runs is one
	[ "$(tsv_col "$d/checkpoints.tsv" rss_kb | wc -l)" -eq 2 ]
}

@test "-j on a run that is interrupted stops every case and resumes" {
	d=$BATS_TEST_TMPDIR/int
	# SIGINT once the first two runs have ended and the next two begun: 8
	# runs of 100 ms two at a time, three rounds still to come when it lands
	run -130 signal_when INT "runs_ended $(printf %q "$d") 2 && runs_begun $(printf %q "$d") 4" \
		"$MR" run --cases "$FIX" --expected "$EXP" --axis allocator=glibc \
		--axis ms=100 --axis mode=a,b --repeat 4 -j 2 --out "$d" nap
	[[ "$output" == *"interrupted by SIGINT"* ]] || false
	[ "$(tsv_col "$d/runs.tsv" outcome | sort -u)" = ok ]
	n=$(tsv_col "$d/runs.tsv" outcome | wc -l)
	[ "$n" -lt 8 ]
	assert_interrupted_logs_pids_gone "$d" nap 2
	run -0 timeout -k 5 60 "$MR" run --resume "$d" -j 2
	[ "$(tsv_col "$d/runs.tsv" outcome | wc -l)" -eq 8 ]
	# the resume took -j 2 too: its runs (rows after the first n) had company
	if [ $((8 - n)) -ge 2 ]; then
		[ "$(tail -n +$((n + 2)) "$d/runs.tsv" | cut -f17 | awk '$1 > 0' | wc -l)" -ge 1 ]
	fi
}

@test "bad -j values are exit 2 naming the option" {
	for v in 0 -1 65 abc 1.5 ''; do
		run -2 --separate-stderr "$MR" run --cases "$FIX" --out "$BATS_TEST_TMPDIR/o" --jobs "$v" nap
		[[ "$stderr" == *"--jobs"* ]] || false
		[ ! -e "$BATS_TEST_TMPDIR/o" ]
	done
	run -2 --separate-stderr "$MR" run --cases "$FIX" --out "$BATS_TEST_TMPDIR/o" -j0 nap
	[[ "$stderr" == *"--jobs"* ]] || false
}
