#!/usr/bin/env bats
# The charts of compare and trend: for a case of one config and one of 24,
# over 2 results directories and over 10, every label apart and inside
# the chart (tools/chartcheck.py over the SVGs), the height growing with
# the content, and only what changed drawn.

load test_helper

CHECK="$BATS_TEST_DIRNAME/../tools/chartcheck.py"

# One run of the touch fixture (1 config, 4 repeats: the fewest compare's
# test can call a change on), made once for the
# file, and from it:
#   one.T   1 config,  T = 1..10: the same figures, started on day T, rss
#           and pss 1.3x from day 6 on (a step)
#   many.T  24 configs (allocator=glibc|jemalloc|mimalloc|tcmalloc x
#           mb=1..6, each a copy of the run's rows), the same step for
#           the configs of an odd mb
#   moved   many.1 with every memory figure at the checkpoint scaled by a
#           factor per config (0.52x..1.48x: most beyond the noise)
#   moved1  one.1 with the same 1.5x
setup_file() {
	local mr="$BATS_TEST_DIRNAME/../build/memrepro" fix="$BATS_TEST_DIRNAME/../build/fixtures"
	local d=$BATS_FILE_TMPDIR t
	timeout -k 5 120 "$mr" run --cases "$fix" --out "$d/run" --axis allocator=glibc \
		--axis mb=8 --repeat 4 --quiet touch >/dev/null
	# every row of config allocator=glibc,mb=8 once per config of $2
	widen() {
		local f
		for f in runs checkpoints series; do
			awk -F'\t' -v OFS='\t' -v cfgs="$2" '
				NR == 1 { print; next }
				{ n = split(cfgs, c, " "); for (i = 1; i <= n; i++) { $2 = c[i]; print } }' \
				"$1/$f.tsv" > "$1/$f.tsv.new" && mv "$1/$f.tsv.new" "$1/$f.tsv"
		done
	}
	# the figures of metrics $3 (blank-separated) at the checkpoints of
	# configs matching $2 times $4 (a number, or "mb": 1 + ((mb * 7) % 9 - 4) * 0.12)
	scale() {
		awk -F'\t' -v OFS='\t' -v cfg="$2" -v ms="$3" -v f="$4" '
			NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; print; next }
			$2 ~ cfg {
				k = f
				if (f == "mb") {
					mb = $2; sub(/.*mb=/, "", mb)
					k = 1 + ((mb * 7 + ($2 ~ /jemalloc/)) % 9 - 4) * 0.12
				}
				n = split(ms, m, " ")
				for (j = 1; j <= n; j++)
					$col[m[j]] = int($col[m[j]] * k)
			}
			{ print }' "$1/checkpoints.tsv" > "$1/checkpoints.tsv.new" &&
			mv "$1/checkpoints.tsv.new" "$1/checkpoints.tsv"
	}
	started() {
		sed -i "s/^started\t.*/started\t2026-01-$(printf %02d "$2")T12:00:00Z/" "$1/env.tsv"
	}
	local many="" a m
	for a in glibc jemalloc mimalloc tcmalloc; do
		for m in 1 2 3 4 5 6; do
			many="$many allocator=$a,mb=$m"
		done
	done
	for t in 1 2 3 4 5 6 7 8 9 10; do
		cp -R "$d/run" "$d/one.$t"
		cp -R "$d/run" "$d/many.$t"
		widen "$d/many.$t" "$many"
		started "$d/one.$t" "$t"
		started "$d/many.$t" "$t"
		if [ "$t" -ge 6 ]; then
			scale "$d/one.$t" . "rss_kb pss_kb" 1.3
			scale "$d/many.$t" 'mb=[135]' "rss_kb pss_kb" 1.3
		fi
	done
	local mem="rss_kb pss_kb anon_kb private_dirty_kb tree_rss_kb tree_pss_kb tree_private_dirty_kb"
	cp -R "$d/many.1" "$d/moved"
	scale "$d/moved" . "$mem" mb
	sed -i "s/^started\t.*/started\t2026-02-01T12:00:00Z/" "$d/moved/env.tsv"
	cp -R "$d/one.1" "$d/moved1"
	scale "$d/moved1" . "$mem" 1.5
}

# The SVG's width and height (its viewBox).
svg_width() {
	sed -n 's/^ *viewBox="0 0 \([0-9]*\) \([0-9]*\)".*/\1/p' "$1"
}

svg_height() {
	sed -n 's/^ *viewBox="0 0 \([0-9]*\) \([0-9]*\)".*/\2/p' "$1"
}

