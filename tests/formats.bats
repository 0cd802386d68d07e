#!/usr/bin/env bats
# check --format: the same verdicts as a table, TAP, JUnit XML and JSON.

load test_helper

DATA="$ROOT/tests/data"
XSD="$ROOT/tests/schemas/junit.xsd"

# check over the hand-made inputs of tests/data (README.md there).
regressed() {
	timeout -k 5 60 "$MR" check --from "$DATA/results-regressed" --expected "$DATA/expected" "$@"
}
held() {
	timeout -k 5 60 "$MR" check --from "$DATA/results-held" --expected "$DATA/expected" "$@"
}

# An expected dir whose one claim cites text XML and JSON must escape:
# markup, an entity, quotes, a backslash (\" and \\ in the claims syntax).
tricky_expected() {
	local exp=$BATS_TEST_TMPDIR/expected
	cp -R "$DATA/expected" "$exp"
	cat > "$exp/fixture-stacks.claims" <<-'EOF'
	tricky holds rss_kb@cleared[madvise=dontneed] < 0.6 * rss_kb@cleared[madvise=free] "fixture <b>&amp; \"quoted\" 'x' \\ 73.63 MB"
	EOF
	echo "$exp"
}

@test "human is the default format" {
	run -1 regressed
	default=$output
	run -1 regressed --format human
	[ "$output" = "$default" ]
	[[ "$output" == *"dontneed-returns  regressed"* ]] || false
}

@test "tap: version, plan, one ok/not ok line per verdict, directives and # lines only" {
	run -1 regressed --format tap
	[ "${lines[0]}" = "TAP version 13" ]
	plan=$(printf '%s\n' "$output" | sed -n 2p)
	n=$(printf '%s\n' "$output" | grep -cE '^(not )?ok [0-9]+ ')
	[ "$plan" = "1..$n" ]
	# nothing else than the header, test lines and "# " diagnostics
	! printf '%s\n' "$output" | sed 1,2d | grep -vE '^((not )?ok [0-9]+ |# )' || false
	[[ "$output" == *"not ok 1 fixture-stacks: claim dontneed-returns regressed"* ]] || false
	printf '%s\n' "$output" | grep -q '^# allocator=jemalloc: 151 012 < 0.6 \* 150 880'
	printf '%s\n' "$output" | grep -q '^ok [0-9]* fixture-stacks: claim fast-free # XFAIL does not reproduce$'
	printf '%s\n' "$output" | grep -q '^ok [0-9]* fixture-stacks: claim tcmalloc-returns # SKIP '
	printf '%s\n' "$output" | grep -q '^not ok [0-9]* fixture-stacks: run allocator=glibc,madvise=free repeat 2 failed (crashed: SIGSEGV)$'
	printf '%s\n' "$output" | grep -q '^not ok [0-9]* fixture-stacks: baseline allocator=jemalloc,madvise=dontneed rss_kb@cleared regressed (observed 151 012, expected 80 100 +/- 4 005)$'
	# test numbers run 1..N in order
	[ "$(printf '%s\n' "$output" | grep -oE '^(not )?ok [0-9]+' | awk '{ print $NF }' | paste -sd' ')" = "$(seq -s' ' 1 "$n")" ]
}

@test "tap of results that held has no not ok line and exits 0" {
	run -0 held --format tap
	! printf '%s\n' "$output" | grep -q '^not ok' || false
	printf '%s\n' "$output" | grep -q '^ok [0-9]* fixture-stacks: claim dontneed-returns held$'
}

@test "tap shows a failed run's log as # lines" {
	run -1 timeout -k 5 120 "$MR" run --cases "$FIX" --out "$BATS_TEST_TMPDIR/r" --axis allocator=glibc --repeat 1 fail
	mkdir -p "$BATS_TEST_TMPDIR/exp"
	run -1 "$MR" check --from "$BATS_TEST_TMPDIR/r" --expected "$BATS_TEST_TMPDIR/exp" --format tap
	printf '%s\n' "$output" | grep -q '^not ok 1 fail: run .*failed (failed: exit 1)$'
	printf '%s\n' "$output" | grep -q '^# fail: the work failed on purpose'
}

