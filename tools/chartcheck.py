#!/usr/bin/env python3
"""chartcheck: fail when a chart's text labels overlap or do not fit.

Usage: chartcheck.py [--scale S] [--verbose] FILE.svg...

Reads the SVG gnuplot's svg terminal writes (text elements inside groups
with translate/rotate transforms, the font size on the group or the
text) and estimates every label's box from its characters and font size:
widths from a table of DejaVu Sans advance widths by kind of character
(digits, capitals, narrow and wide letters, symbols), the height from the
ascent and descent.  Fails when

  - two labels' boxes overlap (by more than a pixel each way),
  - a label reaches outside the chart (by more than two pixels),
  - a column of labels (the same x and anchor: tick labels, a column of
    names) holds more labels than the chart's height can stack,
  - an axis label names a metric by its internal name and a unit beside
    it ("rss_kb (MiB)", "t_ms (s)"): a unit twice, often two units.

The check is of the SVG as a browser shows it.  The PNG of a chart is
drawn by the same script with pngcairo, whose text is 4/3 the size the
svg terminal writes (a point is 1/72 in at 96 dpi there, a pixel in the
SVG), and whose layout (margins, key) gnuplot computes from that size:
memrepro's scripts write the SVG's text at the PNG's size, so the check
of the SVG is of what the PNG shows.  --scale S multiplies every font
size (an SVG drawn otherwise); the default is 1.

Exit status: 0 every chart passed, 1 a chart failed (each problem on a
line, "FILE: ..."), 2 bad input or usage (naming the file, and line:col
for XML that does not parse).  python3's standard library only.
"""

import math
import re
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"

# Advance widths in em of DejaVu Sans (gnuplot's "sans" on Debian), by
# kind of character; other characters count as a lowercase letter.
NARROW = set("iljI.,:;'`|!")
SEMI = set("frt()[]{}-/\\ \"")
WIDE = set("mwMW%@")
SYMBOL = set("=+<>~±×÷#&")
EM_DIGIT = 0.636
EM_UPPER = 0.70
EM_LOWER = 0.60
EM_NARROW = 0.30
EM_SEMI = 0.39
EM_WIDE = 0.93
EM_SYMBOL = 0.84
EM_OTHER = 0.70
# Above and below the baseline, in em: the glyphs' ascent and descent.
ASCENT = 0.76
DESCENT = 0.22
# Overlaps smaller than this, in px, each way, are the estimate's noise.
SLACK = 1.0
OUTSIDE = 2.0
MAX_SHOWN = 20
# An internal metric name (its unit in its suffix) and then a unit in
# brackets ending the label.
UNIT_TWICE = re.compile(r"\b[a-z][a-z0-9_]*_(kb|ms)\b[^()]*\((B|KiB|MiB|GiB|kB|MB|GB|s|ms|min)\)\s*$")


class BadInput(Exception):
    pass


def em_width(s):
    w = 0.0
    for c in s:
        if c.isdigit():
            w += EM_DIGIT
        elif c in NARROW:
            w += EM_NARROW
        elif c in SEMI:
            w += EM_SEMI
        elif c in WIDE:
            w += EM_WIDE
        elif c in SYMBOL:
            w += EM_SYMBOL
        elif c.isascii() and c.isupper():
            w += EM_UPPER
        elif c.isascii():
            w += EM_LOWER
        else:
            w += EM_OTHER
    return w


def mul(a, b):
    """The affine matrix a*b; matrices as (a, b, c, d, e, f) like SVG's."""
    return (a[0] * b[0] + a[2] * b[1], a[1] * b[0] + a[3] * b[1],
            a[0] * b[2] + a[2] * b[3], a[1] * b[2] + a[3] * b[3],
            a[0] * b[4] + a[2] * b[5] + a[4], a[1] * b[4] + a[3] * b[5] + a[5])


IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
TRANSFORM = re.compile(r"\s*(translate|rotate|scale|matrix)\s*\(([^)]*)\)\s*,?")


