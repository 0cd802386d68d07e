#!/bin/sh
# platforms.sh OUT DIR...: the claim x platform table, OUT/platforms.md
# and OUT/platforms.html.
set -eu
. "$(dirname "$0")/lib.sh"
[ $# -ge 2 ] || die "usage: platforms.sh OUT DIR..."
out=$1
shift
mkdir -p "$out"
for f in md html; do
	# shellcheck disable=SC2046
	"$MR" platforms $(cases_opt) $(expected_opt) --format "$f" "$@" > "$out/platforms.$f.new"
	mv "$out/platforms.$f.new" "$out/platforms.$f"
done
