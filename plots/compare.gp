# compare.gp: how the medians of one case changed between two results,
# one line per config at its largest change.
#
# Producer: memrepro compare (runner/out/compare.c), which writes the derived
# compare.tsv from the two results directories:
#
#   gnuplot -c plots/compare.gp compare.tsv out.png|out.svg CASE TITLE NOTE \
#           "LINES LEFT RIGHT XMIN XMAX" FAILON FOOT
#
#   compare.tsv  one row per case, config and figure, columns by name:
#                case, what (metric@checkpoint), row (the chart line it is
#                drawn on, 1 = top), cfg (config number: its colour), x,
#                lo, hi (the new median and the new repeats' smallest and
#                largest value in percent of the old median, clipped to
#                +-100), olo, ohi (the old repeats' the same), verdict
#                (worse, better: beyond the noise; same), note (the label
#                right of a drawn row), kind (worst: its config's line, at
#                the config's largest change beyond the noise, else its
#                largest change; named: beyond the noise, a line of its
#                own under its config; more, -: a dot on its config's
#                line), spread_lo, spread_hi (on a worst row: the smallest
#                and largest x of the config's figures), short (the
#                config's short name)
#   CASE    the case whose rows are drawn;  TITLE  names it and both
#           directories;  NOTE  a line under it (counts), or why there
#           is no data (LINES 0)
#   LINES   chart lines (configs and named figures); LEFT, RIGHT the
#           widest label left and right of the plot, in points; XMIN
#           XMAX the percent axis
#   FAILON  the --fail-on threshold in percent, or "" for none
#   FOOT    under the plot: the figures beyond the noise the chart has no
#           line for ("+N more ... in compare.tsv"), or ""
#
# Size: 1200 px wide; the height grows with the lines, 22 px each on top
# of 230 px of title, axis and key (340 px at least): the producer caps the
# named lines (12, or as many as the configs) so that a case of 16 configs
# and 1,300 figures stays one screen.  A point right of 0 got worse
# (ringed red when beyond the noise), left of it better (ringed green).

set datafile separator tab
set datafile columnheaders
set encoding utf8

in = ARG1
out = ARG2
kase = ARG3
title = ARG4
note = ARG5
layout = ARG6
failon = ARG7
foot = ARG8

nl = int(word(layout, 1))
wl = real(word(layout, 2))
wr = real(word(layout, 3))
xlo = real(word(layout, 4))
xhi = real(word(layout, 5))

pitch = 22
top = 88
bottom = 142
H = top + bottom + pitch * (nl > 0 ? nl : 1)
H = H < 340 ? 340 : H
W = 1200

# The SVG's text at the PNG's size: pngcairo draws a point at 96 dpi
# (4/3 px), the svg terminal writes points as px.
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
set ytics noenhanced

if (nl == 0) {
	set title title font F14
	unset border
	unset tics
	unset key
	set xrange [0:1]
	set yrange [0:1]
	set label 1 "no data: ".note at 0.5, 0.5 center font F13 noenhanced
	plot NaN notitle
	exit
}

# Same colours as series.gp, config for config.
array C[12] = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", \
	       "#56B4E9", "#000000", "#8C564B", "#7F7F7F", "#BCBD22", \
	       "#17BECF", "#9467BD"]
colour(i) = C[(i - 1) % 12 + 1]
# The same, darkened where needed for text on white: at least 4.6:1
# (WCAG AA), the hue kept (the marks keep the bright ones).
array TC[12] = ["#0072B2", "#C05500", "#008561", "#A16084", "#9A6B00", \
		"#3A7A9E", "#000000", "#8C564B", "#757575", "#787916", \
		"#10818D", "#8D62B4"]
ink(i) = TC[(i - 1) % 12 + 1]
ncolours = 12
is(k) = strcol("case") eq kase && strcol("kind") eq k
drawn(v) = (is("worst") || is("named")) ? v : NaN
mine(i) = strcol("case") eq kase && (int(column("cfg")) - 1) % ncolours + 1 == i
verdict(w, v) = (strcol("verdict") eq w && (is("worst") || is("named"))) ? v : NaN

# Margins from the widest labels (LEFT, RIGHT: points, 4/3 px each in
# both terminals); the plot keeps 300 px at least.
lpx = 22 + wl * 4.0 / 3
rpx = 22 + wr * 4.0 / 3
if (W - lpx - rpx < 300) { rpx = W - lpx - 300 }
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
set format x "%+g %%"
# Tics at a round step, as many as the plot's width holds: a label of
# "+100 %" is ~60 px of the PNG's 10 pt, 90 px a tic leaves room.
nice(x) = (ne = 10 ** floor(log10(x)), nf = x / ne, (nf <= 1 ? 1 : nf <= 2 ? 2 : nf <= 5 ? 5 : 10) * ne)
ntic = int((W - lpx - rpx) / 90)
ntic = ntic < 2 ? 2 : ntic
set xtics nomirror out font F10 nice((xhi - xlo) / ntic)
set mxtics 2
set border 1
unset xlabel
set label 3 "new median vs old median, in % of the old (bars: the new repeats' range; grey: the old repeats')" \
	at screen (lpx + (W - rpx - lpx) / 2) / W, screen 90.0 / H center font F11 noenhanced
