# series.gp: the memory over time of one case, as small multiples.
#
# Producer: memrepro report (runner/out/chseries.c), which writes the derived
# <case>.series.tsv from the results' series.tsv and checkpoints.tsv and
# decides the layout: a panel per value of the case's panel axis, the other
# axes as colours (docs/formats.md, "Plots").
#
#   gnuplot -c plots/series.gp CASE.series.tsv out.png|out.svg TITLE PANELS \
#           COLOURS MARKS LABELS FLAGS NOTE
#
#   CASE.series.tsv  columns panel colour drawn mark x y_mib lazyfree_mib
#           tree_mib tree_pss_mib config repeat: per run a block of its
#           samples (mark 0; none on a checkpoint axis), then a block of
#           its checkpoints (mark: the marker's number); drawn 1 for the
#           run drawn thick; "-": not measured
#   TITLE    the chart's title, lines separated by newlines
#   PANELS   the panels' titles, "|"-separated: panel i of the TSV is the
#            i-th
#   COLOURS  the legend's names of the colours, "|"-separated (colour i of
#            the TSV), the same in every panel
#   MARKS    the legend's names of the checkpoint markers ("|"-separated,
#            mark j of the TSV); "": none in the legend
#   LABELS   "XLABEL|YLABEL"
#   FLAGS    "NPANEL NCOLOUR NMARK XMAX YMAX XMODE LAZY TREE NREP NCOLS
#            SHAREX": counts
#            of panels, colours and marker shapes; the axes' largest x and
#            y (all panels share them); XMODE 1: x is the report's axis
#            (checkpoints joined by lines), 0: time (samples as lines,
#            checkpoints as markers); LAZY 1: shade LazyFree under RSS;
#            TREE 1: dashed, the memory cgroup (2: the RSS summed over
#            the process tree), circles the tree's PSS; NREP: most
#            repeats of a config; NCOLS: columns of panels (a row per
#            value of the first panel axis), 0: by the number of panels;
#            SHAREX 1: every panel's x axis is 0..XMAX (their runs are
#            compared), 0: each panel's own time axis
#   NOTE     lines said under the panels, "|"-separated; with NPANEL 0,
#            why there is no data
#
# Size: 1200 px wide; the height grows with the rows of panels (460 px
# for one row, 330 each for two, 270 each for more) and of the legend.
# The legend stands above the panels, never over the data.

set datafile separator tab
set datafile columnheaders
set datafile missing "-"
set encoding utf8

in = ARG1
out = ARG2
title = ARG3
panels = ARG4
colours = ARG5
marks = ARG6
labels = ARG7
flags = ARG8
note = ARG9

npanel = int(word(flags, 1))
ncolour = int(word(flags, 2))
nmark = int(word(flags, 3))
xmax = word(flags, 4) + 0.0
ymax = word(flags, 5) + 0.0
xmode = int(word(flags, 6))
lazy = int(word(flags, 7))
tree = int(word(flags, 8))
nrep = int(word(flags, 9))
ncols = int(word(flags, 10))
sharex = int(word(flags, 11))

# Split s on sep into the array A of n fields.
nfields(s, sep) = strlen(s) == 0 ? 0 : 1 + sum [i=1:strlen(s)] (s[i:i] eq sep ? 1 : 0)
array TL[nfields(title, "\n") + 1]
ntl = 0
rest = title
while (strlen(rest) > 0) {
	h = strstrt(rest, "\n")
	ntl = ntl + 1
	TL[ntl] = h ? rest[1:h - 1] : rest
	rest = h ? rest[h + 1:] : ""
}
nnote = nfields(note, "|")
array NL[nnote + 1]
rest = note
do for [i=1:nnote] {
	h = strstrt(rest, "|")
	NL[i] = h ? rest[1:h - 1] : rest
	rest = h ? rest[h + 1:] : ""
}
h = strstrt(labels, "|")
xlabel = labels[1:h - 1]
ylabel = labels[h + 1:]

# A qualitative palette (Okabe-Ito, then more): past twelve colours they
# repeat with a dashed line.  The other repeats: the same, half transparent.
array C[12] = [0x0072B2, 0xD55E00, 0x009E73, 0xCC79A7, 0xE69F00, \
	       0x56B4E9, 0x000000, 0x8C564B, 0x7F7F7F, 0xBCBD22, \
	       0x17BECF, 0x9467BD]
