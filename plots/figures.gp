# figures.gp: "the report and here": the figures a case's report printed
# beside ours, on the report's own axis.
#
# Producer: memrepro report (runner/out/chfig.c), which writes the derived
# <case>.figures.tsv from expected/<case>.figures and the results:
#
#   gnuplot -c plots/figures.gp CASE.figures.tsv out.png|out.svg TITLE \
#           ROWS SIDES LEGEND NOTES PROGRAM
#
#   CASE.figures.tsv  columns row side cfg config at metric x y lo hi
#                     value unit n drawn tag note runtime ly: one line per
#                     point, side "report" (y: the figure in our unit,
#                     MiB or s, for a size or a time, lo = hi = y; value
#                     and unit as printed), "here" (the model: y the median of our
#                     matching config's ok runs, lo..hi the repeats' min
#                     and max, in MiB, s or a count; value the median in
#                     the metric's own unit, KiB or ms; n the repeats;
#                     drawn our config) or "program" (the report's own
#                     program, as "here", under runtime; "-" on the other
#                     sides); ly the y of its value label; cfg the
#                     report config's colour, config its pairs; at the
#                     checkpoint ("foo#2": its second occurrence) or the
#                     whole-run metric; x the point's position (the
#                     checkpoint's number under the figures file's "x"
#                     directive, else the category's index); tag the value
#                     label drawn above it ("-": none).  With "compare
#                     growth" y, lo and hi of a checkpoint row are already
#                     minus the config's first point.
#   TITLE   the chart's title (lines)
#   ROWS    one quoted word per row of panels, fields ending in "|":
#           LEFT|RIGHT|XTICS|XLABEL|RCFGS|HCFGS|NCAT|LINES|GROWTH|YL|YR|
#           and with a PROGRAM, P1CFGS|P2CFGS|YP|:
#           the y labels of the report's panel and ours; the x tics
#           ("auto": numeric, else a gnuplot tics list of the
#           categories, "rotate by 90 right" before it where they
#           would not fit side by side); the x label; the colours (report configs) with
#           points on each side ("" on our side: nothing measured, said in
#           the panel); the number of categories; 1 when a config's points
#           are joined by lines (checkpoints: one series), 0 (whole-run
#           figures); 1 when the row is growth (its y axis need not start
#           at 0; so are checkpoint series within a band a quarter of
#           their top wide); for each side "MIN:MAX" when its points are all one
#           value (a range around it), else "" (autoscaled); the
#           program's as RCFGS for its two runtimes, and its YL
#   SIDES   a quoted word per column: the headings of the report's and
#           ours; with a PROGRAM of the report's, the program's and the
#           model's; each line ending in "|"
#   LEGEND  one quoted word per report config, colour i for config i
#   NOTES   lines said under the chart (how the report's labels map, what
#           is not measured here, which of our configs is drawn)
#   PROGRAM "" (no program panel) or two quoted words: the runtimes of
#           the program's series drawn filled and hollow ("-": none)
#
# Layout: 1200 px wide; the title, a legend of the report's configs (as
# many a line as the longest fits), the columns' headings, 250 px per
# row of panels, and the notes, so the height grows with the rows, the
# configs and the notes (at least 400 px).  Two columns, the report's
# and ours (the model); with a PROGRAM three, the program's between
# them.  Report points are open marks on dashed lines, ours filled marks
# on solid lines with the repeats' range as error bars; the program's
# the same, filled on the first runtime, hollow marks on dashed lines on
# the second, each config's two side by side; whole-run figures are
# marks only.  In a category
# row the configs sit side by side within their category, each value
# written above its mark (ours: above its bar), turned upright so that
# neighbours never overlap; on a numeric x axis only each config's last
# point is labelled, to its right.  Totals start at 0; growth rows and a
# side whose points are all one value get their own range.
#
# Which of our configs stands for a report config (runner/out/chfig.c):
# the one with all its pairs and otherwise the case's defaults (the
# fewest pairs, ok runs first); the others are named in the notes.  Ours
# are drawn at every category of a row the report config has figures in.

set datafile separator tab
set datafile columnheaders
set encoding utf8

in = ARG1
out = ARG2
title = ARG3
rows = ARG4
sides = ARG5
legend = ARG6
notes = ARG7
program = ARG8

fld(s, i) = i <= 1 ? s[1:strstrt(s, "|") - 1] : fld(s[strstrt(s, "|") + 1:], i - 1)
# Lines in a string.
nlines(s) = strlen(s) == 0 ? 0 : 1 + (strstrt(s, "\n") ? nlines(s[strstrt(s, "\n") + 1:]) : 0)

