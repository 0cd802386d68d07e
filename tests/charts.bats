#!/usr/bin/env bats
# Charts a person reads: every chart report draws, for a case of one
# config and one of 24, has no overlapping labels and no more labels than
# its height holds (tools/chartcheck.py over the SVGs).

load test_helper

CHECK="$BATS_TEST_DIRNAME/../tools/chartcheck.py"

# Two results directories of the touch fixture, each blessed and then
# moved off its baseline (memory figures at the checkpoint scaled by a
# factor per config: rows beyond half their tolerance, regressed and
# improved), and reported with a report's figures beside them:
#   one   1 config (mb=8), 2 repeats, every figure 1.5x
#   many  24 configs (mb=1..12 x two mmap thresholds), figures 0.52x..1.48x
setup_file() {
	local mr="$BATS_TEST_DIRNAME/../build/memrepro" fix="$BATS_TEST_DIRNAME/../build/fixtures"
	local d
	make_results() {
		d=$BATS_FILE_TMPDIR/$1
		shift
		timeout -k 5 120 "$mr" run --cases "$fix" --out "$d" --axis allocator=glibc \
			--quiet "$@" touch >/dev/null || return
		timeout -k 5 60 "$mr" bless --from "$d" --expected "$BATS_FILE_TMPDIR/exp-${d##*/}" touch \
			>/dev/null 2>&1 || return
	}
	# rss and the figures that follow it, scaled by f(mb, threshold)
	move_off() {
		awk -F'\t' -v OFS='\t' -v one="$2" '
			NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; print; next }
			{
				mb = 0
				n = split($2, kv, ",")
				for (j = 1; j <= n; j++)
					if (kv[j] ~ /^mb=/)
						mb = substr(kv[j], 4) + 0
				f = one ? 1.5 : 1 + ((mb * 7 + ($2 ~ /262144/)) % 9 - 4) * 0.12
				n = split("rss_kb pss_kb anon_kb private_dirty_kb tree_rss_kb tree_pss_kb tree_private_dirty_kb", m, " ")
				for (j = 1; j <= n; j++)
					$col[m[j]] = int($col[m[j]] * f)
			}
			{ print }' "$1/checkpoints.tsv" > "$1/checkpoints.tsv.new" &&
			mv "$1/checkpoints.tsv.new" "$1/checkpoints.tsv"
	}
	report_of() {
		d=$BATS_FILE_TMPDIR/$1
		printf '%s\n' '# the fixture as if a report had printed its figure' \
			'source seeds/000_fixture.txt "a fixture report"' \
			'key rss_kb@touched lower' \
			'figure touched mb=8 rss_kb 9 MiB' > "$BATS_FILE_TMPDIR/exp-$1/touch.figures"
		# exit 1 as check: rows were moved off the baseline
		timeout -k 5 120 "$mr" report --cases "$fix" --expected "$BATS_FILE_TMPDIR/exp-$1" \
			--from "$d" touch > "$d.report.out" 2>&1 && echo 0 > "$d.report.rc" ||
			echo $? > "$d.report.rc"
	}
	make_results one --axis mb=8 --repeat 2
	make_results many --axis "mb=$(seq -s, 1 12)" \
		--axis glibc.malloc.mmap_threshold=131072,262144 --repeat 1
	move_off "$BATS_FILE_TMPDIR/one" 1
	move_off "$BATS_FILE_TMPDIR/many" 0
	report_of one
	report_of many
}

# The height of an SVG gnuplot wrote (its viewBox).
svg_height() {
	sed -n 's/^ *viewBox="0 0 \([0-9]*\) \([0-9]*\)".*/\2/p' "$1"
}

svg_width() {
	sed -n 's/^ *viewBox="0 0 \([0-9]*\) \([0-9]*\)".*/\1/p' "$1"
}

