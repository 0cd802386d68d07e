#!/bin/sh
# publish.sh HISTORY_DIR OUT: OUT/index.html linking what the other steps
# put in OUT (platforms.md/.html; per platform report.html, trend/,
# export/*.json) and the history's nights and proposed baselines.  Only
# OUT's real directories with plain names are listed (others are named on
# stderr), and what index.html says of them is HTML-escaped; index.html is
# replaced by a rename, never written through a link.
set -eu
. "$(dirname "$0")/lib.sh"
[ $# -eq 2 ] || die "usage: publish.sh HISTORY_DIR OUT"
h=$1 out=$2
real_dir "$out"
mkdir -p "$out"
# link PATH TEXT: a link to OUT/PATH where it exists.
link() { if [ -e "$out/$1" ]; then printf '<a href="%s">%s</a>\n' "$(html "$1")" "$(html "$2")"; fi; }
# nights P: how many nights of P the history holds.
nights() {
	n=0
	for e in "$h/$1"/*; do if [ -d "$e" ] && [ ! -L "$e" ]; then n=$((n + 1)); fi; done
	echo "$n"
}
t=$(beside "$out/index.html")
{
	printf '<!doctype html>\n<html><head><meta charset="utf-8"><title>memrepro nightly</title></head><body>\n'
	printf '<h1>memrepro nightly</h1>\n<p>'
	link platforms.html "where each claim holds (platforms table)"
	link platforms.md "(markdown)"
	printf '</p>\n<ul>\n'
	for d in "$out"/*/; do
		d=${d%/}
		[ -d "$d" ] || continue
		p=$(basename -- "$d")
		case $p in '' | *[!A-Za-z0-9._-]* | [.-]*)
			echo "$0: $d: not a platform name: left out" >&2
			continue ;;
		esac
		if [ -L "$d" ]; then echo "$0: $d: a symbolic link: left out" >&2; continue; fi
		printf '<li>%s (%s nights in the history): ' "$(html "$p")" "$(nights "$p")"
		link "$p/report.html" report
		link "$p/trend/trend.txt" trend
		link "$p/trend/trend.tsv" "trend table"
		link "$p/export/bmf.json" "BMF JSON"
		link "$p/export/benchmark-action.json" "benchmark-action JSON"
		if [ -d "$h/baselines/$p" ]; then printf '(proposed baseline in the history branch: baselines/%s)' "$(html "$p")"; fi
		printf '</li>\n'
	done
	printf '</ul>\n</body></html>\n'
} > "$t"
put "$t" "$out/index.html"
echo "published: $out/index.html"
