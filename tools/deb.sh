#!/bin/sh
# deb.sh: build memrepro's .deb (debian/) with dpkg-buildpackage -b.
#
# Usage: tools/deb.sh DIR
# dpkg-buildpackage writes its .deb, .buildinfo and .changes beside the
# tree it builds, so the tree's files (git's, changed or new, not ignored)
# are copied to DIR/memrepro/ and built there: DIR/memrepro_*.deb.  No
# debug symbols package; as many jobs as CPUs (JOBS).  MR_COMMIT, when
# set, is the commit the runner reports (the copy has no .git).
set -eu

dir=$1
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=${JOBS:-$(nproc 2>/dev/null || echo 1)}

rm -rf "$dir"
mkdir -p "$dir/memrepro"
dir=$(cd "$dir" && pwd)
(cd "$root" && git ls-files -z -c -o --exclude-standard |
	xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
	tar --null -T - -cf -) | tar -C "$dir/memrepro" -xf -
cd "$dir/memrepro"
MR_COMMIT=${MR_COMMIT:-} DEB_BUILD_OPTIONS="noautodbgsym parallel=$jobs" \
	dpkg-buildpackage -b -us -uc
ls "$dir"/memrepro_*.deb
