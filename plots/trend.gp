# trend.gp: figures of one case over many results directories, as small
# multiples.
#
# Producer: memrepro trend (runner/out/trend.c), which writes the derived
# trend.tsv (the medians of every directory, in time order) and lays the
# chart out:
#
#   gnuplot -c plots/trend.gp trend.tsv out.png|out.svg CASE TITLE \
#           "NP NPG NFIG COLS NCOL" PTITLES LEGEND TICKS FOOT
#
#   trend.tsv  columns by name: case, index (the directory, from 1),
#              plot, plot_min, plot_max (the median and the repeats'
#              smallest and largest value: MiB for *_kb figures, else the
#              figure's unit), step (1 on the first point after a step
#              change), panel (the panel it is drawn in, 0: not drawn),
#              colour (its colour, from 1: the same in every panel)
#   TITLE      names the case, a newline, a line of counts (or why there
#              is no data: NP 0)
#   NP         panels: NFIG figures (the key figure first, then those
#              with a step or a change beyond the noise) times NPG panels
#              each (one per value of the panel axis, allocator unless the
#              case's figures file says otherwise, a value of more than 4
#              colours split in parts); COLS columns; NCOL colours
#   PTITLES    the panels' titles, '|'-separated (figure, newline, group)
#   LEGEND     the colours' names, '|'-separated: the axes' values other
#              than the panel axis'
#   TICKS      the directories' short names ('|'-separated), in time order
#   FOOT       under the chart: the figures with a change it has no panel
#              for ("+N more ... in trend.tsv"), or ""
#
# Size: 1200 px wide; the height grows with the rows of panels (206 px
# each), of the legend (22 px each, up to four entries a row) and with
# the longest directory name (rotated, 7 px a character) on top of about
# 100 px of title and foot.  The legend sits above the
# panels, never over them; a column's bottom panel alone carries the
# directories' names (rotated, thinned to what its width holds).

set datafile separator tab
set datafile columnheaders
set encoding utf8

in = ARG1
out = ARG2
kase = ARG3
title = ARG4
layout = ARG5
ptitles = ARG6
legend = ARG7
tickl = ARG8
foot = ARG9

np = int(word(layout, 1))
npg = int(word(layout, 2))
nfig = int(word(layout, 3))
cols = int(word(layout, 4))
ncol = int(word(layout, 5))
# a '1' per panel that has no point (its group did not measure its figure)
empties = word(layout, 6)
empty(p) = empties[p:p] eq "1"

# '|'-separated lists into arrays (one element at least: an array of
# none is an error)
count(s) = strlen(s) == 0 ? 0 : 1 + (strstrt(s, "|") ? count(s[strstrt(s, "|") + 1:]) : 0)
nt = count(tickl)
array PT[np > 0 ? np : 1]
array LG[ncol > 0 ? ncol : 1]
array TK[nt > 0 ? nt : 1]
rest = ptitles
do for [i=1:np] {
	j = strstrt(rest, "|")
	PT[i] = j ? rest[1:j - 1] : rest
	rest = j ? rest[j + 1:] : ""
}
rest = legend
maxch = 18
do for [i=1:ncol] {
	j = strstrt(rest, "|")
	LG[i] = j ? rest[1:j - 1] : rest
	rest = j ? rest[j + 1:] : ""
	maxch = strlen(LG[i]) > maxch ? strlen(LG[i]) : maxch
}
rest = tickl
maxtk = 5
do for [i=1:nt] {
	j = strstrt(rest, "|")
	TK[i] = j ? rest[1:j - 1] : rest
	rest = j ? rest[j + 1:] : ""
	maxtk = strlen(TK[i]) > maxtk ? strlen(TK[i]) : maxtk
}

