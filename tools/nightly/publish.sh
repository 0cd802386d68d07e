#!/bin/sh
# shellcheck disable=SC2012 # night names are plain (history.sh refuses others)
# publish.sh HISTORY_DIR OUT: OUT/index.html linking what the other steps
# put in OUT (platforms.md/.html; per platform report.html, trend/,
# export/*.json) and the history's nights and proposed baselines.
set -eu
. "$(dirname "$0")/lib.sh"
[ $# -eq 2 ] || die "usage: publish.sh HISTORY_DIR OUT"
h=$1 out=$2
mkdir -p "$out"
link() { if [ -e "$out/$1" ]; then printf '<a href="%s">%s</a>\n' "$1" "$2"; fi; }
{
	printf '<!doctype html>\n<html><head><meta charset="utf-8"><title>memrepro nightly</title></head><body>\n'
	printf '<h1>memrepro nightly</h1>\n<p>'
	link platforms.html "where each claim holds (platforms table)"
	link platforms.md "(markdown)"
	printf '</p>\n<ul>\n'
	for d in "$out"/*/; do
		[ -d "$d" ] || continue
		p=$(basename "$d")
		nights=$(ls "$h/$p" 2>/dev/null | wc -l)
		printf '<li>%s (%s nights in the history): ' "$p" "$nights"
		link "$p/report.html" report
		link "$p/trend/trend.txt" trend
		link "$p/trend/trend.tsv" "trend table"
		link "$p/export/bmf.json" "BMF JSON"
		link "$p/export/benchmark-action.json" "benchmark-action JSON"
		if [ -d "$h/baselines/$p" ]; then printf '(proposed baseline in the history branch: baselines/%s)' "$p"; fi
		printf '</li>\n'
	done
	printf '</ul>\n</body></html>\n'
} > "$out/index.html"
echo "published: $out/index.html"
