#!/bin/sh
# export.sh RESULTS OUT: OUT/bmf.json (Bencher) and OUT/benchmark-action.json
# (github-action-benchmark customSmallerIsBetter); each replaced by a
# rename, never written through a link.
set -eu
. "$(dirname "$0")/lib.sh"
[ $# -eq 2 ] || die "usage: export.sh RESULTS OUT"
real_dir "$2"
mkdir -p "$2"
for f in bmf benchmark-action; do
	t=$(beside "$2/$f.json")
	# shellcheck disable=SC2046
	"$MR" export --format "$f" $(expected_opt) "$1" > "$t" || { rc=$?; rm -f "$t"; exit "$rc"; }
	put "$t" "$2/$f.json"
done