# Chart $1 (without .svg/.png) is there in both forms, 1200 px wide, and
# passes the check.
chart_ok() {
	[ -s "$1.png" ] || { echo "no $1.png"; return 1; }
	[ -s "$1.svg" ] || { echo "no $1.svg"; return 1; }
	[ "$(svg_width "$1.svg")" -eq 1200 ] || { echo "$1.svg: not 1200 px wide"; return 1; }
	run -0 python3 "$CHECK" "$1.svg"
	[ -z "$output" ] || { echo "$output"; false; }
}

# trend over the directories $1.1 .. $1.$2 into $3, with options $4...
# (--no-charts where a test reads the numbers alone)
trend_of() {
	local dirs=() t
	for t in $(seq 1 "$2"); do
		dirs+=("$BATS_FILE_TMPDIR/$1.$t")
	done
	run -0 timeout -k 5 120 "$MR" trend "${@:4}" --out "$3" "${dirs[@]}"
}

@test "compare of one config: one line, its largest change named, every label apart" {
	d=$BATS_FILE_TMPDIR
	run -0 timeout -k 5 120 "$MR" compare --out "$BATS_TEST_TMPDIR/c" "$d/one.1" "$d/moved1"
	chart_ok "$BATS_TEST_TMPDIR/c/touch.compare"
	tsv=$BATS_TEST_TMPDIR/c/compare.tsv
	# one config: one worst row, on line 1; every other row on its line
	# or a line of its own (named: beyond the noise)
	[ "$(awk -F'\t' '$1 == "touch" && $28 == "worst"' "$tsv" | wc -l)" -eq 1 ]
	awk -F'\t' '$1 == "touch" && $28 == "worst" && $8 != 1 { bad = 1 } END { exit bad }' "$tsv"
	awk -F'\t' '$1 == "touch" && $28 == "named" && $20 == "same" { bad = 1 } END { exit bad }' "$tsv"
	# the worst is a change beyond the noise (+50 %), named with its figure
	[ "$(awk -F'\t' '$1 == "touch" && $28 == "worst" { print $20 }' "$tsv")" = worse ]
	grep -q '+50.0 %' "$BATS_TEST_TMPDIR/c/touch.compare.svg"
	# the title names the case and both directories, shortened
	grep -q 'touch: change of the medians, one.1 -> moved1' "$BATS_TEST_TMPDIR/c/touch.compare.svg"
}

@test "compare of 24 configs: a line per config, the named figures capped, the rest counted" {
	d=$BATS_FILE_TMPDIR
	run -0 timeout -k 5 120 "$MR" compare --out "$BATS_TEST_TMPDIR/c" "$d/many.1" "$d/moved"
	chart_ok "$BATS_TEST_TMPDIR/c/touch.compare"
	tsv=$BATS_TEST_TMPDIR/c/compare.tsv
	[ "$(awk -F'\t' '$1 == "touch" && $28 == "worst"' "$tsv" | wc -l)" -eq 24 ]
	named=$(awk -F'\t' '$1 == "touch" && $28 == "named"' "$tsv" | wc -l)
	more=$(awk -F'\t' '$1 == "touch" && $28 == "more"' "$tsv" | wc -l)
	# (a figure of busy runs is not-compared: a busy machine's times are
	# not figures; it is neither named nor counted)
	beyond=$(awk -F'\t' '$1 == "touch" && $28 != "worst" && ($20 == "worse" || $20 == "better")' "$tsv" | wc -l)
	# as many named as configs (the cap), the others counted under the chart
	[ "$named" -eq 24 ]
	[ "$more" -gt 0 ]
	[ $((named + more)) -eq "$beyond" ] || { awk -F"\t" '$1 == "touch" && $28 != "worst" { print $3, $20, $28 }' "$tsv" | sort | uniq -c; false; }
	grep -q "+$more more figures beyond the noise in compare.tsv" "$BATS_TEST_TMPDIR/c/touch.compare.svg"
	# the lines are 1..48, each one once: a config's or a named figure's
	[ "$(awk -F'\t' '$1 == "touch" && ($28 == "worst" || $28 == "named") { print $8 }' "$tsv" | sort -n | uniq | tr '\n' ' ')" = "$(seq -s ' ' 1 48) " ]
	# short config names on the left: the allocator bare
	grep -q '>jemalloc, mb=3<' "$BATS_TEST_TMPDIR/c/touch.compare.svg"
	# the height grows with the lines: taller than the chart of one config
	run -0 timeout -k 5 120 "$MR" compare --out "$BATS_TEST_TMPDIR/c1" "$d/one.1" "$d/moved1"
	[ "$(svg_height "$BATS_TEST_TMPDIR/c/touch.compare.svg")" -ge \
		$(($(svg_height "$BATS_TEST_TMPDIR/c1/touch.compare.svg") + 40 * 22)) ]
}

