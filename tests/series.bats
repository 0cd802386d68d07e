#!/usr/bin/env bats
# The series chart (plots/series.gp, runner/out/chseries.c): small
# multiples, a panel per value of the panel axis and the other axes as
# colours.  The results are made here by hand: case sx, samples at 0, 10,
# 20 and 30 ms rising to a peak, a checkpoint "done" at 30 ms; what the
# chart drew is read from its derived plots/sx.series.tsv and its SVG.

load test_helper

# results DIR: an empty results directory of case sx.
results() {
	mkdir -p "$1"
	printf 'key\tvalue\nplatform\tx86_64-glibc2.36-linux6.1-thp_madvise-cpu2\n' > "$1/env.tsv"
	printf 'case\tconfig\trepeat\toutcome\tdetail\n' > "$1/runs.tsv"
	printf 'case\tconfig\trepeat\tcheckpoint\tseq\tt_ms\trss_kb\tlazyfree_kb\ttree_rss_kb\ttree_pss_kb\ttree_nproc\tcgroup_kb\n' > "$1/checkpoints.tsv"
	printf 'case\tconfig\trepeat\tt_ms\trss_kb\tvsz_kb\ttree_rss_kb\ttree_nproc\tcgroup_kb\n' > "$1/series.tsv"
}

# run_of DIR CONFIG REPEAT PEAK_KB [LAZYFREE_KB [NPROC [CHECKPOINT]]]: one ok
# run, its samples rising to PEAK_KB, its checkpoint (default "done") with
# LazyFree and a process tree of NPROC (its cgroup charge twice the RSS).
run_of() {
	local d=$1 cfg=$2 rep=$3 peak=$4 lazy=${5:-0} np=${6:-1} ck=${7:-done} t
	printf 'sx\t%s\t%d\tok\t-\n' "$cfg" "$rep" >> "$d/runs.tsv"
	printf 'sx\t%s\t%d\t%s\t1\t30\t%d\t%d\t%d\t%d\t%d\t%d\n' "$cfg" "$rep" "$ck" "$peak" "$lazy" \
		$((peak * np)) $((peak * 2)) "$np" $((peak * 2)) >> "$d/checkpoints.tsv"
	for t in 0 10 20 30; do
		printf 'sx\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n' "$cfg" "$rep" "$t" $((peak * t / 30)) \
			$((peak * 4)) $((peak * np * t / 30)) "$np" $((peak * 2 * t / 30)) >> "$d/series.tsv"
	done
}

# draw: the report of $R with the figures files of $EXP.
draw() {
	run -0 timeout -k 5 120 "$MR" report --cases "$FIX" --expected "$EXP" "$R"
	TSV=$R/plots/sx.series.tsv
	SVG=$R/plots/sx.series.svg
	[ -s "$R/plots/sx.series.png" ]
	grep -q '<svg' "$SVG"
}

# The rows of the derived table (no comment, header or blank line).
rows() {
	awk -F'\t' 'NR > 2 && NF > 1' "$TSV"
}

# How many distinct values column $1 of the table has.
distinct() {
	rows | cut -f"$1" | sort -u | wc -l
}

# The most colours in one panel.
most_colours() {
	rows | cut -f1,2 | sort -u | cut -f1 | uniq -c | awk '$1 > m { m = $1 } END { print m + 0 }'
}

setup() {
	R=$BATS_TEST_TMPDIR/r
	EXP=$BATS_TEST_TMPDIR/expected
	mkdir -p "$EXP"
	results "$R"
}

@test "one config: one panel named by its config, one colour" {
	run_of "$R" 'mode=a' 1 8192
	draw
	[ "$(distinct 1)" -eq 1 ]
	[ "$(distinct 2)" -eq 1 ]
	grep -q '>mode=a<' "$SVG"
	[[ "$(grep -c . "$TSV")" -eq 7 ]] || false # comment, header, 4 samples, 1 checkpoint
}

