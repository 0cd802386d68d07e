# trend.gp: figures of one case over many results directories.
#
# Producer: memrepro trend (runner/out/trend.c), which writes the derived
# trend.tsv (the medians of every directory, in time order):
#
#   gnuplot -c plots/trend.gp trend.tsv out.png|out.svg CASE TITLE \
#           FIGURES LABELS TICKS NOTE
#
#   trend.tsv  columns case cfg what index plot step: per config, figure
#              and directory (index, from 1) the median (plot: in MiB for
#              *_kb figures, else in the figure's unit), and step 1 on the
#              first point after a detected step change
#   FIGURES    the figures to draw, one panel each ("" = no data)
#   LABELS     the configs' short forms, colour i for config i
#   TICKS      the directories' names, in time order
#   NOTE       a line under the title

set datafile separator tab
set datafile columnheaders
set encoding utf8

in = ARG1
out = ARG2
kase = ARG3
title = ARG4
figs = ARG5
labels = ARG6
ticks = ARG7
note = ARG8

if (out[strlen(out)-3:] eq ".svg") {
	set terminal svg size 1200,750 dynamic font "sans,11" background "white"
} else {
	set terminal pngcairo size 1200,750 font "sans,11" background "white"
}
set output out
set key noenhanced
set title noenhanced

if (words(figs) == 0) {
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

array C[12] = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", \
	       "#56B4E9", "#000000", "#8C564B", "#7F7F7F", "#BCBD22", \
	       "#17BECF", "#9467BD"]
colour(i) = C[(i - 1) % 12 + 1]
n = words(labels)
nf = words(figs)
nt = words(ticks)
fig(w) = word(figs, w)
# the unit of a figure, by the suffix of its metric
metric(w) = strstrt(fig(w), "@") ? fig(w)[1:strstrt(fig(w), "@") - 1] : fig(w)
unit(w) = metric(w)[strlen(metric(w)) - 2:] eq "_kb" ? "MiB" : \
	  (metric(w)[strlen(metric(w)) - 2:] eq "_ms" ? "ms" : "count")
mine(i, w, v) = strcol("case") eq kase && column("cfg") == i && strcol("what") eq fig(w) ? v : NaN
stepped(w, v) = strcol("case") eq kase && strcol("what") eq fig(w) && column("step") == 1 ? v : NaN

set grid lc rgb "#e4e4e4"
set border 3
set tics nomirror
set xrange [0.7:nt + 0.3]
set xtics () font ",9" noenhanced
do for [t=1:nt] { set xtics add (word(ticks, t) t) }
if (nt > 6) { set xtics rotate by 30 right }
set key at screen 0.995, screen 0.88 right top vertical Left reverse \
	samplen 2 spacing 1.1 width -2 box lc rgb "#cccccc" opaque
cols = nf > 3 ? 2 : 1
rowsn = (nf + cols - 1) / cols
# The longest legend entry decides how much room the legend takes.
maxlab = 12
do for [i=1:n] { maxlab = strlen(word(labels, i)) > maxlab ? strlen(word(labels, i)) : maxlab }
right = 0.90 - maxlab * 0.0071
right = right < 0.45 ? 0.45 : (right > 0.80 ? 0.80 : right)
set multiplot layout rowsn, cols title title."\n".note font ",14" \
	margins screen 0.07, screen right, screen 0.09, screen 0.86 spacing screen 0.07, screen 0.11
do for [w=1:nf] {
	set title fig(w) font ",11" noenhanced
	set ylabel unit(w)
	if (w == 1) {
		plot for [i=1:n] in using (mine(i, w, column("index"))):(mine(i, w, column("plot"))) \
			with linespoints pt 7 ps 0.7 lw 1.5 lc rgb colour(i) title word(labels, i), \
		     in using (stepped(w, column("index"))):(stepped(w, column("plot"))) \
			with points pt 6 ps 2.4 lw 2.5 lc rgb "#D00000" title "step change"
	} else {
		unset key
		plot for [i=1:n] in using (mine(i, w, column("index"))):(mine(i, w, column("plot"))) \
			with linespoints pt 7 ps 0.7 lw 1.5 lc rgb colour(i) notitle, \
		     in using (stepped(w, column("index"))):(stepped(w, column("plot"))) \
			with points pt 6 ps 2.4 lw 2.5 lc rgb "#D00000" notitle
	}
}
unset multiplot