# The program's runtimes drawn (np: 0, 1, 2) and the panels.
np = strlen(program) == 0 ? 0 : (word(program, 1) ne "-") + (word(program, 2) ne "-")
npanel = strlen(program) == 0 ? 2 : 3
# A heading's lines ("a|b|": "a\nb") and their number.
joinl(s) = strstrt(s, "|") == 0 ? s : (strstrt(s, "|") == strlen(s) ? s[1:strlen(s) - 1] \
	: s[1:strstrt(s, "|") - 1]."\n".joinl(s[strstrt(s, "|") + 1:]))
nbars(s) = strstrt(s, "|") == 0 ? 0 : 1 + nbars(s[strstrt(s, "|") + 1:])

nr = words(rows)
nc = words(legend)
ntitle = nlines(title)
nnotes = nlines(notes)
# Legend: as many entries a line as the longest fits (1 to 4).
maxlab = 1
do for [c=1:nc] { maxlab = strlen(word(legend, c)) > maxlab ? strlen(word(legend, c)) : maxlab }
legcols = int(1150 / (maxlab * 7.2 + 40))
legcols = legcols < 1 ? 1 : (legcols > 4 ? 4 : legcols)
nleg = int((nc + legcols - 1) / legcols)

title_px = 18 + 17 * ntitle
hl = 2
do for [i=1:npanel] { hl = nbars(word(sides, i)) > hl ? nbars(word(sides, i)) : hl }
head_px = 6 + 17 * hl
leg_px = 20 * nleg + 10
row_px = 250
notes_px = nnotes > 0 ? 16 * nnotes + 20 : 10
H = title_px + leg_px + head_px + nr * row_px + notes_px
H = H < 400 ? 400 : H

# The SVG's text at the PNG's size (pngcairo draws a point at 96 dpi,
# 4/3 px; the svg terminal writes points as px): gnuplot lays both out
# alike, and the label check of the SVG holds for the PNG.
if (out[strlen(out)-3:] eq ".svg") {
	set terminal svg size 1200,H dynamic font "sans,11" fontscale 4.0 / 3 background "white"
} else {
	set terminal pngcairo size 1200,H font "sans,11" background "white"
}
set output out
set key noenhanced
set title noenhanced
set xtics noenhanced
set ytics noenhanced

# Same colours as series.gp, config for config (here: report config i).
array C[12] = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", \
	       "#56B4E9", "#000000", "#8C564B", "#7F7F7F", "#BCBD22", \
	       "#17BECF", "#9467BD"]
colour(i) = C[(i - 1) % 12 + 1]

# Screen y of a pixel distance from the top.
sy(px) = 1.0 - px / (H * 1.0)

sel(r, s, c) = column("row") == r && strcol("side") eq s && column("cfg") == c
# The program's points of config c on runtime s (1: filled, 2: hollow).
selp(r, c, s) = column("row") == r && strcol("side") eq "program" && column("cfg") == c && \
	strcol("runtime") eq word(program, s)
# Configs side by side within a category (not on a numeric axis).
# (at most 0.14 apart; of three panels, narrower, 0.3: chfig.c's
# FIG_DX_MAX3, which its value labels are chosen for)
dxmax = npanel == 3 ? 0.3 : 0.14
dx = nc > 1 ? (0.6 / nc < dxmax ? 0.6 / nc : dxmax) : 0
xoff(c, numx) = numx ? 0 : (c - (nc + 1) / 2.0) * dx
# The x of a point of config c in the row r and side sname being drawn
# (NaN: not this series); pt the same for points with a value label.
px(c) = sel(r, sname, c) ? column("x") + xoff(c, numx) : NaN
pt(c) = sel(r, sname, c) && strcol("tag") ne "-" ? column("x") + xoff(c, numx) : NaN
# y, lo and hi too must be NaN off the series: autoscaling counts them.
py(c) = sel(r, sname, c) ? column("y") : NaN
plo(c) = sel(r, sname, c) ? column("lo") : NaN
phi(c) = sel(r, sname, c) ? column("hi") : NaN
# The same of the program's, its configs' two series side by side.
nslot = nc * (np > 0 ? np : 1)
dxp = nslot > 1 ? (0.6 / nslot < dxmax ? 0.6 / nslot : dxmax) : 0
slot(c, s) = (c - 1) * np + (np == 2 ? s - 1 : 0)
xoffp(c, s, numx) = numx ? 0 : (slot(c, s) - (nslot - 1) / 2.0) * dxp
pxp(c, s) = selp(r, c, s) ? column("x") + xoffp(c, s, numx) : NaN
ptp(c, s) = selp(r, c, s) && strcol("tag") ne "-" ? column("x") + xoffp(c, s, numx) : NaN
pyp(c, s) = selp(r, c, s) ? column("y") : NaN
plop(c, s) = selp(r, c, s) ? column("lo") : NaN
phip(c, s) = selp(r, c, s) ? column("hi") : NaN
plyp(c, s) = selp(r, c, s) ? column("ly") : NaN

