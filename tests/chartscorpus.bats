#!/usr/bin/env bats
# Every chart of a real report: report, compare and trend over the
# committed corpus results (docs/corpus/*), every chart kind, every case,
# held against the label check (tools/chartcheck.py) with gnuplot saying
# nothing.  The SVGs are written with the PNGs' text size, so the check
# is of what the PNGs show.

load test_helper

CHECK="$BATS_TEST_DIRNAME/../tools/chartcheck.py"

# NAME: a copy of docs/corpus/NAME reported (the corpus keeps no
# series.tsv: an empty one, the series charts from the checkpoints);
# report's output in $T/NAME.out.
report_of() {
	cp -R "$ROOT/docs/corpus/$1" "$T/$1"
	printf 'case\tconfig\trepeat\tt_ms\trss_kb\n' > "$T/$1/series.tsv"
	timeout -k 5 600 "$MR" report --from "$T/$1" > "$T/$1.out" 2>&1 || [ $? -eq 1 ]
}

@test "every chart of reports, a compare and a trend over docs/corpus passes the label check; gnuplot says nothing" {
	T=$BATS_TEST_TMPDIR
	local d n
	for d in "$ROOT"/docs/corpus/*/; do
		n=$(basename "$d")
		report_of "$n" || { cat "$T/$n.out"; false; }
	done
	timeout -k 5 600 "$MR" compare --out "$T/cmp" "$T/originals-alloc-churn" "$T/alloc-churn" \
		> "$T/cmp.out" 2>&1
	timeout -k 5 600 "$MR" trend --out "$T/trend" "$T/main" "$T/main" "$T/main" > "$T/trend.out" 2>&1
	# report held each chart against the check as it drew it: silent
	if grep -E 'gnuplot|chart check|warning' "$T"/*.out; then false; fi
	# every kind drawn, each chart as PNG and SVG
	for k in '*.series' '*.figures' '*.diff' '*.compare' '*.trend' allocators; do
		[ -n "$(find "$T" -name "$k.svg")" ] || { echo "no $k chart"; false; }
	done
	n=$(find "$T" -name '*.svg' | wc -l)
	[ "$n" -ge 100 ] || { echo "$n charts"; false; }
	[ "$(find "$T" -name '*.png' -size +0 | wc -l)" -eq "$n" ]
	run -0 find "$T" -name '*.svg' -exec python3 "$CHECK" {} +
	[ -z "$output" ] || false
}