array P[6] = [7, 9, 5, 13, 11, 3]
rgb(c) = C[(int(c) - 1) % 12 + 1]
thin(c) = rgb(c) + 0x99000000
dsh(c) = (int(c) - 1) / 12 + 1
hex(v) = sprintf("#%06X", v)
ndash = ncolour > 0 ? (ncolour - 1) / 12 + 1 : 1

W = 1200.0
# Panel grid: NCOLS columns (a row per value of the first panel axis),
# else by the number of panels; rows as needed.
if (ncols < 1) {
	ncols = npanel <= 3 ? npanel : (npanel == 4 ? 2 : (npanel <= 9 ? 3 : 4))
}
ncols = ncols < 1 ? 1 : ncols
nrows = npanel < 1 ? 1 : (npanel + ncols - 1) / ncols
ph = nrows == 1 ? 460.0 : (nrows == 2 ? 330.0 : 270.0)

# The legend: the colours, then what the line styles and markers mean.
nmk = nfields(marks, "|")
nemax = ncolour + nmk + 5
array LT[nemax]
array LK[nemax]
array LV[nemax]
ne = 0
rest = colours
do for [c=1:ncolour] {
	h = strstrt(rest, "|")
	ne = ne + 1
	LT[ne] = h ? rest[1:h - 1] : rest
	rest = h ? rest[h + 1:] : ""
	LK[ne] = 1
	LV[ne] = c
}
if (ncolour == 1 && strlen(LT[1]) == 0) {
	LT[1] = ylabel[1:strstrt(ylabel, " (") - 1]
}
if (nrep > 1) {
	ne = ne + 1
	LT[ne] = "other repeats"
	LK[ne] = 2
	LV[ne] = 0
}
rest = marks
do for [j=1:nmk] {
	h = strstrt(rest, "|")
	ne = ne + 1
	LT[ne] = h ? rest[1:h - 1] : rest
	rest = h ? rest[h + 1:] : ""
	LK[ne] = 3
	LV[ne] = j
}
if (lazy) {
	ne = ne + 1
	LT[ne] = "LazyFree, part of RSS (at checkpoints)"
	LK[ne] = 4
	LV[ne] = 0
}
if (tree) {
	ne = ne + 1
	LT[ne] = tree == 1 ? "memory cgroup: the case and its children" : "RSS summed over the process tree"
	LK[ne] = 5
	LV[ne] = 0
	ne = ne + 1
	LT[ne] = "PSS of the tree (at checkpoints)"
	LK[ne] = 6
	LV[ne] = 0
}
# 7.6 px a character of the legend's font is an upper bound for sans 10
# (digits and lower case).  The colours fill the first rows, the styles
# start a row of their own.
maxlab = 4
do for [e=1:ne] { maxlab = strlen(LT[e]) > maxlab ? strlen(LT[e]) : maxlab }
colw = maxlab * 7.6 + 52
lcols = int((W - 60) / colw)
lcols = lcols < 1 ? 1 : (lcols > ne ? ne : lcols)
array LS[nemax]
slot = 0
do for [e=1:ne] {
	if (e > 1 && LK[e] != 1 && LK[e - 1] == 1 && slot % lcols != 0) {
		slot = slot + lcols - slot % lcols
	}
	LS[e] = slot
	slot = slot + 1
}
lrows = npanel > 0 ? (slot + lcols - 1) / lcols : 0

# Vertical layout, in pixels from the top.
ytitle = 10.0
ylegend = ytitle + ntl * 19 + 8
ypanels = ylegend + lrows * 19 + (lrows > 0 ? 12 : 0)
ybottom = ypanels + nrows * ph
H = int(ybottom + 30 + nnote * 16 + 10)
H = npanel < 1 ? 500 : H
xs(px) = px / W
ys(px) = 1.0 - px / H

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
unset key

do for [i=1:ntl] {
	set label 10 + i TL[i] at screen 0.5, screen ys(ytitle + i * 19 - 5) center font ",13" noenhanced
}

if (npanel < 1) {
	unset border
	unset tics
	set xrange [0:1]
	set yrange [0:1]
	set label 1 "no data: ".note at 0.5, 0.5 center font ",14" noenhanced
	plot NaN notitle
	exit
}

