#!/usr/bin/env bats
# Verdicts in words (docs/formats.md, "Verdicts in words"): each shape of
# tests/data/words/fixture-stacks.claims said in words over the hand-made
# results of tests/data, the expression one --verbose away, the same
# words in JSON, TAP and JUnit.

load test_helper

DATA="$ROOT/tests/data"
WORDS="$DATA/words"

# check of the words' claims over results-held (every claim held or
# reproduces but one-false) or results-regressed (ratio fails for
# jemalloc).
held() {
	timeout -k 5 60 "$MR" check --from "$DATA/results-held" --expected "$WORDS" "$@"
}
regressed() {
	timeout -k 5 60 "$MR" check --from "$DATA/results-regressed" --expected "$WORDS" "$@"
}

# The line of claim $1 in the human table of $output.
claim_line() {
	grep -E "^  claim  $1 " <<<"$output"
}

# The text after the verdict word $2 of claim $1's line.
words_of() {
	claim_line "$1" | sed -E "s/^  claim  $1 +$2 +//"
}

@test "a ratio over the allocators: the two sides by what differs, the ratio against the factor, how many held, what was skipped" {
	run -0 held
	[ "$(words_of ratio held)" = "allocator=glibc: RSS madvise=dontneed 71.9 MiB vs madvise=free 147.3 MiB at cleared: 0.49x (claim: below 0.6x) held for 2 of 3 allocators; skipped for allocator=tcmalloc" ]
}

@test "a failed combination: its figures, then which combinations failed" {
	run -1 regressed
	[ "$(words_of ratio regressed)" = "allocator=jemalloc: RSS madvise=dontneed 147.5 MiB vs madvise=free 147.3 MiB at cleared: 1.00x (claim: below 0.6x) held for 2 of 4 allocators: failed for allocator=jemalloc; skipped for allocator=tcmalloc" ]
}

@test "the factor on the left, a quotient: said as a ratio against the factor as written" {
	run -0 held
	[ "$(words_of flipped reproduces)" = "RSS madvise=free 147.3 MiB vs madvise=dontneed 71.9 MiB at cleared: 2.05x (claim: above 2x) held" ]
	[ "$(words_of quotient reproduces)" = "RSS madvise=dontneed 71.9 MiB vs madvise=free 147.3 MiB at cleared: 0.49x (claim: below 0.6x) held" ]
}

@test "growth between two checkpoints: signed, from one to the other, against a bound and as a ratio" {
	run -0 held
	[ "$(words_of growth reproduces)" = "RSS glibc madvise=dontneed -84.5 MiB from created to cleared (claim: below 0 KiB) held" ]
	[ "$(words_of growth-ratio reproduces)" = "RSS +24 KiB from created#1 to created#2 vs +84.5 MiB from cleared#1 to created#1: 0.0003x (claim: below 0.01x) held" ]
}

@test "a bound: the figure and the number in the figure's unit; a difference of two configs" {
	run -0 held
	[ "$(words_of bound reproduces)" = "max RSS (rusage) glibc madvise=free 157.3 MiB (claim: above 97.7 MiB) held" ]
	[ "$(words_of bound-left reproduces)" = "max RSS (rusage) glibc madvise=free 157.3 MiB (claim: above 97.7 MiB) held" ]
	[ "$(words_of cfgdiff reproduces)" = "RSS madvise=free minus madvise=dontneed +75.4 MiB at cleared (claim: above 48.8 MiB) held" ]
}

@test "a sum of user and system time of one config" {
	run -0 held
	[ "$(words_of sum reproduces)" = "CPU time (user+sys) madvise=free 683 ms vs madvise=dontneed 750 ms: 0.91x (claim: below 2x) held" ]
	run -1 regressed
	[ "$(words_of sum 'does not reproduce')" = "CPU time (user+sys) madvise=free 674 ms vs madvise=dontneed 250 ms: 2.70x (claim: below 2x) failed" ]
}

@test "and: clauses joined by '; ', two bounds of the same figures said once, the false one marked" {
	run -0 held
	[ "$(words_of between reproduces)" = "RSS madvise=dontneed 71.9 MiB vs madvise=free 147.3 MiB at cleared: 0.49x (claim: above 0.3x and below 0.6x) held" ]
	[ "$(words_of both reproduces)" = "RSS madvise=dontneed 71.9 MiB vs madvise=free 147.3 MiB at cleared: 0.49x (claim: below 0.6x); wall time glibc madvise=free 820 ms (claim: below 10 s) held" ]
	[ "$(words_of one-false 'does not reproduce')" = "RSS madvise=dontneed 71.9 MiB vs madvise=free 147.3 MiB at cleared: 0.49x (claim: below 0.6x); wall time glibc madvise=free 820 ms (claim: below 10 ms, false) failed" ]
}