set multiplot
# Title, column headings, legend and notes as screen labels.
# A panel's left and right edges (panel 1 the report's; of three, 2 the
# program's).
pleft(i) = npanel == 2 ? (i == 1 ? 0.11 : 0.6) : 0.085 + (i - 1) * 0.33
pright(i) = npanel == 2 ? (i == 1 ? 0.47 : 0.96) : pleft(i) + 0.225
set label 1 title at screen 0.5, sy(14) center front font ",13" noenhanced
if (npanel == 2) {
	set label 2 joinl(word(sides, 1)) at screen 0.29, sy(title_px + leg_px + 12) center front font ",11" noenhanced
	set label 3 joinl(word(sides, 2)) at screen 0.78, sy(title_px + leg_px + 12) center front font ",11" noenhanced
} else {
	set label 2 joinl(word(sides, 1)) at screen (pleft(1) + pright(1)) / 2, sy(title_px + leg_px + 12) center front font ",11" noenhanced
	set label 6 joinl(word(sides, 2)) at screen (pleft(2) + pright(2)) / 2, sy(title_px + leg_px + 12) center front font ",11" noenhanced
	set label 3 joinl(word(sides, 3)) at screen (pleft(3) + pright(3)) / 2, sy(title_px + leg_px + 12) center front font ",11" noenhanced
}
if (nnotes > 0) {
	set label 4 notes at screen 0.02, sy(title_px + leg_px + head_px + nr * row_px + 14) left front font ",10" noenhanced
}

# The legend: a row of marks and labels under the title.
do for [c=1:nc] {
	lx = 0.03 + ((c - 1) % legcols) * (0.96 / legcols)
	ly = sy(title_px + 12 + 20 * int((c - 1) / legcols))
	set object 100 + c circle at screen lx, ly size screen 0.004 fc rgb colour(c) fs solid 1.0 noborder front
	set label 100 + c word(legend, c) at screen lx + 0.01, ly left front font ",10" noenhanced
}

