#!/bin/sh
# trend.sh HISTORY_DIR PLATFORM OUT: memrepro trend over the platform's
# nights, oldest first; its steps in OUT/trend.txt, table and charts in OUT.
# A platform directory or night that is a link, or not a directory, is
# refused (exit 2): the trend reads only what the history holds.
set -eu
. "$(dirname "$0")/lib.sh"
[ $# -eq 3 ] || die "usage: trend.sh HISTORY_DIR PLATFORM OUT"
h=$1 p=$2 out=$3
plain PLATFORM "$p"
real_dir "$h/$p"
real_dir "$out"
mkdir -p "$out"
t=$(beside "$out/trend.txt")
trap 'rm -f "$t"' EXIT
set --
for e in "$h/$p"/*; do
	[ -e "$e" ] || [ -L "$e" ] || continue
	{ [ -d "$e" ] && [ ! -L "$e" ]; } || die "$e: not a directory (a link or other): refused"
	set -- "$@" "$e"
done
if [ $# -lt 2 ]; then
	echo "$p: $# night in the history: no trend yet" > "$t"
else
	# shellcheck disable=SC2046
	"$MR" trend $(expected_opt) --out "$out" "$@" > "$t"
fi
put "$t" "$out/trend.txt"
cat "$out/trend.txt"
