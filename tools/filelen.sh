#!/bin/sh
# filelen.sh: list the C files longer than a limit.
#
# Usage: tools/filelen.sh [-n LINES] [PATH...]   (default: -n 600 runner lib)
#
# Counts the lines of every .c and .h file under the paths.  Prints
# "FILE: N lines" for each longer than LINES, longest first, and exits 1;
# silent with status 0 when there is none.  A file past the limit is
# split by concern (docs/architecture.md), not trimmed.
set -eu

max=600
if [ "${1:-}" = "-n" ]; then
	max=$2
	shift 2
fi
[ $# -gt 0 ] || set -- runner lib

find "$@" -type f \( -name '*.c' -o -name '*.h' \) | LC_ALL=C sort |
while IFS= read -r f; do
	n=$(wc -l <"$f")
	if [ "$n" -gt "$max" ]; then
		printf '%d\t%s: %d lines\n' "$n" "$f" "$n"
	fi
done | sort -t "$(printf '\t')" -k1,1nr | cut -f2- | awk '{ print } END { if (NR) { printf "%d file%s over %s lines (tools/filelen.sh)\n", NR, NR == 1 ? "" : "s", '"$max"'; exit 1 } }'