@test "combinations of two axes are counted as combinations" {
	run -0 held
	[ "$(words_of combos reproduces)" = "allocator=glibc,madvise=dontneed: RSS 156.4 MiB at created#2 vs 156.4 MiB at created#1: 1.00x (claim: at most 1.1x) held in 4 of 6 combinations; skipped for allocator=tcmalloc,madvise=dontneed and allocator=tcmalloc,madvise=free" ]
}

@test "a factor and a number: the bound they come to" {
	run -0 held
	[ "$(words_of affine reproduces)" = "RSS madvise=dontneed 71.9 MiB vs madvise=free 147.3 MiB at cleared (claim: below 0.5x + 9.8 MiB = 83.4 MiB) held" ]
}

@test "a shape without words is the expression with its figures" {
	run -0 held
	[ "$(words_of nested reproduces)" = "73 630 - 160 150 - (150 820 - 160 200) (-77 140) < 0 held" ]
	# a ratio to a drop: no ratio to say
	[[ "$(words_of negative 'does not reproduce')" == *" < 0.5 * (73 630 - 160 150) ("*") failed" ]] || false
}

@test "a ratio's decimals say what the comparison says" {
	# 73 630 / 150 820 = 0.4882: "0.49x" would read as not below 0.49x,
	# and as above 0.4882x
	exp=$BATS_TEST_TMPDIR/exp
	mkdir -p "$exp"
	printf '%s\n' 'close holds rss_kb@cleared[allocator=glibc,madvise=dontneed] < 0.49 * rss_kb@cleared[allocator=glibc,madvise=free] "fixture"' \
		'over reported rss_kb@cleared[allocator=glibc,madvise=dontneed] > 0.4882 * rss_kb@cleared[allocator=glibc,madvise=free] "fixture"' \
		'far holds rss_kb@cleared[allocator=glibc,madvise=dontneed] < 0.6 * rss_kb@cleared[allocator=glibc,madvise=free] "fixture"' \
		> "$exp/fixture-stacks.claims"
	run -0 timeout -k 5 60 "$MR" check --from "$DATA/results-held" --expected "$exp"
	[[ "$(words_of close held)" == *": 0.488x (claim: below 0.49x) held" ]] || false
	[[ "$(words_of over 'does not reproduce')" == *": 0.488x (claim: above 0.4882x) failed" ]] || false
	[[ "$(words_of far held)" == *": 0.49x (claim: below 0.6x) held" ]] || false
}

@test "--verbose: the expression on the claim's line, the words below it" {
	run -0 held --verbose
	[ "$(words_of ratio held)" = "allocator=glibc: 73 630 < 0.6 * 150 820 (90 492); 2 of 3 combinations held; 1 skipped: no data for allocator=tcmalloc,madvise=dontneed (skipped: libtcmalloc_minimal.so.4 not found)" ]
	grep -qF '               in words: allocator=glibc: RSS madvise=dontneed 71.9 MiB vs madvise=free 147.3 MiB at cleared: 0.49x (claim: below 0.6x) held for 2 of 3 allocators' <<<"$output"
}

@test "json: words beside the detail, null where there are none; tap and junit say them too" {
	run -0 held --format json
	[ "$(jq -r '.cases[0].claims[] | select(.id == "bound") | .words' <<<"$output")" = "max RSS (rusage) glibc madvise=free 157.3 MiB (claim: above 97.7 MiB) held" ]
	[ "$(jq -r '.cases[0].claims[] | select(.id == "bound") | .detail' <<<"$output")" = "161 100 > 100000" ]
	# every claim has the key
	[ "$(jq '[.cases[0].claims[] | has("words")] | all' <<<"$output")" = true ]
	run -0 timeout -k 5 60 "$MR" check --from "$DATA/results-held" --expected "$DATA/undefined" --format json
	[ "$(jq -r '.cases[0].claims[] | select(.id == "inf-holds") | .words' <<<"$output")" = null ]
	run -0 held --format tap
	grep -qxF '# in words: max RSS (rusage) glibc madvise=free 157.3 MiB (claim: above 97.7 MiB) held' <<<"$output"
	grep -qxF '# 161 100 > 100000' <<<"$output"
	run -1 regressed --format junit
	xmllint --noout --schema "$ROOT/tests/schemas/junit.xsd" - <<<"$output"
	msg=$(xmllint --xpath 'string(//testcase[@name="ratio"]/failure/@message)' - <<<"$output")
	[ "$msg" = "regressed: allocator=jemalloc: RSS madvise=dontneed 147.5 MiB vs madvise=free 147.3 MiB at cleared: 1.00x (claim: below 0.6x) held for 2 of 4 allocators: failed for allocator=jemalloc; skipped for allocator=tcmalloc" ]
	out=$(xmllint --xpath 'string(//testcase[@name="ratio"]/system-out)' - <<<"$output")
	[[ "$out" == *"expression: allocator=jemalloc: 151 012 < 0.6 * 150 880 (90 528) is false"* ]] || false
}
