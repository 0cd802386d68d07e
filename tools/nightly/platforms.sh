#!/bin/sh
# platforms.sh OUT DIR...: the claim x platform table, OUT/platforms.md
# and OUT/platforms.html; each replaced by a rename, never written through
# a link.
set -eu
. "$(dirname "$0")/lib.sh"
[ $# -ge 2 ] || die "usage: platforms.sh OUT DIR..."
out=$1
shift
real_dir "$out"
mkdir -p "$out"
for f in md html; do
	t=$(beside "$out/platforms.$f")
	# shellcheck disable=SC2046
	"$MR" platforms $(cases_opt) $(expected_opt) --format "$f" "$@" > "$t" || { rc=$?; rm -f "$t"; exit "$rc"; }
	put "$t" "$out/platforms.$f"
done
