#!/bin/sh
# export.sh RESULTS OUT: OUT/bmf.json (Bencher) and OUT/benchmark-action.json
# (github-action-benchmark customSmallerIsBetter).
set -eu
. "$(dirname "$0")/lib.sh"
[ $# -eq 2 ] || die "usage: export.sh RESULTS OUT"
mkdir -p "$2"
for f in bmf benchmark-action; do
	# shellcheck disable=SC2046
	"$MR" export --format "$f" $(expected_opt) "$1" > "$2/$f.json.new"
	mv "$2/$f.json.new" "$2/$f.json"
done
