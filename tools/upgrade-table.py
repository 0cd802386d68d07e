#!/usr/bin/env python3
"""The corpus's upgrade table in Markdown, from `memrepro check --format json`.

    build/memrepro check --profile versions --format json > check.json
    python3 tools/upgrade-table.py check.json

One row per claim that some version judged, one column per version
(each allocator's versions old to new in the order of the registry's
default axis, then the glibcs), cells as check gives them.  What the
"Across releases" table of docs/upgrades.md shows.
"""
import json
import sys

WORD = {
    "held": "held",
    "reproduces": "reproduces",
    "regressed": "**regressed**",
    "does not reproduce": "no",
    "skipped": "skip",
    "undefined": "undef",
}
ORDER = ["jemalloc", "tcmalloc", "mimalloc", "libc"]


def key(col):
    of = col["of"]
    rank = ORDER.index(of) if of in ORDER else len(ORDER)
    parts = [int(p) if p.isdigit() else p for p in col["version"].replace("-", ".").split(".")]
    return (rank, of, [(0, p) if isinstance(p, int) else (1, p) for p in parts])


def main(path):
    with open(path) as f:
        doc = json.load(f)
    cols = {}
    for case in doc["cases"]:
        for col in case.get("versions") or []:
            cols.setdefault(col["label"], col)
    order = sorted(cols.values(), key=key)
    labels = [c["label"] for c in order]
    short = [c["label"].replace("@", " ") for c in order]
    print("| case | claim | status | " + " | ".join(short) + " |")
    print("|---|---|---|" + "---|" * len(order))
    for case in doc["cases"]:
        here = [c["label"] for c in case.get("versions") or []]
        for claim in case["claims"]:
            cells = claim.get("upgrade") or []
            if not any(cells):
                continue
            got = dict(zip(here, cells))
            row = [WORD.get(got.get(l) or "", "") for l in labels]
            print("| %s | `%s` | %s | %s |" % (case["name"], claim["id"], claim["status"],
                                              " | ".join(row)))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: upgrade-table.py CHECK.json")
    main(sys.argv[1])
