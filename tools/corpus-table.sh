#!/bin/sh
# corpus-table.sh [--check]: the README's corpus table is what
# `memrepro corpus docs/corpus/main docs/corpus/retained-buffers
# docs/corpus/alloc-churn docs/corpus/trackers docs/corpus/originals docs/corpus/originals-alloc-churn`
# writes, between the README's lines
# "<!-- corpus-table -->" and "<!-- /corpus-table -->".  Without --check,
# rewrite it there; with --check, exit 1 (and show the difference) when the
# README's is not what the command writes.
set -eu
cd "$(dirname "$0")/.."
mr=${MEMREPRO:-build/memrepro}
check=0
[ "${1:-}" = --check ] && check=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$mr" corpus --expected expected docs/corpus/main docs/corpus/retained-buffers \
	docs/corpus/alloc-churn docs/corpus/trackers docs/corpus/originals docs/corpus/originals-alloc-churn > "$tmp/table"
if ! grep -q '^<!-- corpus-table -->$' README.md || ! grep -q '^<!-- /corpus-table -->$' README.md; then
	echo "corpus-table.sh: README.md has no <!-- corpus-table --> ... <!-- /corpus-table --> lines" >&2
	exit 2
fi
awk -v t="$tmp/table" '
	/^<!-- corpus-table -->$/ { print; while ((getline l < t) > 0) print l; skip = 1; next }
	/^<!-- \/corpus-table -->$/ { skip = 0 }
	!skip { print }' README.md > "$tmp/README.md"
if [ "$check" = 1 ]; then
	diff -u README.md "$tmp/README.md" || {
		echo "corpus-table.sh: the README's corpus table is not what memrepro corpus writes (make corpus-table)" >&2
		exit 1
	}
else
	cp "$tmp/README.md" README.md
fi
