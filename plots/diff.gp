# diff.gp: the observed medians of one case against its baseline, one
# line per config at its worst row.
#
# Producer: memrepro report (runner/out/chdiff.c), which writes the derived
# <case>.diff.tsv from the results and expected/<platform>/<case>.tsv:
#
#   gnuplot -c plots/diff.gp CASE.diff.tsv out.png|out.svg TITLE NOTE \
#           "LINES LEFT RIGHT XMIN XMAX" FOOT
#
#   CASE.diff.tsv  one row per baseline row and config, columns by name:
#                  what (metric@checkpoint), row (the chart line it is
#                  drawn on, 1 = top), cfg (config number: its colour),
#                  config (its short form), dev, lo, hi ((observed median
#                  - blessed median) / tolerance, the same for the
#                  repeats' smallest and largest value), verdict, note
#                  (the label of a drawn row), kind (worst: the config's
#                  line; named: beyond half its tolerance, a line of its
#                  own under its config; more, -: not drawn, a dot on its
#                  config's line), spread_lo, spread_hi (on a worst row:
#                  the smallest and largest dev of the config's rows)
#   TITLE   names the case;  NOTE  a line under it (counts), or why there
#           is no data (LINES 0)
#   LINES   chart lines (configs and named rows); LEFT, RIGHT the widest
#           label left and right of the plot, in characters; XMIN XMAX
#           the deviation axis
#   FOOT    under the plot: the rows beyond half their tolerance that the
#           chart has no line for ("+N more ... in CASE.diff.tsv"), or ""
#
# Size: 1200 px wide; the height grows with the lines, 22 px each on top
# of 228 px of title, axis, key and FOOT (206 without a FOOT; 320 px at
# least, 240 for a chart that says there is no data): the producer caps the
# named lines so that a case of 16 configs and 1,300 rows stays one screen.
# The tolerance band is [-1, 1]; dashed lines at +-0.5 mark where a row
# is named.  A point right of the band regressed (ringed red), left of it
# improved (ringed green).

set datafile separator tab
set datafile columnheaders
set encoding utf8

in = ARG1
out = ARG2
title = ARG3
note = ARG4
layout = ARG5
foot = ARG6

nl = int(word(layout, 1))
wl = int(word(layout, 2))
wr = int(word(layout, 3))
xlo = real(word(layout, 4))
xhi = real(word(layout, 5))

pitch = 22
top = 88
# without a FOOT, the axis label and the key move down into its room
fb = strlen(foot) > 0 ? 0 : 22
bottom = 140 - fb
H = top + bottom + pitch * (nl > 0 ? nl : 1)
H = nl == 0 ? 240 : H < 320 ? 320 : H
W = 1200

# The SVG's text at the PNG's size: pngcairo draws a point at 96 dpi
# (4/3 px), the svg terminal writes points as px.
svg = out[strlen(out)-3:] eq ".svg"
fz = svg ? 4.0 / 3 : 1.0
# ... and its points: the svg terminal sizes them by its (scaled) font
pz = svg ? 0.7 : 1.0
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
set ytics noenhanced

if (nl == 0) {
	set title title font F14
	unset border
	unset tics
	unset key
	set xrange [0:1]
	set yrange [0:1]
	set label 1 "no data: ".note at 0.5, 0.5 center font F14 noenhanced
	plot NaN notitle
	exit
}

# Same colours as series.gp, config for config.
array C[12] = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", \
	       "#56B4E9", "#000000", "#8C564B", "#7F7F7F", "#BCBD22", \
	       "#17BECF", "#9467BD"]
colour(i) = C[(i - 1) % 12 + 1]
ncolours = 12
is(k) = strcol("kind") eq k
mine(i) = (int(column("cfg")) - 1) % ncolours + 1 == i
drawn(v) = (is("worst") || is("named")) ? v : NaN
verdict(w, v) = (strcol("verdict") eq w && (is("worst") || is("named"))) ? v : NaN
# The left label: a config's short form on its line, a named row's
# metric@checkpoint on its own; cut as the producer cuts the right ones.
cut(s) = strlen(s) > 78 ? s[1:77]."…" : s
left(s) = cut(is("worst") ? strcol("config") : strcol("what"))

# Margins from the widest labels (LEFT, RIGHT: points, 4/3 px each in
# both terminals).
lpx = 22 + wl * 4.0 / 3
rpx = 22 + wr * 4.0 / 3
set lmargin at screen lpx / W
set rmargin at screen 1 - rpx / W
set tmargin at screen 1 - real(top) / H
set bmargin at screen real(bottom) / H

