#!/usr/bin/env bats
# thread-stacks-thp (JDK-8312182, openjdk/jdk#14919): what its claims
# need from the model on any machine.  The huge pages themselves need THP
# always on a kernel before 6.7 (a qemu guest, `--axis kernel=5.10
# --axis kernel.thp=always`): measured in expected/thread-stacks-thp.claims.

load test_helper

# check the case on the host, glibc only, a few threads, extra args after
tcheck() {
	timeout -k 5 120 "$MR" check --profile quick --repeat 1 --axis allocator=glibc \
		--axis threads=50 --out "$BATS_TEST_TMPDIR/out" "$@" thread-stacks-thp
}

@test "thread-stacks-thp: describes its mitigation axis and the report's stacks" {
	run -0 timeout -k 5 20 "$CASES/thread-stacks-thp" --describe
	[[ "$output" == *$'\nmechanism\thugepages'* ]] || false
	grep -Eq '^param	mitigation	none	' <<<"$output"
	grep -Eq '^param	stack_kb	2048	' <<<"$output"
	grep -Eq '^param	threads	1000	200	' <<<"$output"
}

@test "thread-stacks-thp: every thread starts, places its guard and idles" {
	run -0 timeout -k 5 30 "$CASES/thread-stacks-thp" --param threads=20 --param mitigation=glibc-guard
	[[ "$output" == *"thread-stacks-thp: 20 threads x 2048 KiB stacks, mitigation glibc-guard; AnonHugePages "* ]] || false
	[[ "$output" == *"checkpoint started#1"* ]] || false
}

@test "thread-stacks-thp: a stack too small for the touch and the guard is exit 2" {
	run -2 timeout -k 5 20 "$CASES/thread-stacks-thp" --param stack_kb=64 --param touch_kb=16
	[[ "$output" == *"touch_kb + guard_kb + 64 must fit in stack_kb"* ]] || false
}

@test "thread-stacks-thp: the claims this machine makes hold" {
	run -0 tcheck
	[[ "$output" == *"thread-stacks-thp: "*" 0 regressed"* ]] || false
}

@test "thread-stacks-thp: threads that touch half their stack break the touched-only claims" {
	# Whatever the THP mode and the kernel, one claim that a thread costs
	# the pages it touched is made here, and fails.
	run -1 tcheck --axis touch_kb=1024
	[[ "$output" == *"regressed"* ]] || false
}

@test "thread-stacks-thp: the Java original starts its threads at -Xss2m, the mitigation through _JAVA_OPTIONS" {
	command -v java >/dev/null || skip "no java in PATH"
	[ -f "$ROOT/build/lib/Memrepro.class" ] || skip "no Java helper (no javac at build time)"
	run -0 timeout -k 5 120 "$MR" run --repeat 1 --axis allocator=glibc --axis runtime=java \
		--axis threads=20 --axis mitigation=none --out "$BATS_TEST_TMPDIR/out" thread-stacks-thp
	log=$(find "$BATS_TEST_TMPDIR/out/logs" -name '*.log' | head -1)
	[ -n "$log" ]
	grep -q '^started: 20 threads; VmSize ' "$log"
	grep -q 'Picked up _JAVA_OPTIONS: -XX:-THPStackMitigation' "$log"
}
