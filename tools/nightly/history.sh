#!/bin/sh
# history.sh HISTORY_DIR RESULTS NIGHT: the night's compact results into
# HISTORY_DIR/<platform>/NIGHT/: env.tsv, runs.tsv (log column `-`),
# checkpoints.tsv, series.tsv when under NIGHTLY_SERIES_MAX bytes (1 MiB);
# no logs.  Keeps the last NIGHTLY_KEEP (60, at least 1) nights of the
# platform (NIGHT names sort by date: YYYY-MM-DD), and tonight's always.
# The history comes from a branch anyone who can push may have written:
# a platform directory holding other than plain-named directories, or a
# link where it writes, is refused (exit 2), and results files are copied
# only when regular files.  A platform without a baseline in
# MEMREPRO_EXPECTED (./expected) gets one proposed, once, under
# HISTORY_DIR/baselines/<platform>/ (never trusted: a person reviews it
# and commits it to expected/<platform>/ by a pull request).
set -eu
. "$(dirname "$0")/lib.sh"
[ $# -eq 3 ] || die "usage: history.sh HISTORY_DIR RESULTS NIGHT"
h=$1 r=$2 night=$3
plain NIGHT "$night"
keep=${NIGHTLY_KEEP:-60}
count_var NIGHTLY_KEEP "$keep" 1
smax=${NIGHTLY_SERIES_MAX:-1048576}
count_var NIGHTLY_SERIES_MAX "$smax" 0
p=$(platform_of "$r")
for f in env.tsv checkpoints.tsv runs.tsv; do regular "$r/$f"; done
series=
if [ -e "$r/series.tsv" ] || [ -L "$r/series.tsv" ]; then
	regular "$r/series.tsv"
	if [ "$(wc -c < "$r/series.tsv")" -le "$smax" ]; then series=$r/series.tsv; fi
fi
real_dir "$h"
hp=$h/$p
real_dir "$hp"
mkdir -p "$hp"
for e in "$hp"/*; do
	[ -e "$e" ] || [ -L "$e" ] || continue
	plain "$e: night" "$(basename -- "$e")"
	{ [ -d "$e" ] && [ ! -L "$e" ]; } || die "$e: not a directory (a link or other): refused"
done
d=$hp/$night
rm -rf -- "$d.new"
mkdir -- "$d.new"
cp -P -- "$r/env.tsv" "$r/checkpoints.tsv" ${series:+"$series"} "$d.new/"
awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "log") c = i; print; next }
	c { $c = "-" } { print }' "$r/runs.tsv" > "$d.new/runs.tsv"
rm -rf -- "$d"
mv -T -- "$d.new" "$d"
# The oldest beyond NIGHTLY_KEEP go: each a real directory beneath the
# platform's, resolved, never tonight's.
root=$(realpath -e -- "$hp")
n=0
for e in "$hp"/*; do n=$((n + 1)); done
drop=$((n - keep))
for e in "$hp"/*; do
	[ "$drop" -gt 0 ] || break
	drop=$((drop - 1))
	[ "$e" != "$d" ] || continue
	{ [ -d "$e" ] && [ ! -L "$e" ]; } || die "$e: not a directory (a link or other): refused"
	v=$(realpath -e -- "$e")
	case $v in "$root"/?*) ;; *) die "$e: resolves to $v, outside $root: refused" ;; esac
	rm -rf -- "$v"
done
exp=${MEMREPRO_EXPECTED:-expected}
real_dir "$h/baselines"
real_dir "$h/baselines/$p"
if [ ! -d "$exp/$p" ] && [ ! -d "$h/baselines/$p" ]; then
	tmp=$(mktemp -d)
	cp "$exp"/*.claims "$tmp/" 2>/dev/null || true
	# shellcheck disable=SC2046
	"$MR" bless $(cases_opt) --expected "$tmp" --from "$d" --yes
	mkdir -p "$h/baselines"
	mv -T -- "$tmp/$p" "$h/baselines/$p"
	rm -rf "$tmp"
	echo "proposed baseline: $h/baselines/$p (review it, then commit it to expected/$p)"
fi
n=0
for e in "$hp"/*; do n=$((n + 1)); done
echo "history: $d ($n nights of $p)"
