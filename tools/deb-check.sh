#!/bin/sh
# deb-check.sh: the .deb that tools/deb.sh built in DIR holds the runner,
# the cases, the originals and their helpers; unpacked (dpkg-deb -x, not
# installed), its runner runs from / and finds its files under the
# unpacked usr/ (it finds them from its own directory: nothing of /usr is
# compiled in), and runs an original where node is here.
#
# Usage: tools/deb-check.sh DIR
set -eu

dir=$1
fail() { echo "deb-check: FAIL: $*" >&2; exit 1; }
set -- "$dir"/memrepro_*.deb
[ -f "$1" ] || fail "no memrepro_*.deb in $dir"
deb=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/memrepro-deb.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

dpkg-deb -c "$deb" > "$tmp/contents"
for f in ./usr/bin/memrepro ./usr/libexec/memrepro/cases/calloc-fresh \
	./usr/libexec/memrepro/cases/calloc-fresh.js ./usr/libexec/memrepro/lib/memrepro.js \
	./usr/share/memrepro/allocators ./usr/share/memrepro/releases \
	./usr/share/memrepro/guest-init ./usr/share/memrepro/plots/series.gp \
	./usr/share/memrepro/expected/calloc-fresh.claims ./usr/share/man/man1/memrepro.1.gz; do
	grep -q " $f\$" "$tmp/contents" || fail "$deb has no $f"
done
echo "deb-check: $deb: $(wc -l < "$tmp/contents") entries, $(du -k "$deb" | cut -f1) KiB"

dpkg-deb -x "$deb" "$tmp/root"
cd /
"$tmp/root/usr/bin/memrepro" --version || fail "memrepro --version"
XDG_CACHE_HOME="$tmp/cache" "$tmp/root/usr/bin/memrepro" list > "$tmp/list" ||
	fail "memrepro list"
n=$(ls "$tmp/root/usr/share/memrepro/cases/"*.c | wc -l)
[ "$(grep -c . "$tmp/list")" -ge "$n" ] && grep -q '^calloc-fresh' "$tmp/list" ||
	fail "memrepro list: not the $n cases: $(cat "$tmp/list")"
echo "deb-check: the unpacked memrepro lists its $n cases"
XDG_CACHE_HOME="$tmp/cache" "$tmp/root/usr/bin/memrepro" describe calloc-fresh > "$tmp/describe" ||
	fail "memrepro describe calloc-fresh"
grep -qE "^binary: $tmp/root/usr/(bin/\.\./)?libexec/memrepro/cases/calloc-fresh\$" "$tmp/describe" ||
	fail "describe: not the unpacked case: $(grep '^binary' "$tmp/describe")"
echo "deb-check: it runs the unpacked cases (describe calloc-fresh)"
if command -v node >/dev/null 2>&1; then
	XDG_CACHE_HOME="$tmp/cache" "$tmp/root/usr/bin/memrepro" run calloc-fresh --profile quick \
		--axis allocator=glibc --axis zero=calloc --axis runtime=node --repeat 1 --quiet \
		--out "$tmp/r" > /dev/null || fail "memrepro run calloc-fresh --axis runtime=node"
	awk -F '\t' 'NR > 1 && $2 ~ /runtime=node/ && $4 == "ok" { ok = 1 } END { exit !ok }' \
		"$tmp/r/runs.tsv" || fail "the unpacked original did not run: $(cat "$tmp/r/runs.tsv")"
	echo "deb-check: the unpacked original calloc-fresh.js ran under node"
else
	echo "deb-check: the unpacked original: skipped: no node on this machine"
fi
