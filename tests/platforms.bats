#!/usr/bin/env bats
# platforms: the claim x platform table over results of several platforms.

load test_helper

# One run of the touch fixture (32 MiB), made once for the file; each
# test makes two platforms of it by editing env.tsv (and, for one, the
# figures), as a nightly's merged shards of two runner images would be.
setup_file() {
	touch_runs "$BATS_FILE_TMPDIR/r"
}


setup() {
	EXP=$BATS_TEST_TMPDIR/expected
	A=$BATS_TEST_TMPDIR/a
	B=$BATS_TEST_TMPDIR/b
	mkdir -p "$EXP"
	cp -R "$BATS_FILE_TMPDIR/r" "$A"
	cp -R "$BATS_FILE_TMPDIR/r" "$B"
	fake_platform "$A" test-a-thp_madvise madvise "6.1.0-a"
	fake_platform "$B" test-b-thp_always always "6.8.0-b"
	# on b every checkpoint's RSS a tenth: the 32 MiB claim regresses there
	awk -F'\t' -v OFS='\t' '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; print; next }
		{ $col["rss_kb"] = int($col["rss_kb"] / 10); print }' "$A/checkpoints.tsv" > "$B/checkpoints.tsv"
	printf '%s\n' '# test claims' \
		'touched-some holds rss_kb@touched > 1024 "fixture: a MiB at least, everywhere"' \
		'touched-all holds rss_kb@touched > 30000 "fixture: the 32 MiB it wrote"' \
		'madvise-only holds when thp=madvise rss_kb@touched > 1024 "fixture: claimed where THP is madvise"' \
		> "$EXP/touch.claims"
	run -0 "$MR" bless --from "$A" --expected "$EXP" --yes
	[ -f "$EXP/test-a-thp_madvise/touch.tsv" ]
}

plat() {
	timeout -k 5 60 "$MR" platforms --cases "$FIX" --expected "$EXP" "$@"
}

# The cell of claim $2 under platform $3 in the TSV $1.
cell() {
	awk -F'\t' -v claim="$2" -v key="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$1 == "touch" && $2 == claim { print $(col[key]) }' <<< "$1"
}

# The header line $2 of platform $3 in the TSV $1.
hline() {
	awk -F'\t' -v what="$2" -v key="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$1 == "-" && $2 == what { print $(col[key]) }' <<< "$1"
}

@test "one column per platform, each claim's verdict on it, and exit 0 though a claim regressed" {
	run -0 plat --format tsv "$A" "$B"
	[ "$(head -1 <<< "$output")" = "case	claim	platforms	test-a-thp_madvise	test-b-thp_always" ]
	[ "$(cell "$output" touched-some test-a-thp_madvise)" = held ]
	[ "$(cell "$output" touched-some test-b-thp_always)" = held ]
	[ "$(cell "$output" touched-all test-a-thp_madvise)" = held ]
	[ "$(cell "$output" touched-all test-b-thp_always)" = regressed ]
	[ "$(cell "$output" madvise-only test-a-thp_madvise)" = held ]
	[ "$(cell "$output" madvise-only test-b-thp_always)" = skipped ]
}