W = 1200
titleH = 62
# the legend: the colours, the repeats' range and the step ring; as many
# entries a row as the longest name allows (10 pt: about 7.6 px a
# character, 46 px for the sample and the gap)
nleg = ncol + 2
legW = 46 + 7.6 * maxch
perrow = int((W - 60) / legW)
perrow = perrow < 1 ? 1 : (perrow > 4 ? 4 : perrow)
legW = (W - 60.0) / perrow
legrows = int((nleg + perrow - 1) / perrow)
legH = 22 * legrows + 12
rowH = 206
# the panels' grid
rpf = npg > 1 ? int((npg + cols - 1) / cols) : 1
prow(p) = npg > 1 ? ((p - 1) / npg) * rpf + ((p - 1) % npg) / cols : (p - 1) / cols
pcol(p) = npg > 1 ? ((p - 1) % npg) % cols : (p - 1) % cols
nrows = np > 0 ? prow(np) + 1 : 1
# the rotated directories' names: 9 pt, about 7 px a character
tickH = 24 + 7 * maxtk
footH = 24
H = titleH + legH + nrows * rowH + tickH + footH
H = np == 0 ? 360 : H

svg = out[strlen(out)-3:] eq ".svg"
fz = svg ? 4.0 / 3 : 1.0
fs(pt) = sprintf(",%.1f", pt * fz)
F9 = fs(9); F10 = fs(10); F11 = fs(11); F13 = fs(13); F14 = fs(14)
if (svg) {
	set terminal svg size W,H dynamic font "sans".F11 background "white"
} else {
	set terminal pngcairo size W,H font "sans".F11 background "white"
}
set output out
set key noenhanced
set title noenhanced

if (np == 0) {
	set title title font F14
	unset border
	unset tics
	unset key
	set xrange [0:1]
	set yrange [0:1]
	set label 1 "no data" at 0.5, 0.5 center font F14 noenhanced
	plot NaN notitle
	exit
}

array C[12] = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", \
	       "#56B4E9", "#000000", "#8C564B", "#7F7F7F", "#BCBD22", \
	       "#17BECF", "#9467BD"]
colour(i) = C[(i - 1) % 12 + 1]
mine(p, c, v) = strcol("case") eq kase && column("panel") == p && column("colour") == c ? v : NaN
inpanel(p, v) = strcol("case") eq kase && column("panel") == p ? v : NaN
stepped(p, v) = strcol("case") eq kase && column("panel") == p && column("step") == 1 ? v : NaN
# the unit of a panel, by the suffix of its figure's metric
fig(p) = strstrt(PT[p], "\n") ? PT[p][1:strstrt(PT[p], "\n") - 1] : PT[p]
metric(p) = strstrt(fig(p), "@") ? fig(p)[1:strstrt(fig(p), "@") - 1] : fig(p)
unit(p) = metric(p)[strlen(metric(p)) - 2:] eq "_kb" ? "MiB" : \
	  (metric(p)[strlen(metric(p)) - 2:] eq "_ms" ? "ms" : "count")

# A panel at grid (r, c): its plot inside its cell, 62 px left for the
# y tics and label, 38 px above for its two-line title.
colW = (W - 20.0) / cols
top0 = titleH + legH
cx0(c) = 10 + c * colW
px0(c) = (cx0(c) + 66) / W
px1(c) = (cx0(c) + colW - 14) / W
py1(r) = 1 - (top0 + r * rowH + 40.0) / H
py0(r) = 1 - (top0 + (r + 1) * rowH - 14.0) / H
below(p) = sum [q=1:np] ((prow(q) == prow(p) + 1 && pcol(q) == pcol(p)) ? 1 : 0)

# The legend, above the panels, by hand.
lx(i) = (44.0 + legW * ((i - 1) % perrow)) / W
ly(i) = 1 - (titleH + 14.0 + 22 * int((i - 1) / perrow)) / H
set multiplot title title font F13
do for [i=1:ncol] {
	set arrow 100 + i from screen lx(i) - 28.0 / W, screen ly(i) to screen lx(i) - 6.0 / W, screen ly(i) \
		nohead lw 2 lc rgb colour(i)
	set label 100 + i LG[i] at screen lx(i), screen ly(i) left font F10 tc rgb colour(i) noenhanced
}
i = ncol + 1
set arrow 100 + i from screen lx(i) - 17.0 / W, screen ly(i) - 6.0 / H to screen lx(i) - 17.0 / W, screen ly(i) + 6.0 / H \
	nohead lw 1 lc rgb "#555555"