@test "junit: valid against the common schema, a testcase per claim and per config" {
	command -v xmllint >/dev/null || skip "xmllint not installed (Debian package libxml2-utils)"
	regressed --format junit > "$BATS_TEST_TMPDIR/j.xml" || [ $? -eq 1 ]
	run -0 xmllint --noout --schema "$XSD" "$BATS_TEST_TMPDIR/j.xml"
	x() { xmllint --xpath "$1" "$BATS_TEST_TMPDIR/j.xml"; }
	# 5 claims and 8 configs
	[ "$(x 'count(//testcase)')" -eq 13 ]
	[ "$(x 'string(/testsuites/@tests)')" -eq 13 ]
	[ "$(x 'string(/testsuites/@failures)')" -eq "$(x 'count(//testcase[failure])')" ]
	[ "$(x 'string(/testsuites/@errors)')" -eq "$(x 'count(//testcase[error])')" ]
	[ "$(x 'string(/testsuites/@skipped)')" -eq "$(x 'count(//testcase[skipped and not(failure)])')" ]
	[ "$(x 'string(//testcase[@name="dontneed-returns"]/failure/@type)')" = regressed ]
	msg=$(x 'string(//testcase[@name="allocator=jemalloc,fibers=1000,madvise=dontneed"]/failure/@message)')
	[[ "$msg" == *"rss_kb@cleared observed 151 012, expected 80 100 +/- 4 005"* ]] || false
	[ "$(x 'count(//testcase[@name="fast-free"]/skipped)')" -eq 1 ]
}

# The configs of results dir $1's runs.tsv, sorted, and the names of
# junit file $2's config testcases (those whose name has a "="), sorted.
runs_configs() {
	tsv_col "$1/runs.tsv" config | sort -u
}
junit_configs() {
	xmllint --xpath '//testcase/@name' "$1" | sed -n 's/^ *name="\(.*=.*\)"$/\1/p' | sort
}

@test "junit: a run that crashed makes its config an error, apart from the failures" {
	command -v xmllint >/dev/null || skip "xmllint not installed (Debian package libxml2-utils)"
	regressed --format junit > "$BATS_TEST_TMPDIR/j.xml" || [ $? -eq 1 ]
	x() { xmllint --xpath "$1" "$BATS_TEST_TMPDIR/j.xml"; }
	t='//testcase[@name="allocator=glibc,fibers=1000,madvise=free"]'
	[ "$(x "string($t/error/@type)")" = crashed ]
	[ "$(x "string($t/error/@message)")" = "repeat 2 crashed: SIGSEGV" ]
	[ "$(x "count($t/failure)")" -eq 0 ]
	# one error, counted in its suite and in all, never as a failure
	[ "$(x 'count(//testcase[error])')" -eq 1 ]
	[ "$(x 'count(//testcase[error and failure])')" -eq 0 ]
	[ "$(x 'string(/testsuites/testsuite/@errors)')" -eq 1 ]
	[ "$(x 'string(/testsuites/@errors)')" -eq 1 ]
	[ "$(x 'string(/testsuites/@failures)')" -eq "$(x 'count(//testcase[failure])')" ]
	[ "$(x 'string(/testsuites/@failures)')" -eq 2 ]
}