def parse_transform(s, where):
    m = IDENTITY
    pos = 0
    s = s.strip()
    while pos < len(s):
        t = TRANSFORM.match(s, pos)
        if not t:
            raise BadInput("%s: transform \"%s\": cannot read it" % (where, s))
        try:
            args = [float(x) for x in re.split(r"[\s,]+", t.group(2).strip()) if x]
        except ValueError:
            raise BadInput("%s: transform \"%s\": not a number" % (where, s))
        kind = t.group(1)
        if kind == "translate" and len(args) in (1, 2):
            m = mul(m, (1, 0, 0, 1, args[0], args[1] if len(args) > 1 else 0))
        elif kind == "scale" and len(args) in (1, 2):
            m = mul(m, (args[0], 0, 0, args[-1], 0, 0))
        elif kind == "rotate" and len(args) in (1, 3):
            r = math.radians(args[0])
            rot = (math.cos(r), math.sin(r), -math.sin(r), math.cos(r), 0, 0)
            if len(args) == 3:
                m = mul(m, (1, 0, 0, 1, args[1], args[2]))
                m = mul(m, rot)
                m = mul(m, (1, 0, 0, 1, -args[1], -args[2]))
            else:
                m = mul(m, rot)
        elif kind == "matrix" and len(args) == 6:
            m = mul(m, tuple(args))
        else:
            raise BadInput("%s: transform \"%s\": wrong arguments" % (where, s))
        pos = t.end()
    return m


def number(s, where, what):
    t = re.match(r"\s*(-?[0-9.]+(?:e-?[0-9]+)?)\s*(px|pt)?\s*$", s or "")
    if not t:
        raise BadInput("%s: %s \"%s\" is not a number" % (where, what, s))
    v = float(t.group(1))
    return v * 4 / 3 if t.group(2) == "pt" else v


class Label:
    def __init__(self, text, box, size, anchor, x, upright):
        self.text = text
        self.box = box          # x0, y0, x1, y1 on the canvas
        self.size = size        # font size in px, scaled
        self.anchor = anchor
        self.x = x              # the anchor's x on the canvas
        self.upright = upright  # not rotated


def labels(path, scale):
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        line, col = e.position
        raise BadInput("%s:%d:%d: not XML: %s" % (path, line, col + 1, e.msg))
    except OSError as e:
        raise BadInput("%s: %s" % (path, e.strerror))
    if root.tag != SVG + "svg":
        raise BadInput("%s: not an SVG (root element %s)" % (path, root.tag))
    vb = root.get("viewBox")
    if vb:
        try:
            _, _, width, height = [float(x) for x in vb.replace(",", " ").split()]
        except ValueError:
            raise BadInput("%s: viewBox \"%s\" is not four numbers" % (path, vb))
    else:
        width = number(root.get("width"), path, "width")
        height = number(root.get("height"), path, "height")
    out = []

    def walk(el, m, size, anchor):
        where = "%s: <%s>" % (path, el.tag.replace(SVG, ""))
        if el.get("transform"):
            m = mul(m, parse_transform(el.get("transform"), where))
        if el.get("font-size"):
            size = number(el.get("font-size"), where, "font-size")
        style = el.get("style") or ""
        fs = re.search(r"font-size:\s*([^;]+)", style)
        if fs:
            size = number(fs.group(1), where, "font-size")
        anchor = el.get("text-anchor") or anchor
        if el.tag == SVG + "text":
            text = "".join(el.itertext()).strip()
            if text:
                x = number(el.get("x", "0"), where, "x")
                y = number(el.get("y", "0"), where, "y")
                s = size * scale
                w = em_width(text) * s
                x0 = x - {"middle": w / 2, "end": w}.get(anchor, 0)
                corners = [(x0, y - ASCENT * s), (x0 + w, y - ASCENT * s),
                           (x0, y + DESCENT * s), (x0 + w, y + DESCENT * s)]
                pts = [(m[0] * cx + m[2] * cy + m[4], m[1] * cx + m[3] * cy + m[5])
                       for cx, cy in corners]
                box = (min(p[0] for p in pts), min(p[1] for p in pts),
                       max(p[0] for p in pts), max(p[1] for p in pts))
                ax = m[0] * x + m[2] * y + m[4]
                out.append(Label(text, box, s, anchor, ax,
                                 abs(m[1]) < 1e-6 and abs(m[2]) < 1e-6))
            return
        for child in el:
            walk(child, m, size, anchor)

    walk(root, IDENTITY, 12.0, "start")
    return width, height, out


