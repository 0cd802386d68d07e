# series.gp: memory over time of every config of one case, on one chart.
#
# Producer: memrepro report (runner/out/charts.c), over the results directory's
# own series.tsv and checkpoints.tsv (docs/formats.md, "Results directory").
#
#   gnuplot -c plots/series.gp series.tsv out.png|out.svg checkpoints.tsv \
#           CASE TITLE RUNS XMAX CHECKPOINTS PANELS
#
#   series.tsv       columns case config repeat t_ms rss_kb tree_rss_kb
#   checkpoints.tsv  columns case config repeat checkpoint t_ms rss_kb
#                    lazyfree_kb tree_private_dirty_kb
#   RUNS         the run drawn per config, words CONFIG#REPEAT#COLOUR#LABEL:
#                its repeat, its colour (the config's index in the case, so
#                that every chart of the case agrees) and its legend (the
#                config's short form); "" when no run has a sample
#   XMAX         the last sample's time in seconds; with no RUNS, why
#                there is no data
#   CHECKPOINTS  the checkpoint names the drawn runs recorded, one marker
#                shape each
#   PANELS       "rss", then "lazyfree" (LazyFree at the checkpoints) and
#                "tree" (the RSS of the case and its descendants over time,
#                their private dirty memory at the checkpoints) when the
#                drawn runs have any
#
# Time in seconds, memory in MiB (the TSV has ms and KiB).

set datafile separator tab
set datafile columnheaders
set encoding utf8

series = ARG1
out = ARG2
ckpts = ARG3
kase = ARG4
title = ARG5
runs = ARG6
xmax = ARG7
cknames = ARG8
panels = ARG9

if (out[strlen(out)-3:] eq ".svg") {
	set terminal svg size 1200,750 dynamic font "sans,11" background "white"
} else {
	set terminal pngcairo size 1200,750 font "sans,11" background "white"
}
set output out

set key noenhanced
set title noenhanced

if (words(runs) == 0) {
	set title title font ",13"
	unset border
	unset tics
	unset key
	set xrange [0:1]
	set yrange [0:1]
	set label 1 "no data: ".xmax at 0.5, 0.5 center font ",14" noenhanced
	plot NaN notitle
	exit
}

# A qualitative palette (Okabe-Ito, then more): past twelve configs the
# colours repeat with a dashed line.  The same in diff.gp and compare.gp.
array C[12] = [0x0072B2, 0xD55E00, 0x009E73, 0xCC79A7, 0xE69F00, \
	       0x56B4E9, 0x000000, 0x8C564B, 0x7F7F7F, 0xBCBD22, \
	       0x17BECF, 0x9467BD]
array P[6] = [7, 9, 5, 13, 11, 3]
n = words(runs)
nck = words(cknames)
npan = words(panels)

# The fields of each word of RUNS, once.
array CFG[n]
array REP[n]
array COL[n]
array LAB[n]
do for [i=1:n] {
	w = word(runs, i)
	h = strstrt(w, "#")
	CFG[i] = w[1:h - 1]
	w = w[h + 1:]
	h = strstrt(w, "#")
	REP[i] = int(w[1:h - 1])
	w = w[h + 1:]
	h = strstrt(w, "#")
	COL[i] = int(w[1:h - 1])
	LAB[i] = w[h + 1:]
}
colour(i) = C[(COL[i] - 1) % 12 + 1]
dash(i) = (COL[i] - 1) / 12 + 1
# this run's rows only (the others are NaN: not drawn)
mine(i) = strcol("case") eq kase && strcol("config") eq CFG[i] && column("repeat") == REP[i]
s(i, v) = mine(i) ? v : NaN
# the drawn run a checkpoint row belongs to (0: none), and its colour
which(x) = sum [i=1:n] (mine(i) ? i : 0)
rowc(x) = which(0) > 0 ? colour(which(0)) : 0
c(j, v) = strcol("checkpoint") eq word(cknames, j) && which(0) > 0 ? v : NaN
mib(kb) = kb / 1024.0

set grid lc rgb "#dddddd"
set border 3
set tics nomirror
set xrange [0:xmax * 1.02 + 0.001]
set yrange [0:*]
set offsets 0, 0, graph 0.05, 0
# The legend to the right of the panels, which share their left and right
# edges so that their time axes line up.
# The longest legend entry decides how much room the legend takes.
maxlab = strlen("checkpoint ") + 12
do for [i=1:n] { maxlab = strlen(LAB[i]) > maxlab ? strlen(LAB[i]) : maxlab }
right = 0.90 - maxlab * 0.0071
right = right < 0.45 ? 0.45 : (right > 0.80 ? 0.80 : right)
set lmargin at screen 0.08
set rmargin at screen right
set key at screen 0.995, screen 0.86 right top vertical Left reverse \
	samplen 2.5 spacing 1.1 width -2 box lc rgb "#cccccc" opaque

set multiplot title title font ",13" noenhanced
top = 0.86
bottom = 0.10
# RSS gets the most room; each further panel a share below it.
h1 = npan == 1 ? top - bottom : (npan == 2 ? 0.55 : 0.45) * (top - bottom)
hk = npan == 1 ? 0 : (top - bottom - h1) / (npan - 1)

set tmargin at screen top
set bmargin at screen top - h1
set xlabel (npan > 1 ? "" : "time since start (s)")
set ylabel "RSS (MiB)"
plot for [i=1:n] series using (s(i, column("t_ms") / 1000.0)):(s(i, mib(column("rss_kb")))) \
	with lines lw 2 lc rgb colour(i) dt dash(i) title LAB[i], \
     for [j=1:nck] ckpts using (c(j, column("t_ms") / 1000.0)):(c(j, mib(column("rss_kb")))):(rowc(0)) \
	with points pt P[(j - 1) % 6 + 1] ps 1.1 lc rgb variable notitle, \
     for [j=1:nck] NaN with points pt P[(j - 1) % 6 + 1] ps 1.1 lc rgb "#444444" \
	title "checkpoint ".word(cknames, j)

unset key
do for [w=2:npan] {
	t = top - h1 - (w - 2) * hk
	set tmargin at screen t - 0.035
	set bmargin at screen t - hk
	set xlabel (w == npan ? "time since start (s)" : "")
	if (word(panels, w) eq "lazyfree") {
		set ylabel "LazyFree at checkpoints (MiB)"
		plot for [j=1:nck] ckpts using (c(j, column("t_ms") / 1000.0)):(c(j, mib(column("lazyfree_kb")))):(rowc(0)) \
			with points pt P[(j - 1) % 6 + 1] ps 1.1 lc rgb variable notitle
	}
	if (word(panels, w) eq "tree") {
		set ylabel "tree: RSS, private at marks (MiB)"
		plot for [i=1:n] series using (s(i, column("t_ms") / 1000.0)):(s(i, mib(column("tree_rss_kb")))) \
			with lines lw 2 lc rgb colour(i) dt dash(i) notitle, \
		     for [j=1:nck] ckpts using (c(j, column("t_ms") / 1000.0)):(c(j, mib(column("tree_private_dirty_kb")))):(rowc(0)) \
			with points pt P[(j - 1) % 6 + 1] ps 1.1 lc rgb variable notitle
	}
}
unset multiplot