@test "24 configs without an allocator axis: panels by the axis that leaves at most 4 colours in each" {
	local m mb
	for m in a b c; do
		for mb in 1 2 3 4 5 6 7 8; do
			run_of "$R" "mb=$mb,mode=$m" 1 $((mb * 1024))
		done
	done
	draw
	# mb as panels (8 of 3 colours), not mode (3 of 8)
	[ "$(distinct 1)" -eq 8 ]
	[ "$(distinct 2)" -eq 3 ]
	[ "$(most_colours)" -le 4 ]
	grep -q 'a panel per mb, colours by mode' "$SVG"
	grep -q '>mb=8<' "$SVG"
}

@test "a panel per allocator by default; a value has one colour in every panel, named in the legend" {
	local a m
	for a in glibc jemalloc tcmalloc mimalloc; do
		for m in a b c; do
			run_of "$R" "allocator=$a,mode=$m" 1 4096
		done
	done
	draw
	[ "$(distinct 1)" -eq 4 ]
	[ "$(distinct 2)" -eq 3 ]
	# each mode one colour, whatever the panel
	[ "$(rows | awk -F'\t' '{ sub(/.*mode=/, "", $10); print $10, $2 }' | sort -u | wc -l)" -eq 3 ]
	# panels in order of the values: glibc first
	[ "$(rows | awk -F'\t' '$1 == 1 { sub(/,.*/, "", $10); print $10 }' | sort -u)" = "allocator=glibc" ]
	grep -q '>mode=b<' "$SVG"
	grep -q '>allocator=tcmalloc<' "$SVG"
	run ! grep -q 'allocator=glibc,mode=a' "$SVG"
}

@test "the figures file's panels axis decides the panels" {
	local a m
	for a in glibc jemalloc tcmalloc mimalloc; do
		for m in a b c; do
			run_of "$R" "allocator=$a,mode=$m" 1 4096
		done
	done
	echo 'panels mode' > "$EXP/sx.figures"
	draw
	[ "$(distinct 1)" -eq 3 ]
	[ "$(distinct 2)" -eq 4 ]
	grep -q 'a panel per mode, colours by allocator' "$SVG"
	grep -q '>allocator=jemalloc<' "$SVG"
	# an axis no run has: a typo, exit 2 naming the line
	echo 'panels size' > "$EXP/sx.figures"
	run -2 --separate-stderr timeout -k 5 120 "$MR" report --cases "$FIX" --expected "$EXP" "$R"
	[[ "$stderr" == *"sx.figures:1:8: panels: no run of this case has the parameter \"size\""* ]] || false
}

@test "more than 4 values of the only colour axis: the panel in parts" {
	local m
	for m in a b c d e f; do
		run_of "$R" "mode=$m" 1 4096
	done
	draw
	[ "$(distinct 1)" -eq 2 ]
	[ "$(distinct 2)" -eq 6 ]
	[ "$(most_colours)" -eq 3 ]
	grep -q '>(part 2 of 2)<' "$SVG"
}

@test "the repeat with the median peak is drawn thick, the others thin" {
	run_of "$R" 'mode=a' 1 30000
	run_of "$R" 'mode=a' 2 10000
	run_of "$R" 'mode=a' 3 20000
	draw
	[ "$(rows | awk -F'\t' '$3 == 1 { print $11 }' | sort -u)" = 3 ]
	[ "$(rows | awk -F'\t' '$3 == 0 { print $11 }' | sort -u | tr '\n' ' ')" = "1 2 " ]
	grep -q 'other repeats' "$SVG"
	grep -q 'the repeat with the median peak RSS (of up to 3)' "$SVG"
}