# The legend, drawn with the first panel: a sample and a name per entry.
do for [e=1:ne] {
	lx = 30 + (LS[e] % lcols) * colw
	ly = ylegend + (LS[e] / lcols) * 19 + 9
	if (LK[e] == 1) {
		set arrow 100 + e from screen xs(lx), screen ys(ly) to screen xs(lx + 28), screen ys(ly) \
			nohead lw 2.5 lc rgb hex(rgb(LV[e])) dt dsh(LV[e])
	}
	if (LK[e] == 2) {
		set arrow 100 + e from screen xs(lx), screen ys(ly) to screen xs(lx + 28), screen ys(ly) \
			nohead lw 1 lc rgb "#99444444"
	}
	if (LK[e] == 3) {
		set label 300 + e "" at screen xs(lx + 14), screen ys(ly) point pt P[(LV[e] - 1) % 6 + 1] ps 1 lc rgb "#444444"
	}
	if (LK[e] == 4) {
		set object 100 + e rect from screen xs(lx + 9), screen ys(ly + 7) to screen xs(lx + 19), screen ys(ly - 7) \
			fc rgb "#444444" fs transparent solid 0.3 noborder
	}
	if (LK[e] == 5) {
		set arrow 100 + e from screen xs(lx), screen ys(ly) to screen xs(lx + 28), screen ys(ly) \
			nohead lw 1.5 dt 2 lc rgb "#444444"
	}
	if (LK[e] == 6) {
		set label 300 + e "" at screen xs(lx + 14), screen ys(ly) point pt 6 ps 1 lc rgb "#444444"
	}
	set label 500 + e LT[e] at screen xs(lx + 34), screen ys(ly) left font ",10" noenhanced
}
# The axes' names once, for all panels; the notes under them.
set label 2 ylabel at screen xs(14), screen ys(ypanels + nrows * ph / 2) center rotate by 90 noenhanced
set label 3 xlabel at screen 0.5, screen ys(ybottom + 16) center noenhanced
do for [i=1:nnote] {
	set label 30 + i NL[i] at screen xs(30), screen ys(ybottom + 30 + i * 16 - 4) left font ",10" noenhanced
}

array PT[npanel]
rest = panels
do for [i=1:npanel] {
	h = strstrt(rest, "|")
	PT[i] = h ? rest[1:h - 1] : rest
	rest = h ? rest[h + 1:] : ""
}

set grid lc rgb "#dddddd"
set border 3
set tics nomirror
set xtics font ",10"
set ytics font ",10"
# x: the report's axis is the same in every panel, and time too unless
# the runs of one panel take many times longer than another's (SHAREX 0)
set xrange [0:(xmax > 0 ? xmax * 1.04 : 1)]
set yrange [0:(ymax > 0 ? ymax * 1.06 : 1)]
bw = (xmax > 0 ? xmax : 1) * 0.006
cw = (W - 34 - 10) / ncols
# A panel title wider than its panel (7.4 px a character of sans 11)
# breaks at its last ", " that fits: two lines then, for every panel.
fit = int((cw - 60) / 7.4)
ptwo = 0
do for [i=1:npanel] {
	if (strlen(PT[i]) > fit) {
		cut = 0
		do for [j=1:fit] { cut = PT[i][j:j + 1] eq ", " ? j : cut }
		if (cut > 0) {
			PT[i] = PT[i][1:cut] . "\n" . PT[i][cut + 2:]
			ptwo = 1
		}
	}
}

# The x of this panel's rows of a kind: drawn (d) or not, samples (m 0) or
# checkpoints, colours of dash k; the other rows are put left of the axis
# (out of range: not drawn, and a block is one run, all in or all out).
sel(p, d, m) = column("panel") == p && column("drawn") == d && (m ? column("mark") > 0 : column("mark") == 0)
X(p, d, m, k) = sel(p, d, m) && dsh(column("colour")) == k ? column("x") : -1
Xa(p, d, m) = sel(p, d, m) ? column("x") : -1

# What each panel has, in one pass over the data: per panel the rows with
# a value of each element of the plot (N, E slots a panel: thin lines by
# dash, thick lines by dash, the tree's line, LazyFree, the tree's PSS,
# each marker) and its largest x (PX).  A panel's plot names only the
# elements it has rows of: gnuplot warns of an element without points.
M = xmode ? 1 : 0
E = 2 * ndash + 3 + nmark
array N[npanel * E]
array PX[npanel]
do for [i=1:npanel * E] { N[i] = 0 }
do for [i=1:npanel] { PX[i] = 0 }
ok(v) = v == v
add(i, c) = (c ? N[i] = N[i] + 1 : 0)
tally(b, d, mk, k, y) = ( \
	add(b + (d != 0 ? ndash : 0) + k, ok(y) && (M ? mk > 0 : mk == 0)), \
	add(b + 2 * ndash + 1, d != 0 && ok(column("tree_mib")) && (M ? mk > 0 : mk == 0)), \
	add(b + 2 * ndash + 2, d != 0 && mk > 0 && ok(y) && ok(column("lazyfree_mib"))), \
	add(b + 2 * ndash + 3, d != 0 && mk > 0 && ok(column("tree_pss_mib"))), \
	(d != 0 && mk > 0 && mk <= nmark && ok(y) ? add(b + 2 * ndash + 3 + int(mk), 1) : 0))
