#!/usr/bin/env bats
# The README and docs/*.md: every relative link leads to a file of the
# tree (and a #section to a heading of it), and the README stays a page
# read in five minutes.

load test_helper

# Every relative link of the markdown files $@ that leads nowhere, one a
# line: FILE: LINK.
dead_links() {
	python3 - "$@" <<'PY'
import os, re, sys

def slug(h):
    h = re.sub(r"[`*_\[\]()]", "", h.strip().lower())
    h = re.sub(r"[^\w\- ]", "", h)
    return h.replace(" ", "-")

def anchors(path):
    out, fence = set(), False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            fence = not fence
        elif not fence and line.startswith("#"):
            out.add(slug(line.lstrip("#")))
    return out

for md in sys.argv[1:]:
    text, fence, body = open(md, encoding="utf-8").read(), False, []
    for line in text.split("\n"):
        if line.startswith("```"):
            fence = not fence
        elif not fence:
            body.append(re.sub(r"`[^`]*`", "", line))
    for link in re.findall(r"\]\(([^)\s]+)\)", "\n".join(body)):
        if re.match(r"[a-z]+:", link):
            continue
        path, _, frag = link.partition("#")
        target = os.path.normpath(os.path.join(os.path.dirname(md), path)) if path else md
        if not os.path.exists(target):
            print(f"{md}: {link}")
        elif frag and target.endswith(".md") and frag not in anchors(target):
            print(f"{md}: {link} (no such section)")
PY
}

@test "every relative link of README.md and docs/*.md exists" {
	cd "$ROOT"
	run -0 dead_links README.md docs/*.md
	[ -z "$output" ] || { echo "$output"; false; }
	# and the check finds one that does not
	mkdir -p "$BATS_TEST_TMPDIR/docs"
	printf '[gone](docs/gone.md) [sec](docs/formats.md#no-such-section)\n' > "$BATS_TEST_TMPDIR/x.md"
	cp docs/formats.md "$BATS_TEST_TMPDIR/docs/"
	run -0 dead_links "$BATS_TEST_TMPDIR/x.md"
	[[ "$output" == *"x.md: docs/gone.md"* ]] || false
	[[ "$output" == *"x.md: docs/formats.md#no-such-section (no such section)"* ]] || false
}

@test "the README: the first command and a picture on the first screen, a case written near the top, short" {
	cd "$ROOT"
	first=$(grep -n '^make \|^build/memrepro ' README.md | head -1 | cut -d: -f1)
	[ "$first" -le 40 ]
	# a picture on the first screen, beside the commands
	pic=$(grep -n '^!\[.*\](docs/.*\.png)$' README.md | head -1 | cut -d: -f1)
	[ -n "$pic" ] && [ "$pic" -le 40 ]
	write=$(grep -n '^## Write a case$' README.md | cut -d: -f1)
	[ "$write" -le 70 ]
	[ "$(wc -l < README.md)" -le 160 ]
}
