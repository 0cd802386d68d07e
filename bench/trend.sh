#!/bin/sh
# trend.sh [DIR DIR...]: what `compare` of the first two results
# directories and `trend` of all of them cost, charts included: wall
# seconds, user+sys seconds, max RSS in KiB (/usr/bin/time), and how many
# charts each wrote.  Without directories it makes two quick checks of the
# corpus first (about 9 minutes on 2 CPUs), as two nights of CI would.
# Prints the load (uptime) first: a shared machine's wall time is the
# load's, user+sys is the figure that compares.  MEMREPRO picks the
# binary.  Benchmarks print figures; not part of make check.
#
#   sh bench/trend.sh
#   sh bench/trend.sh results/a results/b results/c
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
mr=${MEMREPRO:-$top/build/memrepro}
[ -x /usr/bin/time ] || { echo "trend.sh: needs GNU time (/usr/bin/time)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
if [ $# -eq 0 ]; then
	for i in 1 2; do
		"$mr" check --profile quick -j "$(nproc)" -q --out "$tmp/r$i" >/dev/null 2>&1 || true
	done
	set -- "$tmp/r1" "$tmp/r2"
fi
[ $# -ge 2 ] || { echo "trend.sh: needs two results directories or none" >&2; exit 2; }
for d in "$@"; do
	[ -f "$d/runs.tsv" ] || { echo "trend.sh: $d: no runs.tsv" >&2; exit 2; }
done
echo "load: $(uptime)"
echo "runs: $(($(wc -l < "$1/runs.tsv") - 1)) and $(($(wc -l < "$2/runs.tsv") - 1)) rows"
printf 'command\tdirs\twall_s\tcpu_s\tmaxrss_kib\tcharts\n'
timed() {
	name=$1 n=$2 out=$3
	shift 3
	rc=0
	/usr/bin/time -o "$tmp/time" -f '%e %U %S %M' "$@" >/dev/null 2>"$tmp/err" || rc=$?
	# (neither exits non-zero for a change: only --fail-on would)
	if [ "$rc" -ne 0 ]; then
		echo "trend.sh: $name exit $rc:" >&2
		cat "$tmp/err" >&2
		exit 1
	fi
	charts=$(find "$out" -name '*.png' | wc -l)
	tail -n 1 "$tmp/time" | awk -v c="$name" -v n="$n" -v k="$charts" \
		'{ printf "%s\t%s\t%.2f\t%.2f\t%s\t%s\n", c, n, $1, $2 + $3, $4, k }'
}
timed compare 2 "$tmp/compare" "$mr" compare --out "$tmp/compare" "$1" "$2"
timed trend $# "$tmp/trend" "$mr" trend --out "$tmp/trend" "$@"