seen(p, x) = (PX[p] = x > PX[p] ? x : PX[p], \
	tally((p - 1) * E, column("drawn"), column("mark"), dsh(column("colour")), column("y_mib")), 0)
stats in using (seen(int(column("panel")), column("x"))) nooutput

# The plot command of panel p: its elements with rows.
also(s, e) = strlen(s) > 0 ? s.", ".e : e
plotof(p) = (b = (p - 1) * E, s = "", \
	sum [k=1:ndash] (N[b + k] > 0 ? (s = also(s, sprintf('in using (X(p, 0, M, %d)):(column("y_mib")):(thin(column("colour"))) with lines lw 1 dt %d lc rgb variable notitle', k, k)), 0) : 0), \
	sum [k=1:ndash] (N[b + ndash + k] > 0 ? (s = also(s, sprintf('in using (X(p, 1, M, %d)):(column("y_mib")):(rgb(column("colour"))) with %s lw 2 dt %d lc rgb variable notitle', k, xmode ? "linespoints pt 7 ps 0.6" : "lines", k)), 0) : 0), \
	(tree && N[b + 2 * ndash + 1] > 0 ? s = also(s, 'in using (Xa(p, 1, M)):(column("tree_mib")):(rgb(column("colour"))) with lines lw 1.5 dt 2 lc rgb variable notitle') : 0), \
	(lazy && N[b + 2 * ndash + 2] > 0 ? s = also(s, 'in using (Xa(p, 1, 1)):(column("y_mib")):(Xa(p, 1, 1) - bw):(Xa(p, 1, 1) + bw):(column("y_mib") - column("lazyfree_mib")):(column("y_mib")):(rgb(column("colour"))) with boxxyerror fs transparent solid 0.3 noborder lc rgb variable notitle') : 0), \
	sum [j=1:(xmode ? 0 : nmark)] (N[b + 2 * ndash + 3 + j] > 0 ? (s = also(s, sprintf('in using (sel(p, 1, 1) && column("mark") == %d ? column("x") : -1):(column("y_mib")):(rgb(column("colour"))) with points pt %d ps 0.9 lc rgb variable notitle', j, P[(j - 1) % 6 + 1])), 0) : 0), \
	(tree && N[b + 2 * ndash + 3] > 0 ? s = also(s, 'in using (Xa(p, 1, 1)):(column("tree_pss_mib")):(rgb(column("colour"))) with points pt 6 ps 1 lc rgb variable notitle') : 0), \
	strlen(s) > 0 ? "plot ".s : "plot NaN notitle")

# Time tics at a round step, as many as the panel's width holds (a label
# of "0.0015" takes ~40 px at 10 pt; 55 px a tic leaves room between).
nice(x) = (ne = 10 ** floor(log10(x)), nf = x / ne, (nf <= 1 ? 1 : nf <= 2 ? 2 : nf <= 5 ? 5 : 10) * ne)
maxtics = int((cw - 72) / 55)
maxtics = maxtics < 2 ? 2 : maxtics
if (!xmode && sharex) {
	pmax = xmax > 0 ? xmax : 1
	set xrange [0:pmax * 1.02]
	set xtics 0, nice(pmax * 1.02 / maxtics)
}

set multiplot
do for [p=1:npanel] {
	r = (p - 1) / ncols
	c = (p - 1) % ncols
	set lmargin at screen xs(34 + c * cw + 58)
	set rmargin at screen xs(34 + (c + 1) * cw - 14)
	set tmargin at screen ys(ypanels + r * ph + 30 + ptwo * 15)
	set bmargin at screen ys(ypanels + (r + 1) * ph - 26)
	set title PT[p] offset 0, -0.7 font ",11" noenhanced
	if (!xmode && !sharex) {
		pmax = PX[p] > 0 ? PX[p] : 1
		set xrange [0:pmax * 1.02]
		set xtics 0, nice(pmax * 1.02 / maxtics)
		bw = pmax * 0.006
	}
	eval plotof(p)
	if (p == 1) {
		unset label
		unset arrow
		unset object
	}
}
unset multiplot
