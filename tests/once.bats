#!/usr/bin/env bats
# Each thing once per command: a case's --describe, its claims file and
# the results directory are each read once by check, report and corpus,
# however many of their steps want them (check/casetab.h).

load test_helper

setup() {
	EXP=$BATS_TEST_TMPDIR/expected
	C=$BATS_TEST_TMPDIR/cases
	mkdir -p "$EXP" "$C"
	# the ok fixture behind a script of its name that counts its
	# --describe runs, one line each, in $ONCE_DESCRIBES
	printf '%s\n' '#!/bin/sh' \
		'[ "$1" = --describe ] && echo describe >> "$ONCE_DESCRIBES"' \
		"exec '$FIX/ok' \"\$@\"" > "$C/ok"
	chmod +x "$C/ok"
	export ONCE_DESCRIBES=$BATS_TEST_TMPDIR/describes
	# a checkpoint named: check asks the description for the case's
	# checkpoints (the session reads the claims for their axis
	# directives, -j's plan for the times they compare)
	printf '%s\n' \
		'more-is-more holds rss_kb@done[mode=a] < rss_kb@done[mode=c] "fixture: 8 MiB < 32 MiB"' \
		> "$EXP/ok.claims"
	OUT=$BATS_TEST_TMPDIR/out
}

# The runner on the counting case: COMMAND [OPTION...].
once() {
	local sub=$1
	shift
	timeout -k 5 120 "$MR" "$sub" --cases "$C" --expected "$EXP" "$@"
}

# How many times the case described itself.
describes() {
	if [ -f "$ONCE_DESCRIBES" ]; then wc -l < "$ONCE_DESCRIBES"; else echo 0; fi
}

# What strace saw FILE opened in LOG: how many times.
opened() {
	grep -c "open.*\"[^\"]*$1\"" "$2" || true
}

needs_strace() {
	command -v strace > /dev/null || skip "strace is not installed"
	strace -f -o /dev/null true 2> /dev/null || skip "strace cannot trace here"
}

# The runner under strace, its opens in LOG: traced LOG COMMAND [OPTION...].
# LeakSanitizer cannot run under ptrace and fails the run (make
# sanitize): the leak check is off for the traced run only.
traced() {
	local log=$1
	shift
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -e trace=open,openat -o "$log" "$MR" "$@"
}

@test "check runs a case's --describe once, and so does check --from" {
	run -0 once check --out "$OUT" --axis allocator=glibc --axis mode=a,c --repeat 1 ok
	[[ "$output" == *more-is-more* ]] || false
	[ "$(describes)" -eq 1 ]
	rm "$ONCE_DESCRIBES"
	run -0 once check --from "$OUT"
	[ "$(describes)" -eq 1 ]
}

@test "report runs a case's --describe once, after a run and of a results directory" {
	run -0 once report --out "$OUT" --axis allocator=glibc --axis mode=a,c --repeat 1 ok
	grep -q 'Fixture: writes 8, 16 or 32 MiB by mode' "$OUT/report.md"
	[ "$(describes)" -eq 1 ]
	rm "$ONCE_DESCRIBES"
	run -0 once report "$OUT"
	[ "$(describes)" -eq 1 ]
}

@test "corpus runs a case's --describe once" {
	run -0 once check --out "$OUT" --axis allocator=glibc --axis mode=a,c --repeat 1 ok
	rm "$ONCE_DESCRIBES"
	run -0 timeout -k 5 60 "$MR" corpus --cases "$C" --expected "$EXP" "$OUT"
	[ "$(describes)" -eq 1 ]
}

@test "check -j2 parses a claims file once" {
	needs_strace
	run -0 traced "$BATS_TEST_TMPDIR/st" check --cases "$C" --expected "$EXP" --out "$OUT" -j2 \
		--axis allocator=glibc --axis mode=a,c --repeat 1 ok
	[ "$(opened ok.claims "$BATS_TEST_TMPDIR/st")" -eq 1 ]
}

@test "report and corpus read the results directory once" {
	needs_strace
	run -0 once check --out "$OUT" --axis allocator=glibc --axis mode=a,c --repeat 1 ok
	run -0 traced "$BATS_TEST_TMPDIR/st.report" report --cases "$C" --expected "$EXP" "$OUT"
	[ "$(opened runs.tsv "$BATS_TEST_TMPDIR/st.report")" -eq 1 ]
	[ "$(opened ok.claims "$BATS_TEST_TMPDIR/st.report")" -eq 1 ]
	run -0 traced "$BATS_TEST_TMPDIR/st.corpus" corpus --cases "$C" --expected "$EXP" "$OUT"
	[ "$(opened runs.tsv "$BATS_TEST_TMPDIR/st.corpus")" -eq 1 ]
}

@test "a session's plans (-j's timed runs and peaks, --shard's costs) read a case's baseline once each" {
	needs_strace
	run -0 once check --out "$OUT" --axis allocator=glibc,jemalloc --axis mode=a,b,c --repeat 1 ok
	run -0 timeout -k 5 60 "$MR" bless --cases "$C" --expected "$EXP" --from "$OUT"
	[ -n "$(find "$EXP" -name ok.tsv)" ] || { echo "no baseline blessed: $output"; false; }
	run -0 traced "$BATS_TEST_TMPDIR/st" run --cases "$C" --expected "$EXP" --out "$OUT.2" -j2 \
		--shard 1/2 --axis allocator=glibc,jemalloc --axis mode=a,b,c --repeat 1 ok
	# it was read once per config for the timed plan, then again for the
	# peaks and the costs: 8 times here.  Once per plan now, and not kept
	# (a case's peak RSS counts the runner's memory at its fork: plan.c)
	[ "$(opened ok.tsv "$BATS_TEST_TMPDIR/st")" -eq 3 ] || { grep 'ok.tsv' "$BATS_TEST_TMPDIR/st"; false; }
}