@test "compare with nothing measured in both draws a chart that says why" {
	d=$BATS_FILE_TMPDIR
	o=$BATS_TEST_TMPDIR/old
	cp -R "$d/one.1" "$o"
	awk -F'\t' -v OFS='\t' 'NR > 1 { $4 = "skipped"; $5 = "fixture: nothing to run" } { print }' \
		"$o/runs.tsv" > "$o/runs.tsv.new"
	mv "$o/runs.tsv.new" "$o/runs.tsv"
	run -0 timeout -k 5 120 "$MR" compare --out "$BATS_TEST_TMPDIR/c" "$o" "$d/one.2"
	chart_ok "$BATS_TEST_TMPDIR/c/touch.compare"
	grep -q 'no data: no config of this case measured a figure in both directories' \
		"$BATS_TEST_TMPDIR/c/touch.compare.svg"
}

@test "trend of one config over 2 and 10 directories: the key figure and what stepped, labels apart" {
	trend_of one 2 "$BATS_TEST_TMPDIR/t2"
	chart_ok "$BATS_TEST_TMPDIR/t2/touch.trend"
	# nothing changed between day 1 and 2: the key figure alone
	[ "$(awk -F'\t' '$1 == "touch" && $20 > 0 { print $7 }' "$BATS_TEST_TMPDIR/t2/trend.tsv" | sort -u)" = "rss_kb@touched" ]
	grep -q 'the key figure alone' "$BATS_TEST_TMPDIR/t2/touch.trend.svg"
	trend_of one 10 "$BATS_TEST_TMPDIR/t10"
	chart_ok "$BATS_TEST_TMPDIR/t10/touch.trend"
	t=$BATS_TEST_TMPDIR/t10/trend.tsv
	# the key figure first, then pss (stepped); vsz did not move: no panel
	[ "$(awk -F'\t' '$1 == "touch" && $20 > 0 { print $20, $7 }' "$t" | sort -u | tr '\n' ,)" = "1 rss_kb@touched,2 pss_kb@touched," ]
	awk -F'\t' '$1 == "touch" && $7 == "vsz_kb@touched" && $20 != 0 { bad = 1 } END { exit bad }' "$t"
	# the step is marked on day 6
	[ "$(awk -F'\t' '$1 == "touch" && $7 == "rss_kb@touched" && $15 == 1 { print $8 }' "$t")" = 6 ]
	# the x labels: the start dates (all at 12:00), each under each column
	# of panels
	[ "$(grep -o '>01-[01][0-9]<' "$BATS_TEST_TMPDIR/t10/touch.trend.svg" | sort -u | wc -l)" -eq 10 ]
	[ "$(grep -c '>01-10<' "$BATS_TEST_TMPDIR/t10/touch.trend.svg")" -eq 2 ]
}

@test "trend marks one step where the medians moved, wherever it falls" {
	d=$BATS_FILE_TMPDIR
	# a, a, b, b, b, b, b: every split up to the third has medians b - a
	# apart; the step is at the third alone
	run -0 timeout -k 5 120 "$MR" trend --no-charts --out "$BATS_TEST_TMPDIR/t" "$d"/one.{1,2,6,7,8,9,10}
	[ "$(printf '%s\n' "$output" | grep -c 'rss_kb@touched: step at')" -eq 1 ]
	[[ "$output" == *"rss_kb@touched: step at 3 ($d/one.6)"* ]] || false
	# a, a, a, a, a, b, b, b, b, b
	trend_of one 10 "$BATS_TEST_TMPDIR/t10" --no-charts
	[ "$(printf '%s\n' "$output" | grep -c 'rss_kb@touched: step at')" -eq 1 ]
}

