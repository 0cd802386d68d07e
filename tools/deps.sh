#!/bin/sh
# deps.sh: make sure the Debian packages memrepro needs are installed.
#
# Usage: tools/deps.sh PACKAGE...
# Checks with one dpkg-query call (cheap when nothing is missing).  When some
# are missing and we are root with apt-get, installs them from Debian's
# archive, refreshing the package lists first when they are empty or older
# than a day; otherwise stops with one message naming the exact packages.
set -u

[ $# -gt 0 ] || exit 0

if ! command -v dpkg-query >/dev/null 2>&1; then
	echo "memrepro: not a Debian system (no dpkg-query); make sure these are installed: $*" >&2
	exit 0
fi

# One dpkg-query for all: installed packages print "ii  name".
installed=$(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' "$@" 2>/dev/null |
	awk '$1 == "ii" { print $2 }')
missing=
for p in "$@"; do
	case " $(echo $installed) " in
	*" $p "*) ;;
	*) missing="$missing $p" ;;
	esac
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
	echo "memrepro: missing Debian packages:$missing" >&2
	echo "memrepro: install them with: sudo apt-get install$missing" >&2
	exit 1
fi

echo "memrepro: installing missing Debian packages:$missing" >&2
lists=/var/lib/apt/lists
if [ -z "$(find "$lists" -maxdepth 1 -name '*Packages*' -mtime -1 2>/dev/null | head -n 1)" ]; then
	echo "memrepro: package lists are empty or stale; running apt-get update" >&2
	apt-get update -qq >&2 || { echo "memrepro: apt-get update failed" >&2; exit 1; }
fi
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >&2 || {
	echo "memrepro: apt-get install failed; missing:$missing" >&2
	exit 1
}
exit 0