do for [r=1:nr] {
	spec = word(rows, r)
	numx = fld(spec, 3) eq "auto"
	top = title_px + leg_px + head_px + (r - 1) * row_px
	do for [panel=1:npanel] {
		# side 1: the report's, 2: ours (the model), 3: the program's
		side = panel == 1 ? 1 : (npanel == 3 && panel == 2 ? 3 : 2)
		sname = side == 1 ? "report" : "here"
		joined = int(fld(spec, 8))
		cf1 = side == 3 ? fld(spec, 12) : ""
		cf2 = side == 3 ? fld(spec, 13) : ""
		cfgs = side == 3 ? cf1.cf2 : fld(spec, 4 + side)
		set tmargin at screen sy(top + 8)
		# upright category names (a list that begins "rotate") need
		# the room of the longest under the axis
		set bmargin at screen sy(top + row_px - (strstrt(fld(spec, 3), "rotate") == 1 ? 100 : 46))
		set lmargin at screen pleft(panel)
		set rmargin at screen pright(panel)
		set ylabel fld(spec, side == 1 ? 1 : 2) noenhanced
		set xlabel fld(spec, 4) noenhanced offset 0, 0.4
		if (numx) {
			set xtics autofreq nomirror
			set autoscale xfix
			set offsets graph 0.03, graph 0.14, graph 0.12, graph 0.04
		} else {
			eval "set xtics nomirror ".fld(spec, 3)
			set xrange [0.5:int(fld(spec, 7)) + 0.5]
			# room above for the rotated value labels
			set offsets 0, 0, graph 0.45, graph 0.04
		}
		set ytics nomirror
		set format y "%.10g"
		set border 3
		set grid ytics lc rgb "#e8e8e8"
		unset key
		unset object 1
		set yzeroaxis lt 1 lc rgb "#bbbbbb"
		if (strlen(cfgs) == 0) {
			set yrange [0:1]
			unset ytics
			set object 1 rect from graph 0, graph 0 to graph 1, graph 1 fc rgb "#f6f6f6" fs solid 1.0 noborder behind
			set label 5 (npanel == 3 ? "not measured here\n(see the notes below)" : "not measured here (see the notes below)") at graph 0.5, graph 0.5 center front noenhanced
			plot NaN notitle
			unset label 5
			set ytics
			set autoscale y
		} else {
			yfix = side == 3 ? fld(spec, 14) : fld(spec, 9 + side)
			if (strlen(yfix) > 0) {
				eval "set yrange [".yfix."]"
			} else {
				if (int(fld(spec, 9))) {
					set autoscale y
				} else {
					set yrange [0:*]
				}
			}
			lrot = numx ? 0 : 90
			# a value above its point (ours: above its bar), or right of
			# the last point on a numeric axis
			lox = numx ? 1 : 0.45
			loy = numx ? 0 : 0.5
			if (side == 1 && joined) {
				# joined in x order (the figures file may list a
				# config's checkpoints in any order)
				plot for [c in cfgs] in using (px(int(c))):(py(int(c))) smooth unique \
					with linespoints dt 2 lw 1.5 pt 6 ps 1.3 lc rgb colour(int(c)) notitle, \
				     for [c in cfgs] in using (pt(int(c))):(phi(int(c))):(strcol("tag")) \
					with labels rotate by lrot left offset lox, loy font ",8" tc rgb colour(int(c)) notitle
			}
			if (side == 1 && !joined) {
				plot for [c in cfgs] in using (px(int(c))):(py(int(c))) \
					with points lw 1.5 pt 6 ps 1.3 lc rgb colour(int(c)) notitle, \
				     for [c in cfgs] in using (pt(int(c))):(phi(int(c))):(strcol("tag")) \
					with labels rotate by lrot left offset lox, loy font ",8" tc rgb colour(int(c)) notitle
			}
			if (side == 2 && joined) {
				plot for [c in cfgs] in using (px(int(c))):(py(int(c))):(plo(int(c))):(phi(int(c))) \
					with yerrorlines lw 1.5 pt 7 ps 1.1 lc rgb colour(int(c)) notitle, \
				     for [c in cfgs] in using (pt(int(c))):(phi(int(c))):(strcol("tag")) \
					with labels rotate by lrot left offset lox, loy font ",8" tc rgb colour(int(c)) notitle
			}
			if (side == 2 && !joined) {
				plot for [c in cfgs] in using (px(int(c))):(py(int(c))):(plo(int(c))):(phi(int(c))) \
					with yerrorbars lw 1.5 pt 7 ps 1.1 lc rgb colour(int(c)) notitle, \
				     for [c in cfgs] in using (pt(int(c))):(phi(int(c))):(strcol("tag")) \
					with labels rotate by lrot left offset lox, loy font ",8" tc rgb colour(int(c)) notitle
			}
			if (side == 3) {
				# filled on the first runtime, hollow and dashed on the
				# second; a list of configs may be empty
				w1 = joined ? "yerrorlines lw 1.5" : "yerrorbars lw 1.5"
				w2 = joined ? "yerrorlines dt 2 lw 1.5" : "yerrorbars lw 1.5"
				pl = ""
				do for [s=1:2] {
					cs = s == 1 ? "cf1" : "cf2"
					if (strlen(value(cs)) > 0) {
						pl = pl.sprintf("for [c in %s] in using (pxp(int(c),%d)):(pyp(int(c),%d)):(plop(int(c),%d)):(phip(int(c),%d)) with %s pt %d ps 1.1 lc rgb colour(int(c)) notitle, ", \
							cs, s, s, s, s, s == 1 ? w1 : w2, s == 1 ? 7 : 6)
					}
				}
				do for [s=1:2] {
					cs = s == 1 ? "cf1" : "cf2"
					if (strlen(value(cs)) > 0) {
						pl = pl.sprintf("for [c in %s] in using (ptp(int(c),%d)):(plyp(int(c),%d)):(strcol(\"tag\")) with labels rotate by lrot left offset lox, loy font \",8\" tc rgb colour(int(c)) notitle, ", \
							cs, s, s)
					}
				}
				eval "plot ".pl[1:strlen(pl) - 2]
			}
		}
		# the title, legend and notes are drawn once
		unset label 1
		unset label 2
		unset label 3
		unset label 4
		unset label 6
		do for [c=1:nc] {
			unset object 100 + c
			unset label 100 + c
		}
	}
}
unset multiplot
