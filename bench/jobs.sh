#!/bin/sh
# jobs.sh [-j N] [--j1 DIR] [--out DIR] [RUN_OPTION...] [CASE...]: what
# -j N buys.  Runs the profile (RUN_OPTIONs go to memrepro run as they
# are: --profile quick, --cases DIR, --axis ...) once at -j 1 (or takes
# the -j 1 results directory given with --j1) and once at -j N, then
# prints the case time (the sum of wall_ms over the -j 1 runs that ended
# ok), the -j N wall time (the runner's, from its start to its end), the
# goal's ratio (-j N wall / (case time / N); the nightly's goal for -j 2
# is 1.15 at most), how many runs had company, how many waited for
# memory, and the largest peak RSS.  Not part of make check (benchmarks
# print figures; tests assert).
#
#   sh bench/jobs.sh --profile quick alloc-churn retained-buffers trim-refault
#   sh bench/jobs.sh --j1 results/full-j1 --profile full
set -eu
N=2 J1='' OUT=''
while [ $# -gt 0 ]; do
	case $1 in
	-j) N=$2; shift 2 ;;
	--j1) J1=$2; shift 2 ;;
	--out) OUT=$2; shift 2 ;;
	*) break ;;
	esac
done
case $N in '' | *[!0-9]* | 0) echo "jobs.sh: -j $N: want a number of runs at once, 1 or more" >&2; exit 2 ;; esac
ROOT=$(cd "$(dirname "$0")/.." && pwd)
MR=${MEMREPRO:-$ROOT/build/memrepro}
[ -x "$MR" ] || { echo "jobs.sh: $MR: not built (make all)" >&2; exit 2; }
OUT=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/jobs.XXXXXX")}
mkdir -p "$OUT"

# now_ms: the monotonic-enough wall clock in ms
now_ms() { date +%s%3N; }

# timed DIR J ARGS...: run the profile at -j J into DIR; prints its wall ms
timed() {
	d=$1 j=$2
	shift 2
	t0=$(now_ms)
	"$MR" run -q -j "$j" --out "$d" "$@" >"$d.log" 2>&1 || true
	t1=$(now_ms)
	[ -f "$d/runs.tsv" ] || { echo "jobs.sh: run -j $j wrote no results; see $d.log" >&2; exit 1; }
	echo $((t1 - t0))
}

if [ -z "$J1" ]; then
	J1=$OUT/j1
	W1=$(timed "$J1" 1 "$@")
else
	if [ ! -f "$J1/runs.tsv" ] || [ -L "$J1/runs.tsv" ]; then
		echo "jobs.sh: $J1: no runs.tsv (or a link)" >&2
		exit 2
	fi
	W1=-
fi
WN=$(timed "$OUT/j$N" "$N" "$@")

# col FILE: case time (ms, ok runs), runs, runs with company, runs that
# waited for memory, largest peak RSS (kB)
col() {
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ n++ }
		$c["outcome"] == "ok" { t += $c["wall_ms"]
			if ($c["maxrss_kb"] > p) p = $c["maxrss_kb"] }
		c["overlap"] && $c["overlap"] > 0 { o++ }
		c["waited"] && $c["waited"] ~ /^memory:/ { w++ }
		END { printf "%d %d %d %d %d\n", t, n, o, w, p }' "$1"
}
# shellcheck disable=SC2046 # five numbers, split on purpose
set -- $(col "$J1/runs.tsv")
CT=$1 R1=$2
[ "$CT" -gt 0 ] || { echo "jobs.sh: $J1: no run ended ok, no case time" >&2; exit 1; }
# shellcheck disable=SC2046
set -- $(col "$OUT/j$N/runs.tsv")
RN=$2 ON=$3 WM=$4 PK=$5
echo "| figure | value |"
echo "|---|---:|"
printf '| runs (-j 1 / -j %s) | %s / %s |\n' "$N" "$R1" "$RN"
printf '| case time (sum of wall_ms, -j 1) | %.1f s |\n' "$(echo "$CT / 1000" | bc -l)"
[ "$W1" = - ] || printf '| -j 1 wall | %.1f s |\n' "$(echo "$W1 / 1000" | bc -l)"
printf '| -j %s wall | %.1f s |\n' "$N" "$(echo "$WN / 1000" | bc -l)"
printf '| -j %s wall / (case time / %s) | %.2f |\n' "$N" "$N" "$(echo "$WN * $N / $CT" | bc -l)"
printf '| runs with company at -j %s | %s |\n' "$N" "$ON"
printf '| runs that waited for memory | %s |\n' "$WM"
printf '| largest peak RSS (maxrss_kb) | %.1f MiB |\n' "$(echo "$PK / 1024" | bc -l)"
echo "results: $OUT"
