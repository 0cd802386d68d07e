#!/bin/sh
# installcheck.sh: prove that an installed memrepro does all it does with
# nothing but its install.  make install into a temporary DESTDIR, then,
# from /, the installed runner: --version, list, describe, a run of a case
# with claims (calloc-fresh, quick) and check of it, its original under
# each runtime this machine has (skipped with the reason otherwise),
# report; every file the runner opened is outside the source tree (when
# strace is here); uninstall leaves no file.
#
# Usage: tools/installcheck.sh [PREFIX]    (default /usr/local; MAKE: the
# make to call).  Prints "installcheck: ..." per step; exits 1 on the
# first failure, naming it.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
prefix=${1:-/usr/local}
make=${MAKE:-make}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/memrepro-installcheck.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/dest
mr=$dest$prefix/bin/memrepro
export XDG_CACHE_HOME="$tmp/cache"

say() { echo "installcheck: $*"; }
fail() { echo "installcheck: FAIL: $*" >&2; exit 1; }
# The column named $2 of TSV file $1 in the rows whose config matches $3.
col() {
	awk -F '\t' -v c="$2" -v re="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
		$2 ~ re { print $k }' "$1"
}

"$make" -C "$root" -s install DESTDIR="$dest" PREFIX="$prefix" ||
	fail "make install DESTDIR=$dest PREFIX=$prefix"
say "installed into $dest$prefix"
cd /

# Under strace where it is: the opened files are logged, to prove below
# that none is in the source tree.
trace=
if command -v strace >/dev/null 2>&1 && strace -f -qq -o /dev/null true 2>/dev/null; then
	trace=$tmp/trace
fi
runmr() {
	if [ -n "$trace" ]; then
		strace -f -qq -e trace=open,openat,execve,stat,newfstatat,access,readlink \
			-o "$trace.$(date +%s%N)" "$mr" "$@"
	else
		"$mr" "$@"
	fi
}

v=$(runmr --version) || fail "memrepro --version"
say "--version: $v"

runmr list > "$tmp/list" || fail "memrepro list"
n=$(ls "$root"/cases/*.c | wc -l)
grep -q '^calloc-fresh' "$tmp/list" || fail "memrepro list: no calloc-fresh in: $(cat "$tmp/list")"
[ "$(wc -l < "$tmp/list")" -ge "$n" ] || fail "memrepro list: $(wc -l < "$tmp/list") lines, $n cases"
say "list: $n cases"

runmr describe calloc-fresh > "$tmp/describe" || fail "memrepro describe calloc-fresh"
grep -qE "^binary: $dest$prefix/(bin/\.\./)?libexec/memrepro/cases/calloc-fresh\$" "$tmp/describe" ||
	fail "describe: the binary is not the installed one: $(grep '^binary' "$tmp/describe")"
say "describe: the installed case"

# The runtimes of the originals installed, those whose interpreter is here.
rts=c
skipped=
for ext in js rb py; do
	case $ext in
	js) rt=node exe=node ;;
	rb) rt=ruby exe=ruby ;;
	py) rt=python exe=python3 ;;
	esac
	set -- "$dest$prefix"/libexec/memrepro/cases/*."$ext"
	[ -e "$1" ] || continue
	if command -v "$exe" >/dev/null 2>&1; then
		rts="$rts,$rt"
	else
		skipped="$skipped $rt"
		say "original under $rt: skipped: no $exe on this machine"
	fi
done

# calloc-fresh has a node original (cases/calloc-fresh.js); the others
# (ruby, python) are run with the case that has theirs.
r=$tmp/results
runmr run calloc-fresh --profile quick --axis allocator=glibc,jemalloc --axis zero=calloc \
	--axis "runtime=$(echo "$rts" | tr ',' '\n' | grep -xE 'c|node' | paste -sd, -)" \
	--repeat 1 --quiet --out "$r" || fail "memrepro run calloc-fresh"
[ "$(col "$r/runs.tsv" outcome '^allocator=glibc,count=[0-9]+,size=[0-9]+,zero=calloc$')" = ok ] ||
	fail "run: the model's glibc run is not ok: $(cat "$r/runs.tsv")"
say "run calloc-fresh: ok"

runmr check --from "$r" calloc-fresh > "$tmp/check" || fail "memrepro check: $(cat "$tmp/check")"
grep -q 'glibc-vs-jemalloc *held' "$tmp/check" || fail "check: the claim glibc-vs-jemalloc did not hold: $(cat "$tmp/check")"
say "check calloc-fresh: glibc-vs-jemalloc held"

for rt in $(echo "$rts" | tr ',' ' '); do
	case $rt in
	c) continue ;;
	node) o=$r c=calloc-fresh ;;
	*)
		ext=$( [ "$rt" = ruby ] && echo rb || echo py)
		set -- "$dest$prefix"/libexec/memrepro/cases/*."$ext"
		c=$(basename "$1" ".$ext") o=$tmp/results-$rt
		runmr run "$c" --profile quick --axis allocator=glibc --axis "runtime=$rt" \
			--repeat 1 --quiet --out "$o" || fail "memrepro run $c --axis runtime=$rt"
		;;
	esac
	out=$(col "$o/runs.tsv" outcome "runtime=$rt(,|\$)" | sort -u)
	[ "$out" = ok ] || fail "the original $c under $rt: outcome '$out' (want ok): $(cat "$o/runs.tsv")"
	say "original $c under $rt: ok"
done

runmr report "$r" > "$tmp/report" || fail "memrepro report: $(cat "$tmp/report")"
[ -s "$r/report.md" ] || fail "report: no $r/report.md"
if command -v gnuplot >/dev/null 2>&1; then
	ls "$r"/plots/calloc-fresh.*.png >/dev/null 2>&1 || fail "report: no chart in $r/plots"
	say "report: report.md and $(ls "$r"/plots/*.png | wc -l) charts"
else
	say "report: report.md (charts skipped: no gnuplot on this machine)"
fi

if [ -n "$trace" ]; then
	if grep -h "\"$root/" "$trace".* | grep -v ENOENT > "$tmp/leak"; then
		fail "the installed runner opened files of the source tree $root: $(head -5 "$tmp/leak")"
	fi
	say "no file of the source tree opened (strace)"
else
	say "source tree not traced: no strace here"
fi

"$make" -C "$root" -s uninstall DESTDIR="$dest" PREFIX="$prefix" || fail "make uninstall"
left=$(find "$dest" ! -type d)
[ -z "$left" ] || fail "uninstall left: $left"
say "uninstall: no file left"
say "ok"