# Every chart report drew for results $1 passes the check; each kind is
# there.
check_all() {
	local d=$BATS_FILE_TMPDIR/$1 f
	# regressed rows (exit 1, as check), every chart drawn (no gnuplot
	# message)
	[ "$(cat "$d.report.rc")" -eq 1 ] || { cat "$d.report.out"; return 1; }
	if grep -q gnuplot "$d.report.out"; then cat "$d.report.out"; return 1; fi
	# report held each chart against the label check and said nothing
	if grep -q 'chart check' "$d.report.out"; then cat "$d.report.out"; return 1; fi
	for f in touch.series touch.diff allocators; do
		[ -s "$d/plots/$f.svg" ] || { echo "no $f.svg"; return 1; }
		[ -s "$d/plots/$f.png" ] || { echo "no $f.png"; return 1; }
	done
	for f in "$d"/plots/*.svg; do
		[ "$(svg_width "$f")" -eq 1200 ] || { echo "$f: not 1200 px wide"; return 1; }
	done
	run -0 python3 "$CHECK" "$d"/plots/*.svg
	[ -z "$output" ] || false
}

@test "chartcheck passes labels that stand apart, fails overlapping ones" {
	svg=$BATS_TEST_TMPDIR/c.svg
	apart='<g transform="translate(100,100)" font-size="10.00"><text>alloc=glibc</text></g>
<g transform="translate(100,120)" font-size="10.00"><text>alloc=jemalloc</text></g>
<g transform="translate(300,100)" font-size="10.00" text-anchor="end"><text>right of it</text></g>'
	printf '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 300">%s</svg>\n' "$apart" > "$svg"
	run -0 python3 "$CHECK" "$svg"
	[ -z "$output" ] || false
	# one row 6 px under another at 10 px: overlapping
	printf '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 300">%s%s</svg>\n' "$apart" \
		'<g transform="translate(104,106)" font-size="10.00"><text>alloc=tcmalloc</text></g>' > "$svg"
	run -1 python3 "$CHECK" "$svg"
	[[ "$output" == *"c.svg: labels overlap: \"alloc=glibc\""*"\"alloc=tcmalloc\""* ]] || false
	# side by side: the end of one reaches into the next (anchor end)
	printf '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 300">%s%s</svg>\n' "$apart" \
		'<g transform="translate(190,100)" font-size="10.00" text-anchor="end"><text>a long label</text></g>' > "$svg"
	run -1 python3 "$CHECK" "$svg"
	[[ "$output" == *"labels overlap"*"a long label"* ]] || false
	# rotated text is tall, not wide: beside a label, not on it
	printf '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 300">%s%s</svg>\n' "$apart" \
		'<g transform="translate(90,200) rotate(-90)" font-size="10.00"><text>memory (MiB)</text></g>' > "$svg"
	run -0 python3 "$CHECK" "$svg"
}

@test "chartcheck fails a label outside the chart and a column its height cannot hold" {
	svg=$BATS_TEST_TMPDIR/c.svg
	printf '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 300"><g transform="translate(380,100)" font-size="10"><text>allocator=jemalloc</text></g></svg>\n' > "$svg"
	run -1 python3 "$CHECK" "$svg"
	[[ "$output" == *"label outside the 400x300 chart: \"allocator=jemalloc\""* ]] || false
	# 40 tick labels 8 px apart on a 300 px chart: 40 x 10 px of text
	{
		printf '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 300">'
		for i in $(seq 1 40); do
			printf '<g transform="translate(200,%d)" font-size="10" text-anchor="end"><text>row %d</text></g>' $((i * 7)) "$i"
		done
		printf '</svg>\n'
	} > "$svg"
	run -1 python3 "$CHECK" "$svg"
	[[ "$output" == *"40 labels in the column at x=200 (end) need 392 px, the chart is 300 px high"* ]] || false
	# the PNG's text (4/3) in an SVG that holds the SVG's
	printf '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 300"><g transform="translate(100,100)" font-size="10"><text>glibc</text></g><g transform="translate(100,111)" font-size="10"><text>jemalloc</text></g></svg>\n' > "$svg"
	run -0 python3 "$CHECK" "$svg"
	run -1 python3 "$CHECK" --scale 1.3333 "$svg"
}

@test "chartcheck fails an axis label that names its unit twice" {
	svg=$BATS_TEST_TMPDIR/c.svg
	for l in 'RSS (MiB)' 'time since start (s)' 'wall_ms measured on a busy machine (other programs used 9 ms)'; do
		printf '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 300"><g transform="translate(100,100)" font-size="10"><text>%s</text></g></svg>\n' "$l" > "$svg"
		run -0 python3 "$CHECK" "$svg"
	done
	for l in 'rss_kb (MiB)' 't_ms (s)' 'vsz_kb growth (KiB)'; do
		printf '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 300"><g transform="translate(100,100)" font-size="10"><text>%s</text></g></svg>\n' "$l" > "$svg"
		run -1 python3 "$CHECK" "$svg"
		[[ "$output" == *"c.svg: label names its unit twice: \"$l\""* ]] || false
	done
}

@test "chartcheck: bad input is exit 2 naming the file" {
	printf '<svg xmlns="http://www.w3.org/2000/svg">\n<g>\n' > "$BATS_TEST_TMPDIR/cut.svg"
	run -2 python3 "$CHECK" "$BATS_TEST_TMPDIR/cut.svg"
	[[ "$output" == "chartcheck: $BATS_TEST_TMPDIR/cut.svg:3:1: not XML: "* ]] || false
	run -2 python3 "$CHECK" "$BATS_TEST_TMPDIR/nope.svg"
	[[ "$output" == *"nope.svg: No such file or directory"* ]] || false
	printf '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><g transform="skew(3)"><text>x</text></g></svg>\n' > "$BATS_TEST_TMPDIR/t.svg"
	run -2 python3 "$CHECK" "$BATS_TEST_TMPDIR/t.svg"
	[[ "$output" == *"t.svg: <g>: transform \"skew(3)\": cannot read it"* ]] || false
	run -2 python3 "$CHECK" --scale x "$BATS_TEST_TMPDIR/t.svg"
	run -2 python3 "$CHECK"
}

@test "every chart of a one-config case: labels apart, within the chart" {
	check_all one
	# the diff chart has its line, the 1.5x rows named beyond half
	# their tolerance, and the regression ringed in its text
	d=$BATS_FILE_TMPDIR/one
	[ "$(tsv_col "$d/plots/touch.diff.tsv" kind '$0 !~ /^#/ && $13 == "worst"' | wc -l)" -eq 1 ]
	[ "$(tsv_col "$d/plots/touch.diff.tsv" kind '$0 !~ /^#/ && $13 == "named"' | wc -l)" -ge 1 ]
	grep -q 'regressed' "$d/plots/touch.diff.svg"
}

@test "every chart of a 24-config case: labels apart, within the chart" {
	check_all many
	d=$BATS_FILE_TMPDIR/many
	[ "$(tsv_col "$d/plots/touch.diff.tsv" kind '$0 !~ /^#/ && $13 == "worst"' | wc -l)" -eq 24 ]
	# a line per config, named rows up to what its height holds, the
	# others counted under the chart
	named=$(tsv_col "$d/plots/touch.diff.tsv" kind '$0 !~ /^#/ && $13 == "named"' | wc -l)
	more=$(tsv_col "$d/plots/touch.diff.tsv" kind '$0 !~ /^#/ && $13 == "more"' | wc -l)
	[ "$named" -eq 12 ]
	[ "$more" -gt 0 ]
	grep -q "+$more more rows beyond half their tolerance in touch.diff.tsv" "$d/plots/touch.diff.svg"
}

@test "the diff chart grows with its configs and keeps every baseline row in its TSV" {
	one=$BATS_FILE_TMPDIR/one/plots/touch.diff.svg
	many=$BATS_FILE_TMPDIR/many/plots/touch.diff.svg
	[ "$(svg_height "$many")" -gt $(($(svg_height "$one") + 24 * 20)) ]
	for r in one many; do
		d=$BATS_FILE_TMPDIR/$r
		bl=$(find "$BATS_FILE_TMPDIR/exp-$r" -name touch.tsv)
		# (cost_ms rows say what a run takes: not checked, not drawn)
		rows=$(awk -F'\t' '/^#/ { next } head++ && $3 != "cost_ms"' "$bl" | grep -c .)
		[ "$rows" -ge 10 ]
		[ "$(grep -vc '^#' "$d/plots/touch.diff.tsv")" -eq $((rows + 1)) ]
		# each row's deviation is its figures' (observed - expected) / tolerance
		awk -F'\t' 'NR > 2 { d = ($10 - $11) / $12; d = d > 10 ? 10 : d < -10 ? -10 : d
			if ((d - $5)^2 > 1e-6) { print "row " NR ": dev " $5 " want " d; bad = 1 } }
			END { exit bad }' "$d/plots/touch.diff.tsv"
	done
}

@test "the charts of a case without a baseline say so and pass the check" {
	d=$BATS_TEST_TMPDIR/nobl
	cp -R "$BATS_FILE_TMPDIR/one" "$d"
	mkdir "$BATS_TEST_TMPDIR/noexp"
	run -0 timeout -k 5 120 "$MR" report --cases "$FIX" --expected "$BATS_TEST_TMPDIR/noexp" --from "$d" touch
	grep -q 'no data: no baseline for platform' "$d/plots/touch.diff.svg"
	run -0 python3 "$CHECK" "$d"/plots/*.svg
	[ -z "$output" ] || false
}

# Results $1 with the runs of results "one" again as the report's own
# program's under node@10.7.0 and node@22 (4 MiB more for the
# interpreter at every memory figure), and the figures file of the
# report made on node@10.7.0.
with_program() {
	local d=$1 f
	cp -R "$BATS_FILE_TMPDIR/one" "$d"
	for f in runs checkpoints series; do
		awk -F'\t' -v OFS='\t' '
			NR == 1 { print; next }
			{
				print
				for (v = 0; v < 2; v++) {
					r = $0; n = split(r, x, "\t")
					x[2] = x[2] ",runtime=node@" (v ? "22" : "10.7.0")
					if (FILENAME ~ /checkpoints/) x[7] += 4096
					line = x[1]; for (i = 2; i <= n; i++) line = line OFS x[i]
					print line
				}
			}' "$BATS_FILE_TMPDIR/one/$f.tsv" > "$d/$f.tsv"
	done
	printf 'runtime.node@10.7.0.version\t10.7.0\nruntime.node@22.version\t22.23.5\n' >> "$d/env.tsv"
	cp -R "$BATS_FILE_TMPDIR/exp-one" "$BATS_TEST_TMPDIR/exp"
	sed -i '2a runtime node@10.7.0' "$BATS_TEST_TMPDIR/exp/touch.figures"
}

# Field NAME of figures TSV $1's rows of side SIDE at AT (and runtime
# RT, when given).
fig_col() {
	awk -F'\t' -v side="$2" -v at="$3" -v f="$4" -v rt="${5:-}" '
		/^#/ { next }
		!h { for (i = 1; i <= NF; i++) col[$i] = i; h = 1; next }
		$col["side"] == side && $col["at"] == at && (rt == "" || $col["runtime"] == rt) { print $col[f] }' "$1"
}

@test "the report-and-here chart: the report's program in a third panel on both runtimes, apart from the model" {
	d=$BATS_TEST_TMPDIR/prog
	with_program "$d"
	[ "$(head -1 "$d/checkpoints.tsv" | cut -f7)" = rss_kb ]
	# "one" is scaled by 1.5 past its baseline: the check fails, report says so
	run -1 timeout -k 5 120 "$MR" report --cases "$FIX" --expected "$BATS_TEST_TMPDIR/exp" --from "$d" touch
	tsv=$d/plots/touch.figures.tsv
	svg=$d/plots/touch.figures.svg
	# the program's series, one per runtime, each the program's own runs
	[ "$(fig_col "$tsv" program touched runtime | sort | tr '\n' ' ')" = "node@10.7.0 node@22 " ]
	here=$(fig_col "$tsv" here touched value)
	[ -n "$here" ]
	for v in 10.7.0 22; do
		drawn=$(fig_col "$tsv" program touched drawn "node@$v")
		[ "$drawn" = "$(fig_col "$tsv" here touched drawn),runtime=node@$v" ]
		value=$(fig_col "$tsv" program touched value "node@$v")
		awk -v a="$value" -v b="$here" 'BEGIN { exit !(a != "" && a == b + 4096) }'
	done
	[[ "$(fig_col "$tsv" here touched drawn)" != *runtime=* ]] || false
	# three columns, the runtimes named as they are drawn
	text=$(sed 's/<[^>]*>//g' "$svg" | tr -s '\n\t ' '   ')
	[[ "$text" == *"its program: cases/touch.js"* ]] || false
	[[ "$text" == *"filled: node@10.7.0, hollow: node@22 22.23.5"* ]] || false
	[[ "$text" == *"the model: memrepro"* ]] || false
	# a panel each: the y axes' labels (the report's unit is MiB too)
	[ "$(sed 's/<[^>]*>/\n/g' "$svg" | grep -c '^RSS (MiB)$')" -eq 3 ]
	# the drawn runtimes are not "also measured"
	[[ "$text" != *"runtime=node@10.7.0 (beside"* ]] || false
	[ "$(svg_width "$svg")" -eq 1200 ]
	[ -s "$d/plots/touch.figures.png" ]
	run -0 python3 "$CHECK" "$svg"
	[ -z "$output" ] || false
	# without the program's runs: two panels, as before
	text=$(sed 's/<[^>]*>//g' "$BATS_FILE_TMPDIR/one/plots/touch.figures.svg" | tr -s '\n\t ' '   ')
	[[ "$text" == *"here: memrepro"* ]] || false
	[[ "$text" != *"its program"* ]] || false
	[ "$(sed 's/<[^>]*>/\n/g' "$BATS_FILE_TMPDIR/one/plots/touch.figures.svg" | grep -c '^RSS (MiB)$')" -eq 2 ]
	[ -z "$(fig_col "$BATS_FILE_TMPDIR/one/plots/touch.figures.tsv" program touched value)" ]
}

@test "the report-and-here chart: growth from each program series' first point; the report's runtime not run is said" {
	d=$BATS_TEST_TMPDIR/prog
	with_program "$d"
	# touched twice: the model 1 MiB more the second time, the program
	# 3 MiB; and no runs on the report's runtime
	for f in runs checkpoints series; do
		awk -F'\t' -v OFS='\t' 'NR == 1 || $2 !~ /runtime=node@10.7.0/' "$d/$f.tsv" > "$d/$f.new"
		mv "$d/$f.new" "$d/$f.tsv"
	done
	awk -F'\t' -v OFS='\t' '
		NR == 1 { print; next }
		{ print; $5 = 2; $7 += ($2 ~ /runtime=/ ? 3072 : 1024); print }' "$d/checkpoints.tsv" > "$d/checkpoints.new"
	mv "$d/checkpoints.new" "$d/checkpoints.tsv"
	printf '%s\n' 'compare growth' 'figure touched mb=8 rss_kb 12 MiB' >> "$BATS_TEST_TMPDIR/exp/touch.figures"
	run -1 timeout -k 5 120 "$MR" report --cases "$FIX" --expected "$BATS_TEST_TMPDIR/exp" --from "$d" touch
	tsv=$d/plots/touch.figures.tsv
	[ "$(fig_col "$tsv" report 'touched#2' y)" = 3 ]
	[ "$(fig_col "$tsv" here 'touched#1' y)" = 0 ]
	[ "$(fig_col "$tsv" here 'touched#2' y)" = 1 ]
	[ "$(fig_col "$tsv" program 'touched#1' y node@22)" = 0 ]
	[ "$(fig_col "$tsv" program 'touched#2' y node@22)" = 3 ]
	[ -z "$(fig_col "$tsv" program 'touched#2' y node@10.7.0)" ]
	text=$(sed 's/<[^>]*>//g' "$d/plots/touch.figures.svg" | tr -s '\n\t ' '   ')
	[[ "$text" == *"hollow: node@22 22.23.5; node@10.7.0 not run"* ]] || false
	[[ "$text" == *"in every panel"* ]] || false
	run -0 python3 "$CHECK" "$d/plots/touch.figures.svg"
	[ -z "$output" ] || false
}

@test "the report-and-here chart: the report's figures in our unit, axes named by their nouns" {
	d=$BATS_TEST_TMPDIR/kib
	cp -R "$BATS_FILE_TMPDIR/one" "$d"
	cp -R "$BATS_FILE_TMPDIR/exp-one" "$BATS_TEST_TMPDIR/exp"
	# the report printed KiB at the checkpoint and ms for the whole run
	printf '%s\n' '# the fixture as if a report had printed its figures in KiB' \
		'source seeds/000_fixture.txt "a fixture report"' \
		'key rss_kb@touched lower' \
		'figure touched mb=8 rss_kb 9216 KiB' \
		'figure - mb=8 wall_ms 1500 ms' \
		'figure - mb=8 user_ms 700 ms' > "$BATS_TEST_TMPDIR/exp/touch.figures"
	run -1 timeout -k 5 120 "$MR" report --cases "$FIX" --expected "$BATS_TEST_TMPDIR/exp" --from "$d" touch
	tsv=$d/plots/touch.figures.tsv
	svg=$d/plots/touch.figures.svg
	# drawn in MiB and s beside ours; the TSV keeps the value as printed
	[ "$(fig_col "$tsv" report touched y)" = 9 ]
	[ "$(fig_col "$tsv" report touched value)" = 9216 ]
	[ "$(fig_col "$tsv" report touched unit)" = KiB ]
	[ "$(fig_col "$tsv" report wall_ms y)" = 1.5 ]
	svgtext=$(sed 's/<[^>]*>/\n/g' "$svg")
	[ "$(grep -c '^RSS (MiB)$' <<< "$svgtext")" -eq 2 ]
	[ "$(grep -c '^time (s)$' <<< "$svgtext")" -eq 2 ]
	grep -q '^wall time$' <<< "$svgtext"
	grep -q '^user time$' <<< "$svgtext"
	grep -q 'key figure: RSS at touched, lower is better' <<< "$svgtext"
	# no internal name or KiB in the title, axes and categories (the
	# notes under the chart quote the results' own words)
	if sed '/^here, /d' <<< "$svgtext" | grep -E '_kb|_ms|KiB'; then false; fi
	run -0 python3 "$CHECK" "$svg"
	[ -z "$output" ] || false
}

@test "report holds each chart against the label check: a planted overlap is a warning naming the chart" {
	d=$BATS_TEST_TMPDIR/planted
	cp -R "$BATS_FILE_TMPDIR/one" "$d"
	# the scripts as installed (the check beside them), the series
	# chart with two labels on one spot
	cp -R "$BATS_TEST_DIRNAME/../plots" "$BATS_TEST_TMPDIR/plots"
	cp "$CHECK" "$BATS_TEST_TMPDIR/plots/"
	sed -i '/^set output out$/a set label 901 "planted label one" at screen 0.5, screen 0.5\nset label 902 "planted label two" at screen 0.5, screen 0.5' \
		"$BATS_TEST_TMPDIR/plots/series.gp"
	run -1 timeout -k 5 120 "$MR" report --cases "$FIX" --expected "$BATS_FILE_TMPDIR/exp-one" \
		--plots "$BATS_TEST_TMPDIR/plots" --from "$d" touch
	[[ "$output" == *"memrepro: chart check: $d/plots/touch.series.svg: labels overlap: \"planted label one\""* ]] || false
	# only that chart; it is kept
	[ "$(grep -c 'chart check' <<< "$output")" -eq 1 ]
	[ -s "$d/plots/touch.series.png" ]
	# MEMREPRO_CHARTCHECK=0: not checked
	MEMREPRO_CHARTCHECK=0 run -1 timeout -k 5 120 "$MR" report --cases "$FIX" --expected "$BATS_FILE_TMPDIR/exp-one" \
		--plots "$BATS_TEST_TMPDIR/plots" --from "$d" touch
	[[ "$output" != *"chart check"* ]] || false
}

@test "the label check holds for the PNG: a planted overlap only at the PNG's text size is a warning" {
	d=$BATS_TEST_TMPDIR/planted
	cp -R "$BATS_FILE_TMPDIR/one" "$d"
	cp -R "$BATS_TEST_DIRNAME/../plots" "$BATS_TEST_TMPDIR/plots"
	cp "$CHECK" "$BATS_TEST_TMPDIR/plots/"
	# two labels 120 px apart (not in figures.gp, which draws its labels
	# once a panel): "planted label one" is ~100 px wide in 11 px
	# text, ~135 px in the PNG's 11 pt (14.7 px)
	for f in series allocators; do
		sed -i '/^set output out$/a set label 901 "planted label one" at screen 0.3, screen 0.5 left\nset label 902 "planted label two" at screen 0.4, screen 0.5 left' \
			"$BATS_TEST_TMPDIR/plots/$f.gp"
	done
	run -1 timeout -k 5 120 "$MR" report --cases "$FIX" --expected "$BATS_FILE_TMPDIR/exp-one" \
		--plots "$BATS_TEST_TMPDIR/plots" --from "$d" touch
	for f in touch.series allocators; do
		[[ "$output" == *"memrepro: chart check: $d/plots/$f.svg: labels overlap: \"planted label one\""* ]] ||
			{ echo "$f: $output"; false; }
		[ -s "$d/plots/$f.png" ]
	done
}

@test "the diff chart of configs some without baseline rows: said under the chart, labels within it" {
	d=$BATS_TEST_TMPDIR/part
	cp -R "$BATS_FILE_TMPDIR/many" "$d"
	cp -R "$BATS_FILE_TMPDIR/exp-many" "$BATS_TEST_TMPDIR/exp"
	bl=$(find "$BATS_TEST_TMPDIR/exp" -name touch.tsv)
	# the baseline keeps the rows of one mmap threshold: 12 configs without
	awk -F'\t' '/^#/ || $1 !~ /mmap_threshold=262144/' "$bl" > "$bl.new"
	mv "$bl.new" "$bl"
	run -1 timeout -k 5 120 "$MR" report --cases "$FIX" --expected "$BATS_TEST_TMPDIR/exp" \
		--from "$d" touch
	[[ "$output" != *'chart check'* ]] || { echo "$output"; false; }
	grep -q "12 configs without baseline rows" "$d/plots/touch.diff.svg"
	run -0 python3 "$CHECK" "$d/plots/touch.diff.svg"
	[ -z "$output" ] || false
}
