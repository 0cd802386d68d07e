# diff.gp: the observed medians of one case against its baseline.
#
# Producer: memrepro report (runner/out/charts.c), which writes the derived
# <case>.diff.tsv from the results and expected/<platform>/<case>.tsv:
#
#   gnuplot -c plots/diff.gp CASE.diff.tsv out.png|out.svg TITLE ROWS \
#           LABELS NOTE "XMIN XMAX"
#
#   CASE.diff.tsv  columns what row cfg dev lo hi verdict note: per config
#                  and baseline row, (observed median - blessed median) /
#                  tolerance (dev), the same for the repeats' smallest and
#                  largest value (lo, hi), the verdict, and a label for
#                  rows that regressed or improved
#   ROWS    the metrics, one row each ("rss_kb@cleared"; "" = no data,
#           the chart then says NOTE)
#   LABELS  the configs' short forms, colour i for config i (as in
#           series.gp)
#   NOTE    a line under the title (counts), or why there is no data
#
# The tolerance band is [-1, 1] on every row: a point right of it
# regressed (ringed red), left of it improved (ringed green).

set datafile separator tab
set datafile columnheaders
set encoding utf8

in = ARG1
out = ARG2
title = ARG3
rows = ARG4
labels = ARG5
note = ARG6
range = ARG7

if (out[strlen(out)-3:] eq ".svg") {
	set terminal svg size 1200,750 dynamic font "sans,11" background "white"
} else {
	set terminal pngcairo size 1200,750 font "sans,11" background "white"
}
set output out
set key noenhanced
set title noenhanced
set ytics noenhanced

if (words(rows) == 0) {
	set title title font ",14"
	unset border
	unset tics
	unset key
	set xrange [0:1]
	set yrange [0:1]
	set label 1 "no data: ".note at 0.5, 0.5 center font ",14" noenhanced
	plot NaN notitle
	exit
}

# Same colours as series.gp, config for config.
array C[12] = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", \
	       "#56B4E9", "#000000", "#8C564B", "#7F7F7F", "#BCBD22", \
	       "#17BECF", "#9467BD"]
colour(i) = C[(i - 1) % 12 + 1]
n = words(labels)
nr = words(rows)
mine(i, v) = column("cfg") == i ? v : NaN
is(w, v) = strcol("verdict") eq w ? v : NaN

set title title."\n".note font ",14"
# The longest legend entry decides how much room the legend takes.
maxlab = 24
do for [i=1:n] { maxlab = strlen(word(labels, i)) > maxlab ? strlen(word(labels, i)) : maxlab }
right = 0.90 - maxlab * 0.0071
right = right < 0.45 ? 0.45 : (right > 0.80 ? 0.80 : right)
set lmargin at screen 0.22
set rmargin at screen right
set tmargin at screen 0.88
set bmargin at screen 0.10
set key at screen 0.995, screen 0.88 right top vertical Left reverse \
	samplen 2 spacing 1.1 width -2 box lc rgb "#cccccc" opaque
set xrange [word(range, 1):word(range, 2)]
set yrange [nr + 0.5:0.5]
set ytics scale 0 font ",10"
set ytics ()
do for [r=1:nr] {
	set ytics add (word(rows, r) r)
	if (r < nr) {
		set arrow from graph 0, first r + 0.5 to graph 1, first r + 0.5 nohead lc rgb "#e4e4e4" back
	}
}
set xtics nomirror
set border 1
set xlabel "(observed median - baseline median) / tolerance   (bars: the repeats' range)"
set object 1 rect from -1, graph 0 to 1, graph 1 fc rgb "#dff0d8" fs solid 1.0 noborder behind
set arrow from 0, graph 0 to 0, graph 1 nohead lc rgb "#888888" dt 2 back

plot NaN with boxes fs solid 1.0 fc rgb "#dff0d8" title "within the tolerance", \
     for [i=1:n] in using (mine(i, column("dev"))):(column("row")):(column("lo")):(column("hi")) \
	with xerrorbars pt 7 ps 0.8 lw 1.2 lc rgb colour(i) title word(labels, i), \
     in using (is("regressed", column("dev"))):(column("row")) \
	with points pt 6 ps 2.4 lw 2.5 lc rgb "#D00000" title "regressed", \
     in using (is("improved", column("dev"))):(column("row")) \
	with points pt 6 ps 2.4 lw 2.5 lc rgb "#2E8B57" title "improved", \
     in using (is("regressed", column("dev"))):(column("row")):(strcol("note")) \
	with labels right offset -2.2, 0 font ",9" tc rgb "#D00000" notitle, \
     in using (is("improved", column("dev"))):(column("row")):(strcol("note")) \
	with labels left offset 2.2, 0 font ",9" tc rgb "#2E8B57" notitle