@test "the cells are check --from's verdicts, platform by platform" {
	local d key word
	run -0 plat --format tsv "$A" "$B"
	local table=$output
	for d in "$A" "$B"; do
		key=$(tsv_col "$d/env.tsv" value '$1 == "platform"')
		run "$MR" check --cases "$FIX" --expected "$EXP" --from "$d" --format json
		[ "$status" -le 1 ]
		while IFS=$'\t' read -r id word; do
			[ "$(cell "$table" "$id" "$key")" = "$word" ] || { echo "$id on $key: table says '$(cell "$table" "$id" "$key")', check '$word'"; false; }
		done < <(python3 -c '
import json, sys
d = json.load(sys.stdin)
for k in d["cases"]:
    for c in k["claims"]:
        print(c["id"] + "\t" + c["verdict"])' <<< "$output")
	done
}

@test "rows where the platforms differ come first, marked" {
	run -0 plat --format tsv "$A" "$B"
	# the claims in file order are touched-some, touched-all, madvise-only:
	# the two that differ move before the one that agrees
	[ "$(awk -F'\t' '$1 == "touch" { print $2 ":" $3 }' <<< "$output" | paste -sd' ')" = \
		"touched-all:differ madvise-only:differ touched-some:agree" ]
	run -0 plat --format md "$A" "$B"
	[[ "$output" == *"| touch | \`touched-all\` | **differ** | held | **regressed** |"* ]] || false
	[[ "$output" == *"| touch | \`touched-some\` | agree | held | held |"* ]] || false
}

@test "the header says each platform's kernel, libc, allocators, THP, CPUs, start, commit and baseline" {
	run -0 plat --format tsv "$A" "$B"
	[ "$(hline "$output" kernel test-a-thp_madvise)" = 6.1.0-a ]
	[ "$(hline "$output" kernel test-b-thp_always)" = 6.8.0-b ]
	[ "$(hline "$output" thp test-b-thp_always)" = always ]
	[ "$(hline "$output" libc test-a-thp_madvise)" = "$(tsv_col "$A/env.tsv" value '$1 == "libc"')" ]
	[ "$(hline "$output" allocator.glibc.version test-a-thp_madvise)" = \
		"$(tsv_col "$A/env.tsv" value '$1 == "allocator.glibc.version"')" ]
	[ "$(hline "$output" thp_defrag test-a-thp_madvise)" = "$(tsv_col "$A/env.tsv" value '$1 == "thp_defrag"')" ]
	[ "$(hline "$output" cpus test-a-thp_madvise)" = "$(tsv_col "$A/env.tsv" value '$1 == "cpus"')" ]
	[ "$(hline "$output" started test-b-thp_always)" = "$(tsv_col "$B/env.tsv" value '$1 == "started"')" ]
	[ "$(hline "$output" commit test-b-thp_always)" = "$(tsv_col "$B/env.tsv" value '$1 == "commit"')" ]
	# a's baseline was blessed from a itself: every row with a tolerance held
	local rows
	rows=$(awk -F'\t' '!/^#/ && $1 != "config" && $8 != "-"' "$EXP/test-a-thp_madvise/touch.tsv" | wc -l)
	[ "$rows" -gt 0 ]
	[ "$(hline "$output" baseline test-a-thp_madvise)" = "$rows held, 0 regressed, 0 improved, 0 skipped" ]
	[ "$(hline "$output" baseline test-b-thp_always)" = "no baseline for test-b-thp_always" ]
}

@test "a baseline row that regressed on a platform is counted in its header" {
	# b blessed as b's own, then checked with a's figures: RSS ten times up
	cp -R "$A" "$BATS_TEST_TMPDIR/b2"
	fake_platform "$BATS_TEST_TMPDIR/b2" test-b-thp_always always "6.8.0-b"
	run -0 "$MR" bless --from "$B" --expected "$EXP" --yes
	run -0 plat --format tsv "$A" "$BATS_TEST_TMPDIR/b2"
	[[ "$(hline "$output" baseline test-b-thp_always)" =~ ^[0-9]+\ held,\ [1-9][0-9]*\ regressed, ]] || false
}

@test "json and html name both platforms and every claim" {
	run -0 plat --format json "$A" "$B"
	python3 -c '
import json, sys
d = json.load(sys.stdin)
assert [p["platform"] for p in d["platforms"]] == ["test-a-thp_madvise", "test-b-thp_always"], d["platforms"]
assert d["platforms"][1]["baseline_rows"] is None
assert d["platforms"][0]["kernel"] == "6.1.0-a"
got = {c["claim"]: [v["verdict"] for v in c["verdicts"]] for c in d["claims"]}
assert got == {"touched-all": ["held", "regressed"], "madvise-only": ["held", "skipped"],
               "touched-some": ["held", "held"]}, got
' <<< "$output"
	run -0 plat --format html "$A" "$B"
	[[ "$output" == "<!DOCTYPE html>"* ]] || false
	[[ "$output" == *"<th>test-a-thp_madvise</th><th>test-b-thp_always</th>"* ]] || false
	[[ "$output" == *"</html>"* ]] || false
}

@test "a claim of a case one platform did not run is 'not run' there" {
	mkdir -p "$BATS_TEST_TMPDIR/c"
	cp "$A/env.tsv" "$BATS_TEST_TMPDIR/c/"
	fake_platform "$BATS_TEST_TMPDIR/c" test-c none "6.9.0-c"
	head -1 "$A/runs.tsv" > "$BATS_TEST_TMPDIR/c/runs.tsv"
	head -1 "$A/checkpoints.tsv" > "$BATS_TEST_TMPDIR/c/checkpoints.tsv"
	run -0 plat --format md "$A" "$BATS_TEST_TMPDIR/c"
	[[ "$output" == *"| touch | \`touched-some\` | agree | held | not run |"* ]] || false
}

@test "two directories of one platform: exit 2 naming both" {
	cp -R "$A" "$BATS_TEST_TMPDIR/a2"
	run -2 plat "$A" "$B" "$BATS_TEST_TMPDIR/a2"
	[[ "$output" == *"$A and $BATS_TEST_TMPDIR/a2 are both of platform test-a-thp_madvise"* ]] || false
}

@test "bad input: exit 2 naming the file, the option or what is missing" {
	run -2 plat --format xml "$A"
	[[ "$output" == *"--format 'xml': want md, tsv, html or json"* ]] || false
	run -2 plat
	[[ "$output" == *"platforms needs one results directory or more"* ]] || false
	run -2 plat "$A" "$BATS_TEST_TMPDIR/nowhere"
	[[ "$output" == *"nowhere"* ]] || false
	printf 'key\tvalue\nplatform\t../up\n' > "$B/env.tsv"
	run -2 plat "$A" "$B"
	[[ "$output" == *"$B/env.tsv:2:"* ]] || false
	printf '%s\n' 'broken holds rss_kb@touched << 5 "x"' > "$EXP/touch.claims"
	run -2 plat "$A"
	[[ "$output" == *"touch.claims:1:"* ]] || false
	# check's own words stay check's
	run -2 "$MR" check --format md --from "$A"
	[[ "$output" == *"--format 'md': want human, tap, junit or json"* ]] || false
}
