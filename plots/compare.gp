# compare.gp: how the medians of one case changed between two results.
#
# Producer: memrepro compare (runner/out/compare.c), which writes the derived
# compare.tsv from the two results directories:
#
#   gnuplot -c plots/compare.gp compare.tsv out.png|out.svg CASE TITLE \
#           ROWS LABELS NOTE "XMIN XMAX" FAILON
#
#   compare.tsv  columns case row cfg x lo hi olo ohi verdict note: per
#                config and figure, the new median (x), the new repeats'
#                smallest and largest value (lo, hi) and the old ones' (olo,
#                ohi), all in percent of the old median; the verdict (worse,
#                better, same: beyond the noise or not) and a label
#   CASE     the case whose rows are drawn
#   ROWS     the figures, one row each ("" = no data: NOTE says why)
#   LABELS   the configs' short forms, colour i for config i (as in
#            series.gp)
#   FAILON   the --fail-on threshold in percent, or "" for none

set datafile separator tab
set datafile columnheaders
set encoding utf8

in = ARG1
out = ARG2
kase = ARG3
title = ARG4
rows = ARG5
labels = ARG6
note = ARG7
range = ARG8
failon = ARG9

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
here(v) = strcol("case") eq kase ? v : NaN
mine(i, v) = strcol("case") eq kase && column("cfg") == i ? v : NaN
is(w, v) = strcol("case") eq kase && strcol("verdict") eq w ? v : NaN

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
set format x "%+g %%"
set border 1
set xlabel "new median vs old median (%)   (bars: the new repeats' range; grey: the old repeats' range)"
set arrow from 0, graph 0 to 0, graph 1 nohead lc rgb "#888888" dt 2 back
if (strlen(failon) > 0) {
	set arrow from failon + 0, graph 0 to failon + 0, graph 1 nohead lc rgb "#D00000" dt 3 lw 1.5 back
	set label 2 "--fail-on ".failon." %" at failon + 0, graph 1 offset 0, 0.9 center tc rgb "#D00000" font ",9"
}

plot in using (here(column("x"))):(column("row")):(column("olo")):(column("ohi")):(column("row") - 0.25 / n):(column("row") + 0.25 / n) \
	with boxxyerror fs solid 1.0 noborder fc rgb "#cfcfcf" notitle, \
     NaN with boxes fs solid 1.0 fc rgb "#cfcfcf" title "old repeats' range", \
     for [i=1:n] in using (mine(i, column("x"))):(column("row")):(column("lo")):(column("hi")) \
	with xerrorbars pt 7 ps 0.8 lw 1.2 lc rgb colour(i) title word(labels, i), \
     in using (is("worse", column("x"))):(column("row")) \
	with points pt 6 ps 2.4 lw 2.5 lc rgb "#D00000" title "worse beyond the noise", \
     in using (is("better", column("x"))):(column("row")) \
	with points pt 6 ps 2.4 lw 2.5 lc rgb "#2E8B57" title "better beyond the noise", \
     in using (is("worse", column("x"))):(column("row")):(strcol("note")) \
	with labels right offset -2.2, 0 font ",9" tc rgb "#D00000" notitle, \
     in using (is("better", column("x"))):(column("row")):(strcol("note")) \
	with labels left offset 2.2, 0 font ",9" tc rgb "#2E8B57" notitle