@test "the report's x axis: checkpoints PREFIX<number> at x = number, joined, no samples" {
	local t
	for t in 1000 2000 3000; do
		run_of "$R" 'mode=a' 1 $((t * 2)) 0 1 "tick-$t"
	done
	# the runs file has the run once
	awk '!seen[$0]++' "$R/runs.tsv" > "$R/runs.new" && mv "$R/runs.new" "$R/runs.tsv"
	printf 'x tick- ticks\n' > "$EXP/sx.figures"
	draw
	[ "$(rows | awk -F'\t' '$4 == 0' | wc -l)" -eq 0 ]
	[ "$(rows | cut -f5 | tr '\n' ' ')" = "1000 2000 3000 " ]
	grep -q 'ticks (checkpoints tick-N)' "$SVG"
	grep -q 'sx: RSS over ticks' "$SVG"
	# a clock that is not the wall clock's says what it is on the axis
	printf 'x tick- ticks "the model'"'"'s, scaled"\n' > "$EXP/sx.figures"
	draw
	grep -q "ticks (the model&#39;s, scaled; checkpoints tick-N)\|ticks (the model's, scaled; checkpoints tick-N)" "$SVG"
	# ... quoted, and one description only
	printf 'x tick- ticks scaled\n' > "$EXP/sx.figures"
	run -2 timeout -k 5 120 "$MR" report --cases "$FIX" --expected "$EXP" "$R"
	[[ "$output" == *"sx.figures:1:15: expected what the unit is, quoted"* ]] || false
	printf 'x tick- ticks "a" "b"\n' > "$EXP/sx.figures"
	run -2 timeout -k 5 120 "$MR" report --cases "$FIX" --expected "$EXP" "$R"
	[[ "$output" == *"sx.figures:1:"* ]] || false
	# no checkpoint of the case on that axis: over time
	printf 'x round- rounds\n' > "$EXP/sx.figures"
	draw
	[ "$(rows | awk -F'\t' '$4 == 0' | wc -l)" -eq $(($(wc -l < "$R/series.tsv") - 1)) ]
	grep -q 'sx: RSS over time' "$SVG"
}

@test "rounds: a repeated checkpoint at its occurrence N, a round's checkpoints in turn, runs lined up" {
	local n rep
	for rep in 1 2; do
		printf 'sx\tmode=a\t%d\tok\t-\n' "$rep" >> "$R/runs.tsv"
		for n in 1 2 3; do
			# the second repeat's rounds twice as long: the same x all the same
			printf 'sx\tmode=a\t%d\tup\t%d\t%d\t%d\t0\t0\t0\t1\t0\n' "$rep" "$n" \
				$((n * 20 * rep)) $((8192 + rep)) >> "$R/checkpoints.tsv"
			printf 'sx\tmode=a\t%d\tdown\t%d\t%d\t1024\t0\t0\t0\t1\t0\n' "$rep" "$n" \
				$((n * 20 * rep + 10 * rep)) >> "$R/checkpoints.tsv"
		done
	done
	printf 'rounds iteration\n' > "$EXP/sx.figures"
	draw
	[ "$(rows | awk -F'\t' '$4 == 0' | wc -l)" -eq 0 ]
	[ "$(rows | awk -F'\t' '$11 == 2 { print $5 }' | tr '\n' ' ')" = "1 1.5 2 2.5 3 3.5 " ]
	[ "$(rows | awk -F'\t' '$11 == 1 { print $5 }' | tr '\n' ' ')" = "1 1.5 2 2.5 3 3.5 " ]
	grep -q 'iteration N (up, down at N and N+1/2)' "$SVG"
	grep -q 'sx: RSS over iteration' "$SVG"
	grep -q 'round by round' "$SVG"
	# one x axis of either kind
	printf 'rounds iteration\nx tick- ticks\n' > "$EXP/sx.figures"
	run -2 timeout -k 5 120 "$MR" report --cases "$FIX" --expected "$EXP" "$R"
	[[ "$output" == *"sx.figures:2:1: a second x or rounds line"* ]] || false
}

@test "LazyFree shaded and the process tree only where the runs have them" {
	run_of "$R" 'mode=a' 1 8192
	draw
	run ! grep -q 'LazyFree' "$SVG"
	run ! grep -q 'memory cgroup' "$SVG"
	[ "$(rows | cut -f7 | sort -u)" = "-" ]
	results "$BATS_TEST_TMPDIR/r2"
	R=$BATS_TEST_TMPDIR/r2
	run_of "$R" 'mode=a' 1 8192 4096 3
	draw
	grep -q 'LazyFree, part of RSS (at checkpoints)' "$SVG"
	grep -q 'memory cgroup: the case and its children' "$SVG"
	grep -q 'PSS of the tree' "$SVG"
	# the checkpoint's LazyFree and tree PSS, in MiB
	[ "$(rows | awk -F'\t' '$4 > 0 { print $7, $9 }')" = "4.000 16.000" ]
}

