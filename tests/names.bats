#!/usr/bin/env bats
# The name rules of cases, checkpoints and parameters (lib/mr_schema.h):
# lib/ (a case describing itself, recording a checkpoint) and the runner
# (reading the description, the records) accept and refuse the same names.

load test_helper

# names_as NAME: the names fixture copied into a cases directory as NAME;
# the directory in CASES_DIR.
names_as() {
	CASES_DIR=$BATS_TEST_TMPDIR/cases
	mkdir -p "$CASES_DIR"
	cp "$FIX/names" "$CASES_DIR/$1"
}

# run_names NAME: the runner on that case, one run; results in $BATS_TEST_TMPDIR/out.
run_names() {
	run timeout -k 5 120 "$MR" run --cases "$CASES_DIR" --out "$BATS_TEST_TMPDIR/out" \
		--axis allocator=glibc --repeat 1 "$1"
}

@test "names: a case named foo_bar is refused by lib and by the runner" {
	names_as foo_bar
	run ! "$CASES_DIR/foo_bar" --describe
	[[ "$output" == *'case name "foo_bar" is not [a-z0-9][a-z0-9-]{0,63}'* ]] || false
	run_names foo_bar
	[ "$status" -eq 2 ]
	[[ "$output" == *"bad case name 'foo_bar'"* ]] || false
}

@test "names: a case named foo-bar is accepted by both" {
	names_as foo-bar
	run -0 "$CASES_DIR/foo-bar" --describe
	[[ "$output" == *$'\nname\tfoo-bar\n'* ]] || false
	run_names foo-bar
	[ "$status" -eq 0 ]
	[ "$(tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" outcome)" = ok ]
}

@test "names: a 48- and a 63-character checkpoint are described and recorded, by hand and under the runner" {
	local n
	for n in 48 63; do
		names_as "names-$n"
		run -0 "$CASES_DIR/names-$n"
		[[ "$output" == "checkpoint $(printf 'k%.0s' $(seq "$n"))#1 "* ]] || false
		rm -rf "$BATS_TEST_TMPDIR/out"
		run_names "names-$n"
		[ "$status" -eq 0 ]
		[ "$(tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" outcome)" = ok ]
		[ "$(tsv_col "$BATS_TEST_TMPDIR/out/checkpoints.tsv" checkpoint)" = "$(printf 'k%.0s' $(seq "$n"))" ]
	done
}

@test "names: a 64-character checkpoint is refused by lib and by the runner's reader" {
	names_as names-64
	run ! "$CASES_DIR/names-64" --describe
	[[ "$output" == *'is not [a-z0-9_-]{1,63}'* ]] || false
	# the runner reads a description that names one
	local long
	long=$(printf 'k%.0s' $(seq 64))
	cat >"$CASES_DIR/longckpt" <<SH
#!/bin/sh
printf 'memrepro-case\t1\nname\tlongckpt\ntitle\tFixture\nsource\ttests/names.bats\n'
printf 'checkpoint\t$long\tits help\n'
SH
	chmod +x "$CASES_DIR/longckpt"
	run_names longckpt
	[ "$status" -eq 2 ]
	[[ "$output" == *"checkpoint name longer than 63 bytes"* ]] || false
}

@test "names: a parameter named runtime or libc is reserved for lib and the runner" {
	names_as names-runtime
	run ! "$CASES_DIR/names-runtime" --describe
	[[ "$output" == *'parameter name "runtime" is reserved for the runner'* ]] || false
	local p
	for p in runtime libc kernel; do
		cat >"$CASES_DIR/res$p" <<SH
#!/bin/sh
printf 'memrepro-case\t1\nname\tres$p\ntitle\tFixture\nsource\ttests/names.bats\n'
printf 'param\t$p\ta\ta\ta|b\t-\tits help\n'
SH
		chmod +x "$CASES_DIR/res$p"
		run_names "res$p"
		[ "$status" -eq 2 ]
		[[ "$output" == *"parameter name '$p' is reserved for the runner"* ]] || false
	done
}
