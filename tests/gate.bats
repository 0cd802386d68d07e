#!/usr/bin/env bats
# The memory gate of run -- CMD (docs/command.md): --claims FILE and a
# baseline of one's own (bless --from DIR NAME --expected DIR, then run --
# CMD --expected DIR), judged after the runs by check's own code.

load test_helper

ALLOC="$ROOT/tests/fixtures/command/alloc.sh"

# gate ARGS...: run a command, results into the test's tmpdir.
gate() {
	timeout -k 5 120 "$MR" run --out "$BATS_TEST_TMPDIR/out" --repeat 1 --axis allocator=glibc \
		--name mine "$@"
}

claims() {
	printf '%s\n' "$@" > "$BATS_TEST_TMPDIR/mine.claims"
}

@test "--claims FILE: judged after the runs as check judges them; held 0, a failing claim 1" {
	claims '# our budget' \
		'budget holds maxrss_kb[allocator=glibc] < 200000 "our budget: 200 MB"' \
		'kept holds rss_kb@exit[allocator=glibc] > 8000 "it holds its 10 MiB to the end"'
	run -0 --separate-stderr gate --claims "$BATS_TEST_TMPDIR/mine.claims" -- "$ALLOC" 10
	# the table first, then the verdicts, then where the results are
	[[ "$output" == *"peak RSS"*"claim  budget"*"held"*"claim  kept"*"held"* ]] || false
	[[ "$output" == *"mine: 2 claims held, 0 reproduces, 0 regressed"* ]] || false
	[[ "$output" == *"results: $BATS_TEST_TMPDIR/out"* ]] || false
	rm -rf "$BATS_TEST_TMPDIR/out"
	claims 'tight holds maxrss_kb[allocator=glibc] < 1000 "a budget it cannot keep"'
	run -1 --separate-stderr gate --claims "$BATS_TEST_TMPDIR/mine.claims" -- "$ALLOC" 10
	[[ "$output" == *"claim  tight"*"regressed"* ]] || false
	[[ "$output" == *"1 regressed"* ]] || false
}

@test "--format junit: check's JUnit on stdout, the table on stderr; a failure carries the figures" {
	claims 'tight holds maxrss_kb[allocator=glibc] < 1000 "a budget it cannot keep"'
	run -1 --separate-stderr gate --claims "$BATS_TEST_TMPDIR/mine.claims" --format junit -- "$ALLOC" 10
	[[ "$output" == "<?xml"* ]] || false
	[[ "$output" == *'<testsuite name="mine" tests="2" failures="1"'* ]] || false
	[[ "$output" == *'<property name="claims" value="'"$BATS_TEST_TMPDIR/mine.claims"'"/>'* ]] || false
	[[ "$output" == *'<testcase classname="mine" name="tight"'*'<failure type="regressed"'* ]] || false
	[[ "$output" != *"peak RSS"* ]] || false
	[[ "$stderr" == *"peak RSS"*"results: $BATS_TEST_TMPDIR/out"* ]] || false
	command -v xmllint >/dev/null || skip "no xmllint to read the XML with"
	xmllint --noout - <<<"$output"
}