@test "trend of 24 configs over 2 and 10 directories: panels by allocator, 4 lines at most, legend apart" {
	for n in 2 10; do
		trend_of many "$n" "$BATS_TEST_TMPDIR/t$n"
		chart_ok "$BATS_TEST_TMPDIR/t$n/touch.trend"
		t=$BATS_TEST_TMPDIR/t$n/trend.tsv
		# at most 4 colours in any panel, and a panel holds one allocator
		awk -F'\t' '$1 == "touch" && $20 > 0 {
				a = $2; sub(/,.*/, "", a)
				if (!(($20 SUBSEP $21) in seen)) { seen[$20, $21] = 1; n[$20]++ }
				if (($20 in al) && al[$20] != a) bad = 1
				al[$20] = a
			}
			END { for (p in n) if (n[p] > 4) bad = 1; exit bad }' "$t"
		# each config is in one panel per figure drawn, with one colour
		awk -F'\t' '$1 == "touch" && $20 > 0 { k = $2 SUBSEP $7
				if ((k in p) && (p[k] != $20 || c[k] != $21)) bad = 1
				p[k] = $20; c[k] = $21 }
			END { exit bad }' "$t"
		# the legend: the axes' values without the panel axis
		grep -q '>mb=1<' "$BATS_TEST_TMPDIR/t$n/touch.trend.svg"
		run ! grep -q '>allocator=glibc,mb=1<' "$BATS_TEST_TMPDIR/t$n/touch.trend.svg"
	done
	# over 10 directories pss stepped too: a row of panels more, so taller
	[ "$(svg_height "$BATS_TEST_TMPDIR/t10/touch.trend.svg")" -gt "$(svg_height "$BATS_TEST_TMPDIR/t2/touch.trend.svg")" ]
	[ "$(awk -F'\t' '$1 == "touch" && $20 > 0 { print $7 }' "$BATS_TEST_TMPDIR/t10/trend.tsv" | sort -u | tr '\n' ,)" = "pss_kb@touched,rss_kb@touched," ]
}

@test "trend of a case nothing measured draws a chart that says why" {
	d=$BATS_FILE_TMPDIR
	for t in 1 2; do
		cp -R "$d/one.$t" "$BATS_TEST_TMPDIR/s$t"
		awk -F'\t' -v OFS='\t' 'NR > 1 { $4 = "skipped"; $5 = "fixture: nothing to run" } { print }' \
			"$BATS_TEST_TMPDIR/s$t/runs.tsv" > "$BATS_TEST_TMPDIR/s$t/runs.tsv.new"
		mv "$BATS_TEST_TMPDIR/s$t/runs.tsv.new" "$BATS_TEST_TMPDIR/s$t/runs.tsv"
	done
	run -0 timeout -k 5 120 "$MR" trend --out "$BATS_TEST_TMPDIR/t" "$BATS_TEST_TMPDIR/s1" "$BATS_TEST_TMPDIR/s2"
	chart_ok "$BATS_TEST_TMPDIR/t/touch.trend"
	grep -q 'no run of this case measured anything' "$BATS_TEST_TMPDIR/t/touch.trend.svg"
}

@test "trend draws the key figure and the panel axis a case's figures file declares" {
	d=$BATS_FILE_TMPDIR
	mkdir -p "$BATS_TEST_TMPDIR/exp"
	printf '%s\n' '# the fixture as if its report had printed its VSZ' 'key vsz_kb@touched lower' \
		'panels mb' > "$BATS_TEST_TMPDIR/exp/touch.figures"
	run -0 timeout -k 5 120 "$MR" trend --expected "$BATS_TEST_TMPDIR/exp" --out "$BATS_TEST_TMPDIR/t" \
		"$d"/many.{1,2,3,4,5,6,7,8,9,10}
	chart_ok "$BATS_TEST_TMPDIR/t/touch.trend"
	t=$BATS_TEST_TMPDIR/t/trend.tsv
	# vsz did not move, yet it is drawn, first (panels 1..6: one per mb)
	[ "$(awk -F'\t' '$1 == "touch" && $7 == "vsz_kb@touched" && $20 > 0 { print $20 }' "$t" | sort -un | tr '\n' ' ')" = "1 2 3 4 5 6 " ]
	# a panel per mb, the allocators as its colours
	awk -F'\t' '$1 == "touch" && $20 > 0 { m = $2; sub(/.*mb=/, "", m)
			if (($20 in mb) && mb[$20] != m) bad = 1
			mb[$20] = m }
		END { exit bad }' "$t"
	grep -q '>tcmalloc<' "$BATS_TEST_TMPDIR/t/touch.trend.svg"
	# and without the file, the default: rss_kb at the last checkpoint
	run -0 timeout -k 5 120 "$MR" trend --expected "$BATS_TEST_TMPDIR" --out "$BATS_TEST_TMPDIR/t0" \
		"$d"/many.{1,2}
	[ "$(awk -F'\t' '$1 == "touch" && $20 > 0 { print $7 }' "$BATS_TEST_TMPDIR/t0/trend.tsv" | sort -u)" = rss_kb@touched ]
}