@test "a config without samples is named in the title; a case without any says why" {
	run_of "$R" 'mode=a' 1 8192
	run_of "$R" 'mode=b' 1 8192
	grep -v 'mode=b' "$R/series.tsv" > "$R/s" && mv "$R/s" "$R/series.tsv"
	draw
	grep -q '(no data: mode=b)' "$SVG"
	head -1 "$R/series.tsv" > "$R/s" && mv "$R/s" "$R/series.tsv"
	draw
	grep -q 'no data: no run of this case has a memory sample' "$SVG"
}

@test "4 allocators of 6 modes: each allocator's panel in 2 parts, a row of panels per allocator" {
	local a m
	for a in glibc jemalloc tcmalloc mimalloc; do
		for m in a b c d e f; do
			run_of "$R" "allocator=$a,mode=$m" 1 4096
		done
	done
	run -0 timeout -k 5 120 "$MR" report --verbose --cases "$FIX" --expected "$EXP" "$R"
	TSV=$R/plots/sx.series.tsv
	[ "$(distinct 1)" -eq 8 ]
	[ "$(most_colours)" -eq 3 ]
	# FLAGS (plots/series.gp): 8 panels, 6 colours, ..., NCOLS 2, SHAREX
	# (drawn into a temporary name beside it, renamed once whole)
	[[ "$output" == *"series.gp' '$TSV' '$R/plots/.sx.series."*".tmp.svg' "*"'8 6 1 "*" 2 "[01]"' "* ]] || false
	# 4 rows of panels: taller than 3 rows would be
	grep -q 'viewBox="0 0 1200 1[2-9][0-9][0-9]"' "$R/plots/sx.series.svg"
}

@test "lines that coincide are said to, lines that differ are not" {
	run_of "$R" 'mode=a' 1 8192
	run_of "$R" 'mode=b' 1 8192
	draw
	grep -q 'Where lines coincide, the colour later in the legend is on top.' "$SVG"
	results "$BATS_TEST_TMPDIR/r2"
	R=$BATS_TEST_TMPDIR/r2
	run_of "$R" 'mode=a' 1 8192
	run_of "$R" 'mode=b' 1 9000
	draw
	run ! grep -q 'Where lines coincide' "$SVG"
}

@test "elements a panel has no rows of are not plotted: gnuplot says nothing, the chart is drawn" {
	# panel glibc: two repeats (a thin line), a process tree whose PSS
	# was not read; panel jemalloc: one repeat, one process, a checkpoint
	# of its own
	run_of "$R" 'allocator=glibc,mode=a' 1 8192 0 2
	run_of "$R" 'allocator=glibc,mode=a' 2 9216 0 2
	run_of "$R" 'allocator=glibc,mode=b' 1 6144 0 2
	run_of "$R" 'allocator=jemalloc,mode=a' 1 4096 0 1 other
	run_of "$R" 'allocator=jemalloc,mode=b' 1 5120 0 1 other
	awk -F'\t' -v OFS='\t' 'NR > 1 { $10 = "-" } { print }' "$R/checkpoints.tsv" > "$R/c"
	mv "$R/c" "$R/checkpoints.tsv"
	run -0 --separate-stderr timeout -k 5 120 "$MR" report --cases "$FIX" --expected "$EXP" "$R"
	[[ "$stderr" != *gnuplot* ]] || { echo "$stderr"; false; }
	[ -s "$R/plots/sx.series.png" ]
	SVG=$R/plots/sx.series.svg
	TSV=$R/plots/sx.series.tsv
	# two panels, each with its thick line
	[ "$(distinct 1)" -eq 2 ]
	grep -q '>allocator=glibc<' "$SVG"
	grep -q '>allocator=jemalloc<' "$SVG"
	[ "$(grep -c 'stroke-width="2.00"' "$SVG")" -ge 2 ]
	run -0 python3 "$BATS_TEST_DIRNAME/../tools/chartcheck.py" "$SVG"
}