def overlap(a, b):
    return (min(a.box[2], b.box[2]) - max(a.box[0], b.box[0]) > SLACK and
            min(a.box[3], b.box[3]) - max(a.box[1], b.box[1]) > SLACK)


def check(path, scale, verbose):
    width, height, ls = labels(path, scale)
    problems = []
    # Columns of labels stacked one under the other.
    cols = {}
    for l in ls:
        if l.upright:
            cols.setdefault((l.anchor, round(l.x * 2) / 2), []).append(l)
    for (anchor, x), col in sorted(cols.items()):
        need = sum((ASCENT + DESCENT) * l.size for l in col)
        if len(col) > 1 and need > height:
            problems.append("%d labels in the column at x=%.0f (%s) need %.0f px, the chart is %.0f px high"
                            % (len(col), x, anchor, need, height))
    for l in ls:
        if (l.box[0] < -OUTSIDE or l.box[1] < -OUTSIDE or
                l.box[2] > width + OUTSIDE or l.box[3] > height + OUTSIDE):
            problems.append("label outside the %.0fx%.0f chart: \"%s\" spans x %.0f..%.0f, y %.0f..%.0f"
                            % (width, height, l.text, l.box[0], l.box[2], l.box[1], l.box[3]))
    for l in ls:
        m = UNIT_TWICE.search(l.text)
        if m:
            problems.append("label names its unit twice: \"%s\" (_%s and %s)"
                            % (l.text, m.group(1), m.group(2)))
    # Overlaps: a sweep over the labels by their left edge.
    order = sorted(ls, key=lambda l: l.box[0])
    for i, a in enumerate(order):
        for b in order[i + 1:]:
            if b.box[0] >= a.box[2] - SLACK:
                break
            if overlap(a, b):
                problems.append("labels overlap: \"%s\" at (%.0f, %.0f) and \"%s\" at (%.0f, %.0f)"
                                % (a.text, a.box[0], a.box[3], b.text, b.box[0], b.box[3]))
    if verbose:
        print("%s: %d labels, %.0fx%.0f, text scale %.3g" % (path, len(ls), width, height, scale))
    for p in problems[:MAX_SHOWN]:
        print("%s: %s" % (path, p))
    if len(problems) > MAX_SHOWN:
        print("%s: ... and %d more" % (path, len(problems) - MAX_SHOWN))
    return not problems


def main(argv):
    scale = 1.0
    verbose = False
    files = []
    args = iter(argv[1:])
    for a in args:
        if a == "--scale":
            try:
                scale = float(next(args))
            except (StopIteration, ValueError):
                print("chartcheck: --scale needs a number", file=sys.stderr)
                return 2
            if not 0.1 <= scale <= 10:
                print("chartcheck: --scale %g: not within 0.1..10" % scale, file=sys.stderr)
                return 2
        elif a in ("-v", "--verbose"):
            verbose = True
        elif a.startswith("-") and a != "-":
            print("chartcheck: unknown option %s\nusage: chartcheck.py [--scale S] [--verbose] FILE.svg..." % a,
                  file=sys.stderr)
            return 2
        else:
            files.append(a)
    if not files:
        print("usage: chartcheck.py [--scale S] [--verbose] FILE.svg...", file=sys.stderr)
        return 2
    ok = True
    try:
        for f in files:
            ok = check(f, scale, verbose) and ok
    except BadInput as e:
        print("chartcheck: %s" % e, file=sys.stderr)
        return 2
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
