#!/usr/bin/env bats
# Regressions that come together are one finding: the terminal, TAP and the
# report say first what they share (check/finding.h), then list them.
load test_helper

# blessed DIR "CASE..." [OPTION...]: run the CASEs under glibc and jemalloc
# (and the run's OPTIONs) into DIR and bless them into $EXP.  A run beside
# other programs' CPU has jemalloc's figures left out of a baseline and of
# a check (machine.bats): what is
# tested here is how regressions are grouped, so the runs are taken as an
# idle machine's (as_idle) before they are blessed and checked.
blessed() {
	local d=$1 cases=$2
	shift 2
	# shellcheck disable=SC2086 # the cases: a list of names
	run -0 timeout -k 5 120 "$MR" run --cases "$FIX" --out "$d" \
		--axis allocator=glibc,jemalloc --repeat 1 -q "$@" $cases
	grep -q 'allocator=jemalloc.*	ok	' "$d/runs.tsv" ||
		skip "jemalloc is not installed (Debian package libjemalloc2)"
	as_idle "$d"
	# shellcheck disable=SC2086
	run -0 timeout -k 5 120 "$MR" bless --from "$d" --expected "$EXP" -q --yes $cases
}

setup() {
	EXP=$BATS_TEST_TMPDIR/expected
	blessed "$BATS_TEST_TMPDIR/b" touch
	BL=$(ls "$EXP"/*/touch.tsv)
}

# Make the baseline expect rows matching awk condition $1 to be 1 +- 1.
expect_tiny() {
	awk -F'\t' -v OFS='\t' '/^#/ || /^config\t/ { print; next }
		'"$1"' { $4 = $5 = $6 = 1; $8 = 1 } { print }' "$BL" > "$BL.new"
	mv "$BL.new" "$BL"
}

@test "rows of one config and one checkpoint that regress together are said as one finding first" {
	expect_tiny '$1 ~ /allocator=jemalloc/ && $2 == "touched" && $3 ~ /rss|pss|vsz/'
	run -1 mr check --from "$BATS_TEST_TMPDIR/b" --expected "$EXP"
	echo "$output"
	# the case's first line after its name
	printf '%s\n' "$output" | grep -A1 '^touch$' | tail -1 |
		grep -qx '  4 regressed (4 baseline rows), all of config allocator=jemalloc, checkpoint touched'
	# then the rows themselves
	[ "$(printf '%s\n' "$output" | grep -c 'regressed  observed')" -eq 4 ]
	# TAP says it at the top, before the case
	run -1 mr check --from "$BATS_TEST_TMPDIR/b" --expected "$EXP" --format tap
	printf '%s\n' "$output" | grep -m1 -B99 '^# touch$' |
		grep -qx '# 4 regressed (4 baseline rows), all of case touch, config allocator=jemalloc, checkpoint touched'
	# the report's "what changed" row of the case is the finding, not 4 rows
	run -1 timeout -k 5 120 "$MR" report --cases "$FIX" --expected "$EXP" \
		--from "$BATS_TEST_TMPDIR/b" touch
	grep -qxF '| [touch](#case-touch) | - | 4 regressed (4 baseline rows), all of config allocator=jemalloc, checkpoint touched | 2 ok |' \
		"$BATS_TEST_TMPDIR/b/report.md"
}

@test "rows of several checkpoints and metrics share only the config" {
	expect_tiny '$1 ~ /allocator=jemalloc/ && $3 ~ /maxrss|rss_kb/'
	run -1 mr check --from "$BATS_TEST_TMPDIR/b" --expected "$EXP"
	[[ "$output" == *"  2 regressed (2 baseline rows), all of config allocator=jemalloc"$'\n'* ]] || false
}

@test "regressions that share nothing get no lead line" {
	expect_tiny '($1 ~ /allocator=jemalloc/ && $3 == "vsz_kb") || ($1 ~ /allocator=glibc/ && $3 == "maxrss_kb")'
	run -1 mr check --from "$BATS_TEST_TMPDIR/b" --expected "$EXP"
	[[ "$output" != *"all of"* ]] || false
	[ "$(printf '%s\n' "$output" | grep -c 'regressed  observed')" -eq 2 ]
}

@test "a single regression is not a finding of its own" {
	expect_tiny '$1 ~ /allocator=jemalloc/ && $3 == "vsz_kb"'
	run -1 mr check --from "$BATS_TEST_TMPDIR/b" --expected "$EXP"
	[[ "$output" != *"all of"* ]] || false
}

@test "regressions of several cases under one allocator: one line at the top says so" {
	blessed "$BATS_TEST_TMPDIR/b2" "touch ok" --axis mode=a
	for BL in "$EXP"/*/touch.tsv "$EXP"/*/ok.tsv; do
		expect_tiny '$1 ~ /allocator=jemalloc/ && $3 == "maxrss_kb"'
	done
	run -1 mr check --from "$BATS_TEST_TMPDIR/b2" --expected "$EXP"
	echo "$output"
	printf '%s\n' "$output" | grep -m1 'regressed (' |
		grep -qx '2 regressed (2 baseline rows), all of config allocator=jemalloc, metric maxrss_kb'
	# the report's "what changed" leads with it, across the cases
	run -1 timeout -k 5 120 "$MR" report --cases "$FIX" --expected "$EXP" \
		--from "$BATS_TEST_TMPDIR/b2" touch ok
	grep -v '^$' "$BATS_TEST_TMPDIR/b2/report.md" | grep -m1 '^\*\*What changed' |
		grep -qxF '**What changed**: 2 regressed (2 baseline rows), all of config allocator=jemalloc, metric maxrss_kb.'
}
