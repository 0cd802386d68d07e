#!/usr/bin/env bats
# check and bless: claims and baselines against real runs of the fixtures.

load test_helper

setup() {
	EXP=$BATS_TEST_TMPDIR/expected
	mkdir -p "$EXP"
}

# check the `ok` fixture (mode a, b, c touch 8, 16 and 32 MiB) on glibc,
# its results into $OUT if set.
check_ok() {
	timeout -k 5 120 "$MR" check --cases "$FIX" --expected "$EXP" \
		--out "${OUT:-$BATS_TEST_TMPDIR/out.$RANDOM}" --axis allocator=glibc --repeat "${REPEAT:-1}" "$@" ok
}

@test "a true claim passes check" {
	printf '%s\n' '# test claims' \
		'more-is-more holds rss_kb@done[mode=a] < rss_kb@done[mode=c] "fixture: 8 MiB < 32 MiB"' > "$EXP/ok.claims"
	run -0 check_ok
	[[ "$output" == *more-is-more* ]] || false
	[[ "$output" == *held* ]] || false
}

@test "a false claim fails check and shows the observed figures" {
	printf '%s\n' \
		'less-is-more holds rss_kb@done[mode=c] < rss_kb@done[mode=a] "fixture: false on purpose"' > "$EXP/ok.claims"
	run -1 check_ok
	[[ "$output" == *less-is-more* ]] || false
	[[ "$output" == *regressed* ]] || false
}

@test "a reported claim that does not hold is printed as does not reproduce and does not fail" {
	printf '%s\n' \
		'old-report reported rss_kb@done[mode=c] < rss_kb@done[mode=a] "fixture: a report this machine contradicts"' > "$EXP/ok.claims"
	run -0 check_ok
	[[ "$output" == *"does not reproduce"* ]] || false
}

@test "a claim over an axis left unnamed must hold for every value of it" {
	# mode is unnamed: rss at done < 20 MiB holds for a and b but not for c
	printf '%s\n' 'small holds rss_kb@done < 20480 "fixture: only a and b are small"' > "$EXP/ok.claims"
	run -1 check_ok
	[[ "$output" == *mode=c* ]] || false
}

@test "a malformed claims file is exit 2 naming file:line:column" {
	printf '%s\n' '# fine' 'broken holds rss_kb@done[mode=a] << 5 "x"' > "$EXP/ok.claims"
	run -2 check_ok
	[[ "$output" == *"ok.claims:2:"* ]] || false
}

@test "a claim naming an unknown metric is exit 2 naming file:line:column" {
	printf '%s\n' 'bad holds rsss_kb@done < 5 "x"' > "$EXP/ok.claims"
	run -2 check_ok
	[[ "$output" == *"ok.claims:1:"* ]] || false
	[[ "$output" == *rsss_kb* ]] || false
}

@test "a claim naming a checkpoint the case does not declare is exit 2 naming file:line:column" {
	printf '%s\n' 'typo holds rss_kb@dnoe[mode=a] < rss_kb@done[mode=c] "x"' > "$EXP/ok.claims"
	run -2 check_ok
	[[ "$output" == *'ok.claims:1:19: unknown checkpoint "dnoe" of case ok (did you mean done?); checkpoints: done'* ]] || false
}

@test "without a baseline for this platform check says so and compares claims only" {
	printf '%s\n' 'more-is-more holds rss_kb@done[mode=a] < rss_kb@done[mode=c] "fixture"' > "$EXP/ok.claims"
	run -0 check_ok
	[[ "$output" == *"no baseline"* ]] || false
}

@test "a blessed baseline passes an unshifted rerun and fails when shifted by a real amount" {
	printf '%s\n' 'more-is-more holds rss_kb@done[mode=a] < rss_kb@done[mode=c] "fixture"' > "$EXP/ok.claims"
	run -0 timeout -k 5 120 "$MR" bless --cases "$FIX" --expected "$EXP" \
		--out "$BATS_TEST_TMPDIR/bless" --axis allocator=glibc --repeat 3 ok
	base=$(ls "$EXP"/*/ok.tsv)
	[ -f "$base" ]
	grep -q '^# platform' "$base"

	REPEAT=3 OUT=$BATS_TEST_TMPDIR/rerun run -0 check_ok
	[[ "$output" == *held* ]] || false

	# Lower every rss_kb median by a quarter: the same rerun is now 33 %
	# above it.
	awk -F'\t' -v OFS='\t' '
		/^#/ || /^config\t/ { print; next }
		$3 == "rss_kb" { $4 = int($4 * 0.75); $5 = int($5 * 0.75); $6 = int($6 * 0.75) }
		{ print }' "$base" > "$base.new"
	mv "$base.new" "$base"
	run -1 mr check --cases "$FIX" --expected "$EXP" --from "$BATS_TEST_TMPDIR/rerun"
	[[ "$output" == *regressed* ]] || false
	[[ "$output" == *rss_kb* ]] || false
}

@test "check --from compares an existing results directory without running" {
	printf '%s\n' 'more-is-more holds rss_kb@done[mode=a] < rss_kb@done[mode=c] "fixture"' > "$EXP/ok.claims"
	run -0 timeout -k 5 120 "$MR" run --cases "$FIX" --out "$BATS_TEST_TMPDIR/r" --axis allocator=glibc --repeat 1 ok
	run -0 mr check --cases "$FIX" --expected "$EXP" --from "$BATS_TEST_TMPDIR/r"
	[[ "$output" == *held* ]] || false
}

@test "a results file with a corrupt line is exit 2 naming file:line" {
	run -0 timeout -k 5 120 "$MR" run --cases "$FIX" --out "$BATS_TEST_TMPDIR/r" --axis allocator=glibc --repeat 1 ok
	printf 'ok\tgarbage\n' >> "$BATS_TEST_TMPDIR/r/runs.tsv"
	n=$(wc -l < "$BATS_TEST_TMPDIR/r/runs.tsv")
	run -2 mr check --cases "$FIX" --expected "$EXP" --from "$BATS_TEST_TMPDIR/r"
	[[ "$output" == *"runs.tsv:$n"* ]] || false
}