@test "bad gate input is exit 2 before anything runs: a claims file at file:line:col, a missing one, --format without a gate" {
	claims 'ok holds maxrss_kb[allocator=glibc] < 1000 "fine"' \
		'bad holds maxrss_kb[allocator=glibc] < < 1 "two comparisons"'
	run -2 --separate-stderr gate --claims "$BATS_TEST_TMPDIR/mine.claims" -- "$ALLOC" 1
	[[ "$stderr" == *"$BATS_TEST_TMPDIR/mine.claims:2:40: "* ]] || false
	[ ! -e "$BATS_TEST_TMPDIR/out" ]
	run -2 --separate-stderr gate --claims "$BATS_TEST_TMPDIR/nosuch.claims" -- "$ALLOC" 1
	[[ "$stderr" == *"--claims $BATS_TEST_TMPDIR/nosuch.claims: No such file or directory"* ]] || false
	run -2 --separate-stderr gate --format junit -- "$ALLOC" 1
	[[ "$stderr" == *"--format: run -- CMD prints verdicts only with --claims FILE or --expected DIR"* ]] || false
	run -2 --separate-stderr timeout 60 "$MR" run --cases "$FIX" --out "$BATS_TEST_TMPDIR/out" touch --format junit
	[[ "$stderr" == *"--format does not apply to run of cases"* ]] || false
	run -2 --separate-stderr timeout 60 "$MR" run --cases "$FIX" --out "$BATS_TEST_TMPDIR/out" touch \
		--claims "$BATS_TEST_TMPDIR/mine.claims"
	[[ "$stderr" == *"--claims applies to a command only"* ]] || false
	[ ! -e "$BATS_TEST_TMPDIR/out" ]
}

@test "a baseline of one's own: bless a command's results by --name into --expected DIR; run --expected DIR judges its rows" {
	exp="$BATS_TEST_TMPDIR/exp"
	run -0 gate -q -- "$ALLOC" 10
	run -0 timeout 60 "$MR" bless --from "$BATS_TEST_TMPDIR/out" --expected "$exp" mine
	[[ "$output" == *"mine: wrote $exp/"*"/mine.tsv"* ]] || false
	bl=$(echo "$exp"/*/mine.tsv)
	[ -s "$bl" ]
	grep -q "^allocator=glibc	-	maxrss_kb	" "$bl"
	rm -rf "$BATS_TEST_TMPDIR/out"
	# the same program: held
	run -0 --separate-stderr gate --expected "$exp" -- "$ALLOC" 10
	[[ "$output" == *"baseline  allocator=glibc  "*" held"* ]] || false
	[[ "$output" == *"mine: no claims; baseline "*" held, 0 regressed"* ]] || false
	rm -rf "$BATS_TEST_TMPDIR/out"
	# six times the memory: its peak regressed, exit 1
	run -1 --separate-stderr gate --expected "$exp" -- "$ALLOC" 60
	[[ "$output" == *"maxrss_kb    regressed  observed "* ]] || false
}

@test "check --from DIR --claims FILE NAME judges a command's results with FILE; a claim without allocator= ranges over each" {
	run -0 timeout -k 5 120 "$MR" run -q --out "$BATS_TEST_TMPDIR/out" --repeat 1 --axis allocator=glibc,jemalloc \
		--name mine -- "$ALLOC" 10
	claims 'budget holds maxrss_kb < 262144 "the container'"'"'s 256 MiB"'
	run -0 timeout 60 "$MR" check --from "$BATS_TEST_TMPDIR/out" --expected "$NO_EXPECTED" \
		--claims "$BATS_TEST_TMPDIR/mine.claims" mine
	[[ "$output" == *"claim  budget"*"held"* ]] || false
	[[ "$output" == *"mine: 1 claim held"* ]] || false
	claims 'budget holds maxrss_kb < 1024 "a budget it cannot keep"'
	run -1 timeout 60 "$MR" check --from "$BATS_TEST_TMPDIR/out" --expected "$NO_EXPECTED" \
		--claims "$BATS_TEST_TMPDIR/mine.claims" mine
	[[ "$output" == *"claim  budget"*"regressed"* ]] || false
	# one case's results only, and --from
	run -2 --separate-stderr timeout 60 "$MR" check --from "$BATS_TEST_TMPDIR/out" \
		--claims "$BATS_TEST_TMPDIR/mine.claims"
	[[ "$stderr" == *"--claims FILE judges one case's results: check --from DIR --claims FILE NAME"* ]] || false
	run -2 --separate-stderr timeout 60 "$MR" bless --from "$BATS_TEST_TMPDIR/out" \
		--claims "$BATS_TEST_TMPDIR/mine.claims" mine
	[[ "$stderr" == *"--claims does not apply to bless"* ]] || false
}
