#!/bin/sh
# records.sh [--timeout S] [N...]: how many checkpoint records a second
# the runner measures.  Runs the fixture tests/fixtures/many (n
# checkpoints back to back, nothing else) once for each N (default 20000
# and 200000) and prints, per N: the run's time from fork to end
# (wall_ms + pause_ms of runs.tsv), the records measured (rows of
# checkpoints.tsv: fewer than N when the run timed out) and how many a
# second, the time
# the case stood still while the runner measured it (pause_ms), the
# runner's own CPU time per record (its user and sys, less the case's:
# on a busy machine a steadier figure than the rate), the outcome and its
# detail.  A timeout (default 600 s) ends a run that
# cannot keep up.  Not part of make check (benchmarks print figures;
# tests assert).
#
#   sh bench/records.sh 20000 200000
set -eu
TIMEOUT=600
if [ "${1:-}" = --timeout ]; then
	TIMEOUT=$2
	shift 2
fi
case $TIMEOUT in '' | *[!0-9]* | 0) echo "records.sh: --timeout $TIMEOUT: want whole seconds, 1 or more" >&2; exit 2 ;; esac
[ $# -gt 0 ] || set -- 20000 200000
ROOT=$(cd "$(dirname "$0")/.." && pwd)
MR=${MEMREPRO:-$ROOT/build/memrepro}
FIX=$ROOT/build/fixtures
for f in "$MR" "$FIX/many"; do
	[ -x "$f" ] || { echo "records.sh: $f: not built (make all)" >&2; exit 2; }
done
OUT=$(mktemp -d "${TMPDIR:-/tmp}/records.XXXXXX")
trap 'rm -rf "$OUT"' EXIT

# cpu_ms: the CPU time (user + sys, ms) of this shell's waited-for
# children so far, from `times` ("0m1.250000s 0m0.500000s", 2nd line):
# run in this shell (a subshell's children are not ours), read by awk
cpu_ms() {
	times >"$OUT/times"
	awk 'NR == 2 {
		t = 0
		for (i = 1; i <= 2; i++) { split($i, a, "m"); sub("s", "", a[2]); t += a[1] * 60 + a[2] }
		printf "%.0f\n", t * 1000
	}' "$OUT/times"
}

printf 'n\trun_s\trecords\trecords_per_s\tpause_s\trunner_cpu_us_per_record\toutcome\tdetail\n'
for n in "$@"; do
	case $n in '' | *[!0-9]* | 0) echo "records.sh: $n: want a number of checkpoints, 1 or more" >&2; exit 2 ;; esac
	d=$OUT/n$n
	cpu_ms >"$OUT/c0"
	"$MR" run -q --cases "$FIX" --out "$d" --axis allocator=glibc --axis "n=$n" \
		--repeat 1 --timeout "$TIMEOUT" many >"$d.log" 2>&1 || true
	[ -f "$d/runs.tsv" ] || { echo "records.sh: n=$n wrote no results; see $d.log" >&2; cat "$d.log" >&2; exit 1; }
	cpu_ms >"$OUT/c1"
	c0=$(cat "$OUT/c0") c1=$(cat "$OUT/c1")
	rows=$(($(wc -l <"$d/checkpoints.tsv") - 1))
	awk -F'\t' -v n="$n" -v rows="$rows" -v cpu=$((c1 - c0)) '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{
			ms = $(c["wall_ms"]) + $(c["pause_ms"])
			own = cpu - $(c["user_ms"]) - $(c["sys_ms"])
			printf "%d\t%.2f\t%d\t%.0f\t%.2f\t%.1f\t%s\t%s\n", n, ms / 1000,
			       rows, ms ? rows * 1000 / ms : 0, $(c["pause_ms"]) / 1000,
			       rows ? own * 1000 / rows : 0,
			       $(c["outcome"]), $(c["detail"])
		}' "$d/runs.tsv"
done
