#!/bin/sh
# shellcheck disable=SC2012 # night names are plain (history.sh refuses others)
# trend.sh HISTORY_DIR PLATFORM OUT: memrepro trend over the platform's
# nights, oldest first; its steps in OUT/trend.txt, table and charts in OUT.
set -eu
. "$(dirname "$0")/lib.sh"
[ $# -eq 3 ] || die "usage: trend.sh HISTORY_DIR PLATFORM OUT"
h=$1 p=$2 out=$3
mkdir -p "$out"
n=$(ls "$h/$p" | wc -l)
if [ "$n" -lt 2 ]; then
	echo "$p: $n night in the history: no trend yet" | tee "$out/trend.txt"
	exit 0
fi
# shellcheck disable=SC2046
ls "$h/$p" | sort | sed "s|^|$h/$p/|" | tr '\n' '\0' |
	xargs -0 "$MR" trend $(expected_opt) --out "$out" > "$out/trend.txt"
cat "$out/trend.txt"
