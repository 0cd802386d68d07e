#!/bin/sh
# cost.sh DIR...: what each case cost in the results directories given
# (the quick check's, the corpus' full-profile ones), from their runs.tsv:
# per case the runs, the case time (the sum of wall_ms over its runs), the
# longest run and the largest peak RSS of any run, then the totals.  A
# case in several directories is added up.  Prints a markdown table.
# Not part of make check (benchmarks print figures; tests assert).
#
#   sh bench/cost.sh results/20261201-120000
#   sh bench/cost.sh docs/corpus/main docs/corpus/retained-buffers ...
set -eu
[ $# -ge 1 ] || { echo "usage: cost.sh RESULTS_DIR..." >&2; exit 2; }
for d in "$@"; do
	if [ ! -f "$d/runs.tsv" ] || [ -L "$d/runs.tsv" ]; then
		echo "cost.sh: $d: no runs.tsv (or a link)" >&2
		exit 2
	fi
done
for d in "$@"; do
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print $c["case"] "\t" $c["wall_ms"] "\t" $c["peak_rss_kb"] }' "$d/runs.tsv"
done | awk -F'\t' '
	{ n[$1]++; t[$1] += $2; if ($2 > m[$1]) m[$1] = $2
	  if ($3 != "-" && $3 > p[$1]) p[$1] = $3
	  N++; T += $2; if ($2 > M) M = $2; if ($3 != "-" && $3 > P) P = $3 }
	END {
		print "| case | runs | case time | longest run | largest peak RSS |"
		print "|---|---:|---:|---:|---:|"
		for (k in n) printf "| %s | %d | %.1f s | %.2f s | %.1f MiB |\n", k, n[k], t[k] / 1000, m[k] / 1000, p[k] / 1024 | "sort"
		close("sort")
		printf "| all | %d | %.1f s | %.2f s | %.1f MiB |\n", N, T / 1000, M / 1000, P / 1024
	}'
