#!/bin/sh
# shellcheck disable=SC2012 # night names are plain (history.sh refuses others)
# history.sh HISTORY_DIR RESULTS NIGHT: the night's compact results into
# HISTORY_DIR/<platform>/NIGHT/: env.tsv, runs.tsv (log column `-`),
# checkpoints.tsv, series.tsv when under NIGHTLY_SERIES_MAX bytes (1 MiB);
# no logs.  Keeps the last NIGHTLY_KEEP (60) nights of the platform (NIGHT
# names sort by date: YYYY-MM-DD).  A platform without a baseline in
# MEMREPRO_EXPECTED (./expected) gets one proposed, once, under
# HISTORY_DIR/baselines/<platform>/ (never trusted: a person reviews it
# and commits it to expected/<platform>/ by a pull request).
set -eu
. "$(dirname "$0")/lib.sh"
[ $# -eq 3 ] || die "usage: history.sh HISTORY_DIR RESULTS NIGHT"
h=$1 r=$2 night=$3
case $night in '' | *[!A-Za-z0-9._-]* | .*) die "NIGHT '$night' is not a plain name" ;; esac
p=$(platform_of "$r")
d=$h/$p/$night
rm -rf "$d.new"
mkdir -p "$d.new"
cp "$r/env.tsv" "$r/checkpoints.tsv" "$d.new/"
awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "log") c = i; print; next }
	c { $c = "-" } { print }' "$r/runs.tsv" > "$d.new/runs.tsv"
if [ -f "$r/series.tsv" ] && [ "$(wc -c < "$r/series.tsv")" -le "${NIGHTLY_SERIES_MAX:-1048576}" ]; then
	cp "$r/series.tsv" "$d.new/"
fi
rm -rf "$d"
mv "$d.new" "$d"
keep=${NIGHTLY_KEEP:-60}
# shellcheck disable=SC2012
ls "$h/$p" | sort | head -n "-$keep" | while read -r old; do rm -rf "${h:?}/$p/$old"; done
exp=${MEMREPRO_EXPECTED:-expected}
if [ ! -d "$exp/$p" ] && [ ! -d "$h/baselines/$p" ]; then
	tmp=$(mktemp -d)
	cp "$exp"/*.claims "$tmp/" 2>/dev/null || true
	# shellcheck disable=SC2046
	"$MR" bless $(cases_opt) --expected "$tmp" --from "$d" --yes
	mkdir -p "$h/baselines"
	mv "$tmp/$p" "$h/baselines/$p"
	rm -rf "$tmp"
	echo "proposed baseline: $h/baselines/$p (review it, then commit it to expected/$p)"
fi
echo "history: $d ($(ls "$h/$p" | wc -l) nights of $p)"
