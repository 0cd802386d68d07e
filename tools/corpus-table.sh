#!/bin/sh
# corpus-table.sh [--check]: the corpus table of docs/corpus.md is what
# `memrepro corpus docs/corpus/main docs/corpus/retained-buffers
# docs/corpus/alloc-churn docs/corpus/trackers docs/corpus/originals docs/corpus/originals-alloc-churn
# docs/corpus/runtimes docs/corpus/mimalloc-maps docs/corpus/services`
# writes, between its lines
# "<!-- corpus-table -->" and "<!-- /corpus-table -->".  Without --check,
# rewrite it there; with --check, exit 1 (and show the difference) when the
# page's is not what the command writes.
set -eu
cd "$(dirname "$0")/.."
mr=${MEMREPRO:-build/memrepro}
page=docs/corpus.md
check=0
[ "${1:-}" = --check ] && check=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$mr" corpus --expected expected docs/corpus/main docs/corpus/retained-buffers \
	docs/corpus/alloc-churn docs/corpus/trackers docs/corpus/originals docs/corpus/originals-alloc-churn \
	docs/corpus/runtimes docs/corpus/mimalloc-maps docs/corpus/services > "$tmp/out"
# the command links a seed from the top of the tree; the page is in docs/
sed 's|](seeds/|](../seeds/|g' "$tmp/out" > "$tmp/table"
if ! grep -q '^<!-- corpus-table -->$' "$page" || ! grep -q '^<!-- /corpus-table -->$' "$page"; then
	echo "corpus-table.sh: $page has no <!-- corpus-table --> ... <!-- /corpus-table --> lines" >&2
	exit 2
fi
awk -v t="$tmp/table" '
	/^<!-- corpus-table -->$/ { print; while ((getline l < t) > 0) print l; skip = 1; next }
	/^<!-- \/corpus-table -->$/ { skip = 0 }
	!skip { print }' "$page" > "$tmp/page.md"
if [ "$check" = 1 ]; then
	diff -u "$page" "$tmp/page.md" || {
		echo "corpus-table.sh: the corpus table of $page is not what memrepro corpus writes (make corpus-table)" >&2
		exit 1
	}
else
	cp "$tmp/page.md" "$page"
fi