set arrow from 0, graph 0 to 0, graph 1 nohead lc rgb "#888888" dt 2 back
if (strlen(failon) > 0) {
	set arrow from failon + 0, graph 0 to failon + 0, graph 1 nohead lc rgb "#D00000" dt 3 lw 1.5 back
	set label 4 "--fail-on ".failon." %" at failon + 0, graph 1 offset 0, 0.7 center tc rgb "#D00000" font F9 noenhanced
}
if (strlen(foot) > 0) {
	set label 2 foot at screen 0.5, screen 14.0 / H center font F10 tc rgb "#444444" noenhanced
}
unset key
# The key: two rows of three under the axis label, drawn by hand.
kx(c) = (230.0 + 300 * c) / W
ky(r) = (64.0 - 22 * r) / H
set arrow 10 from screen kx(0) - 24.0 / W, screen ky(0) to screen kx(0) - 4.0 / W, screen ky(0) nohead lw 1.5 lc rgb "#555555"
set label 10 "a config's figures: range, one dot each" at screen kx(0), screen ky(0) left font F10 noenhanced
# a point's label: the point alone where a line's sample would start, the
# text where the others' text starts
set label 11 "its largest change (bars: repeats)" at screen kx(1), screen ky(0) left font F10 noenhanced
set label 21 "" at screen kx(1) - 13.0 / W, screen ky(0) point pt 7 ps 1.3 lc rgb "#555555"
set object 2 rect from screen kx(2) - 22.0 / W, screen ky(0) - 5.0 / H \
	to screen kx(2) - 4.0 / W, screen ky(0) + 5.0 / H fc rgb "#cfcfcf" fs solid 1.0 noborder
set label 12 "the old repeats' range" at screen kx(2), screen ky(0) left font F10 noenhanced
set label 13 "a figure beyond the noise, named" at screen kx(0), screen ky(1) left font F10 noenhanced
set label 23 "" at screen kx(0) - 13.0 / W, screen ky(1) point pt 7 ps 0.7 lc rgb "#555555"
set label 14 "worse beyond the noise" at screen kx(1), screen ky(1) left font F10 noenhanced
set label 24 "" at screen kx(1) - 13.0 / W, screen ky(1) point pt 6 ps 1.8 lw 2.5 lc rgb "#D00000"
set label 15 "better beyond the noise" at screen kx(2), screen ky(1) left font F10 noenhanced
set label 25 "" at screen kx(2) - 13.0 / W, screen ky(1) point pt 6 ps 1.8 lw 2.5 lc rgb "#2E8B57"

plot in using (is("worst") && column("row") > 1 ? xlo : NaN):(column("row") - 0.5):(xhi - xlo):(0) \
	with vectors nohead lc rgb "#e4e4e4" lw 1 notitle, \
     in using (drawn(column("x"))):(column("row")):(column("olo")):(column("ohi")):(column("row") - 0.22):(column("row") + 0.22) \
	with boxxyerror fs solid 1.0 noborder fc rgb "#cfcfcf" notitle, \
     for [i=1:ncolours] in using (mine(i) && is("worst") ? column("spread_lo") : NaN):(column("row")):(column("spread_hi") - column("spread_lo")):(0) \
	with vectors nohead lw 1.5 lc rgb colour(i) notitle, \
     for [i=1:ncolours] in using (mine(i) && !is("named") ? column("x") : NaN):(column("row")) \
	with points pt 7 ps 0.3 lc rgb colour(i) notitle, \
     for [i=1:ncolours] in using (mine(i) && is("worst") ? column("x") : NaN):(column("row")):(column("lo")):(column("hi")) \
	with xerrorbars pt 7 ps 1.3 lw 1 lc rgb colour(i) notitle, \
     for [i=1:ncolours] in using (mine(i) && is("named") ? column("x") : NaN):(column("row")):(column("lo")):(column("hi")) \
	with xerrorbars pt 7 ps 0.7 lw 1 lc rgb colour(i) notitle, \
     in using (verdict("worse", column("x"))):(column("row")) \
	with points pt 6 ps 2.2 lw 2.5 lc rgb "#D00000" notitle, \
     in using (verdict("better", column("x"))):(column("row")) \
	with points pt 6 ps 2.2 lw 2.5 lc rgb "#2E8B57" notitle, \
     for [i=1:ncolours] in using (mine(i) && is("worst") ? 0 : NaN):(column("row")):(strcol("short")) axes x2y1 \
	with labels right offset -1, 0 font F10 tc rgb ink(i) noenhanced notitle, \
     in using (is("named") ? 0 : NaN):(column("row")):(strcol("what")) axes x2y1 \
	with labels right offset -1, 0 font F9 tc rgb "#333333" noenhanced notitle, \
     in using (drawn(1)):(column("row")):(strcol("note")) axes x2y1 \
	with labels left offset 1, 0 font F9 tc rgb "#222222" noenhanced notitle