@test "junit: every testcase and testsuite has a time, a config's the sum of its runs' wall_ms" {
	command -v xmllint >/dev/null || skip "xmllint not installed (Debian package libxml2-utils)"
	regressed --format junit > "$BATS_TEST_TMPDIR/j.xml" || [ $? -eq 1 ]
	x() { xmllint --xpath "$1" "$BATS_TEST_TMPDIR/j.xml"; }
	[ "$(x 'count(//testcase[not(@time)])')" -eq 0 ]
	[ "$(x 'count(//testsuite[not(@time)])')" -eq 0 ]
	[ "$(x 'count(/testsuites[@time])')" -eq 1 ]
	# a claim runs nothing: 0
	[ "$(x 'string(//testcase[@name="dontneed-returns"]/@time)')" = 0.000 ]
	# each config: its runs' wall_ms summed from runs.tsv, in seconds
	n=0
	while IFS= read -r cfg; do
		want=$(awk -F'\t' -v c="$cfg" 'NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next }
			$(idx["config"]) == c && $(idx["wall_ms"]) != "-" { s += $(idx["wall_ms"]) }
			END { printf "%.3f", s / 1000 }' "$DATA/results-regressed/runs.tsv")
		got=$(x "string(//testcase[@name=\"$cfg\"]/@time)")
		echo "$cfg: want $want got $got"
		[ "$got" = "$want" ]
		n=$((n + 1))
	done < <(runs_configs "$DATA/results-regressed")
	[ "$n" -eq 8 ]
	# the crashed run's time counts too (412 ms of 2 032)
	[ "$(x 'string(//testcase[@name="allocator=glibc,fibers=1000,madvise=free"]/@time)')" = 2.032 ]
	# a suite's time is its testcases', the testsuites' its suites'
	suite=$(x 'string(/testsuites/testsuite/@time)')
	sum=$(x 'sum(/testsuites/testsuite/testcase/@time)')
	awk -v a="$suite" -v b="$sum" 'BEGIN { exit !(a - b < 0.0005 && b - a < 0.0005 && a > 0) }'
	[ "$(x 'string(/testsuites/@time)')" = "$suite" ]
}

@test "junit: a config's testcase is named by its canonical config, whatever else ran" {
	command -v xmllint >/dev/null || skip "xmllint not installed (Debian package libxml2-utils)"
	regressed --format junit > "$BATS_TEST_TMPDIR/all.xml" || [ $? -eq 1 ]
	[ "$(junit_configs "$BATS_TEST_TMPDIR/all.xml")" = "$(runs_configs "$DATA/results-regressed")" ]
	# another night ran mimalloc only: only madvise varies, and the
	# short label would be "madvise=free"
	r=$BATS_TEST_TMPDIR/mimalloc
	mkdir "$r"
	cp "$DATA/results-regressed/env.tsv" "$r/"
	for f in runs checkpoints; do
		awk -F'\t' 'NR == 1 || $2 ~ /^allocator=mimalloc,/' "$DATA/results-regressed/$f.tsv" > "$r/$f.tsv"
	done
	timeout -k 5 60 "$MR" check --from "$r" --expected "$DATA/expected" --format junit > "$BATS_TEST_TMPDIR/mi.xml" || [ $? -eq 1 ]
	run -0 xmllint --noout --schema "$XSD" "$BATS_TEST_TMPDIR/mi.xml"
	run -0 junit_configs "$BATS_TEST_TMPDIR/mi.xml"
	[ "$output" = "$(printf '%s\n' allocator=mimalloc,fibers=1000,madvise=dontneed allocator=mimalloc,fibers=1000,madvise=free)" ]
	# the classname stays the case
	[ "$(xmllint --xpath 'count(//testcase[@classname!="fixture-stacks"])' "$BATS_TEST_TMPDIR/mi.xml")" -eq 0 ]
}

@test "junit: runs that failed or crashed for real are errors of their outcome, with their times" {
	command -v xmllint >/dev/null || skip "xmllint not installed (Debian package libxml2-utils)"
	r=$BATS_TEST_TMPDIR/r
	run -1 timeout -k 5 120 "$MR" run --cases "$FIX" --out "$r" --axis allocator=glibc --repeat 1 fail crash ok
	mkdir -p "$BATS_TEST_TMPDIR/exp"
	timeout -k 5 60 "$MR" check --from "$r" --expected "$BATS_TEST_TMPDIR/exp" --format junit > "$BATS_TEST_TMPDIR/j.xml" || [ $? -eq 1 ]
	run -0 xmllint --noout --schema "$XSD" "$BATS_TEST_TMPDIR/j.xml"
	x() { xmllint --xpath "$1" "$BATS_TEST_TMPDIR/j.xml"; }
	[ "$(x 'string(//testsuite[@name="fail"]/testcase/error/@type)')" = failed ]
	[ "$(x 'string(//testsuite[@name="crash"]/testcase/error/@type)')" = crashed ]
	[ "$(x 'count(//testsuite[@name="ok"]/testcase[error or failure])')" -eq 0 ]
	[ "$(x 'string(/testsuites/@errors)')" -eq 2 ]
	[ "$(x 'string(/testsuites/@failures)')" -eq 0 ]
	# one run per config: its time is its wall_ms
	n=0
	while IFS=$'\t' read -r k cfg ms; do
		want=$(awk -v ms="$ms" 'BEGIN { printf "%.3f", ms / 1000 }')
		got=$(x "string(//testcase[@classname=\"$k\" and @name=\"$cfg\"]/@time)")
		echo "$k $cfg: want $want got $got"
		[ "$got" = "$want" ]
		n=$((n + 1))
	done < <(tsv_col "$r/runs.tsv" case | paste - <(tsv_col "$r/runs.tsv" config) <(tsv_col "$r/runs.tsv" wall_ms))
	[ "$n" -gt 0 ]
	[ "$n" -eq "$(x 'count(//testcase)')" ]
}

@test "junit of results with no run: one failing testcase, and a time everywhere" {
	command -v xmllint >/dev/null || skip "xmllint not installed (Debian package libxml2-utils)"
	r=$BATS_TEST_TMPDIR/empty
	mkdir "$r"
	cp "$DATA/results-regressed/env.tsv" "$r/"
	head -n 1 "$DATA/results-regressed/runs.tsv" > "$r/runs.tsv"
	head -n 1 "$DATA/results-regressed/checkpoints.tsv" > "$r/checkpoints.tsv"
	run -1 timeout -k 5 60 "$MR" check --from "$r" --expected "$DATA/expected" --format junit
	xmllint --noout --schema "$XSD" - <<<"$output"
	x() { xmllint --xpath "$1" - <<<"$output"; }
	[ "$(x 'string(/testsuites/@failures)')" -eq 1 ]
	[ "$(x 'string(/testsuites/@errors)')" -eq 0 ]
	[ "$(x 'string(//testcase/failure/@message)')" = "no runs: nothing to check" ]
	[ "$(x 'count(//testcase[not(@time)] | //testsuite[not(@time)])')" -eq 0 ]
}

@test "junit escapes what XML cannot hold" {
	command -v xmllint >/dev/null || skip "xmllint not installed (Debian package libxml2-utils)"
	exp=$(tricky_expected)
	"$MR" check --from "$DATA/results-regressed" --expected "$exp" --format junit > "$BATS_TEST_TMPDIR/j.xml" || [ $? -eq 1 ]
	run -0 xmllint --noout --schema "$XSD" "$BATS_TEST_TMPDIR/j.xml"
	out=$(xmllint --xpath 'string(//testcase[@name="tricky"]/system-out)' "$BATS_TEST_TMPDIR/j.xml")
	[[ "$out" == *"fixture <b>&amp; \"quoted\" 'x' \\ 73.63 MB"* ]] || false
}

@test "json: every verdict and figure, read back with jq" {
	command -v jq >/dev/null || skip "jq not installed"
	regressed --format json > "$BATS_TEST_TMPDIR/j.json" || [ $? -eq 1 ]
	j() { jq -e "$1" "$BATS_TEST_TMPDIR/j.json"; }
	j '.status == "failed" and .exit == 1 and .format == "memrepro-check"'
	j '.cases | length == 1'
	j '.cases[0].claims | length == 5'
	j '[.cases[0].claims[] | .verdict] == ["regressed", "reproduces", "held", "does not reproduce", "skipped"]'
	j '.cases[0].claims[0].citation == "fixture: 73.63 MB after clearing with DONTNEED vs 150.82 MB with FREE"'
	j '.cases[0].claims[0].combinations | length == 4'
	# every baseline row with its figures
	j '(.cases[0].baseline | length) == (.totals.baseline_held + .totals.baseline_regressed + .totals.baseline_improved + .totals.baseline_not_measured)'
	j '.cases[0].baseline[] | select(.label == "allocator=jemalloc,madvise=dontneed" and .checkpoint == "cleared" and .metric == "rss_kb")
	   | .verdict == "regressed" and .observed.median == 151012 and .expected.median == 80100 and .expected.tolerance == 4005 and .observed.n == 3'
	j '.cases[0].failed_runs[0] | .outcome == "crashed" and .detail == "SIGSEGV" and .repeat == 2'
	j '.cases[0].skipped_configs | length == 2'
	j '[.cases[0].not_in_baseline[].label] == ["allocator=mimalloc,madvise=dontneed", "allocator=mimalloc,madvise=free"]'
	j '.totals.runs_ok == 17 and .totals.runs_failed == 1 and .totals.runs_skipped == 6'
}

@test "json escapes strings: what went in comes out" {
	command -v jq >/dev/null || skip "jq not installed"
	exp=$(tricky_expected)
	"$MR" check --from "$DATA/results-regressed" --expected "$exp" --format json > "$BATS_TEST_TMPDIR/j.json" || [ $? -eq 1 ]
	run -0 jq -r '.cases[0].claims[0].citation' "$BATS_TEST_TMPDIR/j.json"
	[ "$output" = "fixture <b>&amp; \"quoted\" 'x' \\ 73.63 MB" ]
}

@test "json of results that held says passed and exits 0" {
	command -v jq >/dev/null || skip "jq not installed"
	run -0 held --format json
	printf '%s\n' "$output" | jq -e '.status == "passed" and .exit == 0 and .totals.regressed == 0'
}

@test "an unknown --format is a usage error" {
	run -2 regressed --format yaml
	[[ "$output" == *"--format 'yaml'"* ]] || false
}

@test "bad input is exit 2 naming file:line whatever the format" {
	for f in tap junit json; do
		run -2 --separate-stderr "$MR" check --from "$DATA/bad-results/fields" --expected "$DATA/expected" --format "$f"
		[[ "$stderr" == *"runs.tsv:4:"* ]] || false
		[ -z "$output" ]
	done
}
