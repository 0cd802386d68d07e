# allocators.gp: the allocator matrix of the corpus.
#
# Producer: memrepro report (runner/out/charts.c), which writes the derived
# allocators.tsv from the results:
#
#   gnuplot -c plots/allocators.gp allocators.tsv out.png|out.svg TITLE \
#           CASES ALLOCATORS NOTE
#
#   allocators.tsv  columns row col tone state label: one cell per case
#                   (row) and allocator (col), the tone of its key figure
#                   relative to glibc (log2 of the ratio clipped to
#                   [-8, 8], 1/256x to 256x, negated where higher is
#                   better: -8 better, 8 worse), its state (ref, ok,
#                   skipped, nodata, none) and its text (the ratio itself:
#                   a cell beyond 256x says its value, the colour is capped)
#   CASES       "case=figure" words, top row first (the figure: its key
#               figure, from expected/<case>.figures)
#   ALLOCATORS  the column names
#   NOTE        non-empty: no data, and why
#
# Blue: better than glibc (less memory, for a lower-is-better figure),
# red: worse; grey: the allocator did not run.  The colour follows log2 of
# the ratio, so 1.2x, 2x, 16x and 224x look different; the text on a cell
# is black or white, whichever contrasts more with the cell's colour
# (WCAG 2 relative luminance: at least 4.58:1, AA for any size).  150 px plus 75 a case
# up to 10 (300 px for one, 750 for eight), 60 a case beyond, so two-line
# row labels never touch and one case is not a wall of colour.

set datafile separator tab
set datafile columnheaders
set encoding utf8

in = ARG1
out = ARG2
title = ARG3
cases = ARG4
allocs = ARG5
note = ARG6

# Many allocators (versions side by side): wider, so a cell keeps room
# for its text, and the column names slanted.
na = words(allocs)
width = na > 7 ? 300 + na * 130 : 1200
nc = words(cases)
height = nc > 10 ? 150 + nc * 60 : (nc < 2 ? 300 : 150 + nc * 75)
# The SVG's text at the PNG's size (pngcairo draws a point at 96 dpi,
# 4/3 px; the svg terminal writes points as px): gnuplot lays both out
# alike, and the label check of the SVG holds for the PNG.
if (out[strlen(out)-3:] eq ".svg") {
	set terminal svg size width,height dynamic font "sans,11" fontscale 4.0 / 3 background "white"
} else {
	set terminal pngcairo size width,height font "sans,11" background "white"
}
set output out
set key noenhanced
set title noenhanced
set title title font ",14"

if (strlen(note) > 0) {
	unset border
	unset tics
	unset key
	set xrange [0:1]
	set yrange [0:1]
	set label 1 note at 0.5, 0.5 center font ",16" noenhanced
	plot NaN notitle
	exit
}

name(w) = w[1:strstrt(w, "=") - 1]
fig(w) = w[strstrt(w, "=") + 1:]
shown(s) = strcol("state") eq s
# the cells with a figure: glibc itself and the allocators that ran
known(x) = shown("ok") || shown("ref")
# The palette: log2 of the ratio at each stop and its colour (ColorBrewer
# RdBu), finer near 1x where most cells are.
array PT[11] = [-8, -5, -3, -1, -0.4, 0, 0.4, 1, 3, 5, 8]
array PC[11] = [0x053061, 0x2166AC, 0x4393C3, 0x92C5DE, 0xD1E5F0, 0xF7F7F7, \
		0xFDDBC7, 0xF4A582, 0xD6604D, 0xB2182B, 0x67001F]
pal = ""
do for [i=1:11] { pal = pal.sprintf("%s%g \"#%06X\"", i > 1 ? ", " : "", PT[i], PC[i]) }
eval "set palette defined (".pal.")"
# The cell's colour at tone t as the palette draws it (linear in RGB
# between the stops), its relative luminance, and the ink on it: white
# where the luminance is under 0.179 (where the two contrasts are equal).
seg(t, i) = i >= 10 || t <= PT[i + 1] ? i : seg(t, i + 1)
chn(c, sh) = ((c >> sh) & 255) / 255.0
mixc(t, i, sh) = chn(PC[i], sh) + (chn(PC[i + 1], sh) - chn(PC[i], sh)) * (t - PT[i]) / (PT[i + 1] - PT[i])
lin(v) = v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4
lumi(t, i) = 0.2126 * lin(mixc(t, i, 16)) + 0.7152 * lin(mixc(t, i, 8)) + 0.0722 * lin(mixc(t, i, 0))
clip(t) = t < -8 ? -8 : (t > 8 ? 8 : t)
ink(l) = l == l && lumi(clip(l), seg(clip(l), 1)) < 0.179 ? 0xFFFFFF : 0x000000

set xrange [0.5:na + 0.5]
set yrange [0.5:nc + 0.5]
set xtics () scale 0 nomirror font ",12" noenhanced
if (na > 7) { set xtics rotate by 30 right offset 1.5, 0 }
set ytics () scale 0 nomirror font ",11" noenhanced
unset x2tics
unset y2tics
do for [a=1:na] { set xtics add (word(allocs, a) a) }
do for [c=1:nc] { set ytics add (name(word(cases, c))."\n".fig(word(cases, c)) nc - c + 1) }
unset border
set lmargin at screen (na > 7 ? 240.0 / width : 0.20)
set rmargin at screen (na > 7 ? 1 - 190.0 / width : 0.84)
set cbrange [-8:8]
set cbtics ("≥256× better" -8, "16× better" -4, "= glibc" 0, "16× worse" 4, "≥256× worse" 8) font ",10"
# the colour bar's top label stays under the title's two lines (84 px)
cbh = 0.85 - 84.0 / height
cbh = cbh < 0.65 ? cbh : 0.65
set colorbox user origin screen (na > 7 ? 1 - 160.0 / width : 0.87), screen 0.15 \
	size screen (na > 7 ? 30.0 / width : 0.025), screen cbh
set xlabel "allocator (LD_PRELOAD)" noenhanced
if (na > 7) { set xlabel offset 0, -1.5 }
unset key

plot in using (shown("skipped") || shown("nodata") || shown("none") ? column("col") : NaN):(column("row")):(0.48):(0.48) \
	with boxxyerror fs solid 1.0 noborder fc rgb "#dddddd", \
     in using (known(0) ? column("col") : NaN):(column("row")):(0.48):(0.48):(known(0) ? column("tone") : 0) \
	with boxxyerror fs solid 1.0 noborder fc palette, \
     in using (column("col")):(column("row")):(strcol("label")):(known(0) ? ink(column("tone")) : 0x000000) \
	with labels font ",13" tc rgb variable