set title title."\n".note font F13
set xrange [xlo:xhi]
set yrange [nl + 0.5:0.5]
# The labels sit on x2 = 0 (left) and 1 (right) of the plot, outside it.
set x2range [0:1]
unset ytics
unset y2tics
unset x2tics
set xtics nomirror out
set mxtics 2
set border 1
unset xlabel
set label 3 "deviation from the baseline, in tolerances:  (observed median - baseline median) / tolerance" \
	at screen (lpx + (W - rpx - lpx) / 2) / W, screen (88.0 - fb) / H center font F11 noenhanced
set object 1 rect from -1, graph 0 to 1, graph 1 fc rgb "#dff0d8" fs solid 1.0 noborder behind
set arrow from 0, graph 0 to 0, graph 1 nohead lc rgb "#888888" dt 2 back
set arrow from -0.5, graph 0 to -0.5, graph 1 nohead lc rgb "#b5cfae" dt 3 back
set arrow from 0.5, graph 0 to 0.5, graph 1 nohead lc rgb "#b5cfae" dt 3 back
if (strlen(foot) > 0) {
	set label 2 foot at screen 0.5, screen 14.0 / H center font F10 tc rgb "#444444" noenhanced
}
set xtics font F10
unset key
# The key: two rows of three under the axis label, drawn by hand
# (gnuplot's own key cannot be made to keep to two rows).
kx(c) = (230.0 + 300 * c) / W
ky(r) = (66.0 - fb - 22 * r) / H
set label 10 "within the tolerance (-1 to 1)" at screen kx(0), screen ky(0) left font F10 noenhanced \
	point pt 5 ps 1.8 * pz lc rgb "#cfe6c7" offset 1.5, 0
set arrow 10 from screen kx(1) - 9.0 / W, screen ky(0) to screen kx(1) + 9.0 / W, screen ky(0) nohead lw 1.5 lc rgb "#555555"
set label 11 "a config's rows: range, one dot each" at screen kx(1), screen ky(0) left font F10 noenhanced \
	point pt 7 ps 0.3 * pz lc rgb "#555555" offset 1.5, 0
set label 12 "its worst row (bars: repeats)" at screen kx(2), screen ky(0) left font F10 noenhanced \
	point pt 7 ps 1.3 * pz lc rgb "#555555" offset 1.5, 0
set label 13 "a row beyond half its tolerance" at screen kx(0), screen ky(1) left font F10 noenhanced \
	point pt 7 ps 0.7 * pz lc rgb "#555555" offset 1.5, 0
set label 14 "regressed" at screen kx(1), screen ky(1) left font F10 noenhanced \
	point pt 6 ps 1.8 * pz lw 2.5 lc rgb "#D00000" offset 1.5, 0
set label 15 "improved" at screen kx(2), screen ky(1) left font F10 noenhanced \
	point pt 6 ps 1.8 * pz lw 2.5 lc rgb "#2E8B57" offset 1.5, 0

plot in using (is("worst") && column("row") > 1 ? xlo : NaN):(column("row") - 0.5):(xhi - xlo):(0) \
	with vectors nohead lc rgb "#d8d8d8" lw 1 notitle, \
     for [i=1:ncolours] in using (mine(i) && is("worst") ? column("spread_lo") : NaN):(column("row")):(column("spread_hi") - column("spread_lo")):(0) \
	with vectors nohead lw 1.5 lc rgb colour(i) notitle, \
     for [i=1:ncolours] in using (mine(i) && !is("named") ? column("dev") : NaN):(column("row")) \
	with points pt 7 ps 0.3 * pz lc rgb colour(i) notitle, \
     for [i=1:ncolours] in using (mine(i) && is("worst") ? column("dev") : NaN):(column("row")):(column("lo")):(column("hi")) \
	with xerrorbars pt 7 ps 1.3 * pz lw 1 lc rgb colour(i) notitle, \
     for [i=1:ncolours] in using (mine(i) && is("named") ? column("dev") : NaN):(column("row")):(column("lo")):(column("hi")) \
	with xerrorbars pt 7 ps 0.7 * pz lw 1 lc rgb colour(i) notitle, \
     in using (verdict("regressed", column("dev"))):(column("row")) \
	with points pt 6 ps 2.2 * pz lw 2.5 lc rgb "#D00000" notitle, \
     in using (verdict("improved", column("dev"))):(column("row")) \
	with points pt 6 ps 2.2 * pz lw 2.5 lc rgb "#2E8B57" notitle, \
     for [i=1:ncolours] in using (mine(i) && is("worst") ? 0 : NaN):(column("row")):(left(0)) axes x2y1 \
	with labels right offset -1, 0 font F10 tc rgb colour(i) noenhanced notitle, \
     in using (is("named") ? 0 : NaN):(column("row")):(left(0)) axes x2y1 \
	with labels right offset -1, 0 font F9 tc rgb "#333333" noenhanced notitle, \
     in using (drawn(1)):(column("row")):(strcol("note")) axes x2y1 \
	with labels left offset 1, 0 font F9 tc rgb "#222222" noenhanced notitle