set label 100 + i "the repeats' range" at screen lx(i), screen ly(i) left font F10 noenhanced
i = ncol + 2
set label 100 + i "step change" at screen lx(i), screen ly(i) left font F10 noenhanced
set label 200 "" at screen lx(i) - 17.0 / W, screen ly(i) point pt 6 ps 1.8 lw 2.5 lc rgb "#D00000"
if (strlen(foot) > 0) {
	set label 201 foot at screen 0.5, screen 12.0 / H center font F10 tc rgb "#444444" noenhanced
}
unset key
set border 3
set tics nomirror
set grid lc rgb "#e4e4e4"
set ytics font F9
set xrange [0.5:nt + 0.5]
# the directories' names: every k-th, rotated, as many as a panel's
# width holds at 16 px each
pw = colW - 80
every = nt * 16 > pw ? int(ceil(nt * 16.0 / pw)) : 1

do for [p=1:np] {
	r = prow(p)
	c = pcol(p)
	set lmargin at screen px0(c)
	set rmargin at screen px1(c)
	set tmargin at screen py1(r)
	set bmargin at screen py0(r)
	set title PT[p] font F10 noenhanced offset 0, -0.3
	set ylabel unit(p) font F10 offset 1.5, 0
	set xtics () font F9 noenhanced
	if (below(p) == 0) {
		do for [t=1:nt] {
			if ((t - 1) % every == 0) {
				set xtics add (TK[t] t)
			} else {
				set xtics add ("" t)
			}
		}
		set xtics rotate by 90 right
	} else {
		do for [t=1:nt] { set xtics add ("" t) }
		set xtics norotate
	}
	if (empty(p)) {
		set yrange [0:1]
		unset ytics
		set label 300 "not measured" at graph 0.5, graph 0.5 center font F10 tc rgb "#777777"
		plot NaN notitle
		unset label 300
		set ytics nomirror font F9
		set autoscale y
	} else {
	# a y range of 10 % of the level at least: a change within the noise
	# (memory: 3 %) stays flat instead of filling the panel
	# (one column at a time: two would fit a line, and warn on one point)
	# (the previous panel's y range would filter them)
	set autoscale y
	stats [*:*] in using (inpanel(p, column("plot_min"))) nooutput name "LO"
	stats [*:*] in using (inpanel(p, column("plot_max"))) nooutput name "HI"
	lo = LO_min
	hi = HI_max
	lvl = abs(hi) > abs(lo) ? abs(hi) : abs(lo)
	if (hi - lo < 0.1 * lvl || lvl == 0) {
		mid = (hi + lo) / 2.0
		pad = lvl > 0 ? 0.05 * lvl : 1
		set yrange [mid - pad:mid + pad]
	} else {
		set autoscale y
	}
	plot for [k=1:ncol] in using (mine(p, k, column("index"))):(mine(p, k, column("plot"))):(mine(p, k, column("plot_min"))):(mine(p, k, column("plot_max"))) \
		with yerrorbars pt 7 ps 0.1 lw 0.8 lc rgb colour(k) notitle, \
	     for [k=1:ncol] in using (mine(p, k, column("index"))):(mine(p, k, column("plot"))) \
		with linespoints pt 7 ps 0.6 lw 1.5 lc rgb colour(k) notitle, \
	     in using (stepped(p, column("index"))):(stepped(p, column("plot"))) \
		with points pt 6 ps 1.8 lw 2.5 lc rgb "#D00000" notitle
	}
	# the legend and the foot once
	unset arrow
	unset label
	unset title
}
unset multiplot
