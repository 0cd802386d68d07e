#!/bin/sh
# rows.sh N [DIR]: what reading N rows of results costs.
# Writes a synthetic results directory of N runs.tsv rows (DIR, default a
# temporary one, removed after): the fixture case fixture-stacks of
# tests/data (its claims and baseline), REPEAT (default 5) repeats of
# N/REPEAT configs (allocator=glibc, fibers=1.., madvise=dontneed|free),
# each run with two checkpoint rows (created, cleared), then times
# `memrepro check --from DIR --expected tests/data/expected` and, with
# REPORT=1, `memrepro report` (its charts off: no gnuplot) on it.  Prints
# "rows check_s [report_s]".  MEMREPRO picks the binary.  Benchmarks
# print figures; not part of make check.  GEN_ONLY=1: write DIR, time
# nothing (tests/readers.bats' big results).
#
#   sh bench/rows.sh 100000
#   MEMREPRO=/tmp/old/memrepro sh bench/rows.sh 30000
set -eu
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: rows.sh N [DIR]" >&2
	exit 2
fi
n=$1
case $n in ''|*[!0-9]*|0) echo "rows.sh: N: a positive integer, not '$n'" >&2; exit 2 ;; esac
rep=${REPEAT:-5}
case $rep in ''|*[!0-9]*|0) echo "rows.sh: REPEAT: a positive integer, not '$rep'" >&2; exit 2 ;; esac
top=$(cd "$(dirname "$0")/.." && pwd)
mr=${MEMREPRO:-$top/build/memrepro}
exp=$top/tests/data/expected
if [ $# -eq 2 ]; then
	dir=$2
	[ ! -e "$dir" ] || { echo "rows.sh: $dir exists" >&2; exit 2; }
	keep=1
else
	dir=$(mktemp -d)
	rmdir "$dir"
	keep=0
fi
mkdir -p "$dir"
[ "$keep" = 1 ] || trap 'rm -rf "$dir"' EXIT
sed "s/^repeat\t.*/repeat\t$rep/" "$top/tests/data/results-regressed/env.tsv" > "$dir/env.tsv"
# config i (0..): fibers i/2+1, madvise dontneed for even i; repeats
# outermost, as a run writes them.
awk -v n="$n" -v rep="$rep" -v runs="$dir/runs.tsv" -v ck="$dir/checkpoints.tsv" 'BEGIN {
	OFS = "\t"
	print "case", "config", "repeat", "outcome", "detail", "wall_ms", "maxrss_kb", "log" > runs
	print "case", "config", "repeat", "checkpoint", "seq", "t_ms", "rss_kb" > ck
	ncfg = int((n + rep - 1) / rep)
	for (r = 1; r <= rep; r++)
		for (i = 0; i < ncfg && (r - 1) * ncfg + i < n; i++) {
			cfg = sprintf("allocator=glibc,fibers=%d,madvise=%s", int(i / 2) + 1,
				      i % 2 ? "free" : "dontneed")
			rss = i % 2 ? 150000 : 73000
			print "fixture-stacks", cfg, r, "ok", "-", 300 + r, 161000 + r, "-" > runs
			print "fixture-stacks", cfg, r, "created", 1, 75, 160000 + r > ck
			print "fixture-stacks", cfg, r, "cleared", 1, 150, rss + r > ck
		}
}'
[ "${GEN_ONLY:-0}" != 1 ] || exit 0
secs() {
	s=$(date +%s.%N)
	rc=0
	"$@" >/dev/null 2>"$dir.err" || rc=$?
	e=$(date +%s.%N)
	# exit 1: regressions (the baseline knows two configs of them all)
	if [ "$rc" -gt 1 ]; then
		echo "rows.sh: exit $rc:" "$@" >&2
		cat "$dir.err" >&2
		exit 1
	fi
	rm -f "$dir.err"
	echo "$s $e" | awk '{ printf "%.2f", $2 - $1 }'
}
c=$(secs "$mr" check --from "$dir" --expected "$exp")
if [ "${REPORT:-0}" = 1 ]; then
	r=$(secs "$mr" report --expected "$exp" "$dir")
	printf '%s\t%s\t%s\n' "$n" "$c" "$r"
else
	printf '%s\t%s\n' "$n" "$c"
fi
