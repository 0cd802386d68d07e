#!/bin/sh
# readers.sh [N...]: what check --from costs at N rows (default 20000
# 200000 1000000), with the fixture's claims and baseline
# (tests/data/expected) and without any expectations (an empty
# directory): the reading alone.  The results are bench/rows.sh's
# synthetic directory (fixture-stacks, 5 repeats, two checkpoints a run).
# Prints the load (uptime) first, then a line per size and expectation:
# rows, claims|none, wall seconds, user+sys seconds, max RSS in KiB
# (/usr/bin/time).  MEMREPRO picks the binary.  Benchmarks print figures;
# not part of make check.  A shared machine's wall time is the load's:
# user+sys is the figure that compares.
#
#   sh bench/readers.sh
#   sh bench/readers.sh 50000 500000
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
mr=${MEMREPRO:-$top/build/memrepro}
[ $# -gt 0 ] || set -- 20000 200000 1000000
for n in "$@"; do
	case $n in ''|*[!0-9]*|0) echo "readers.sh: N: a positive integer, not '$n'" >&2; exit 2 ;; esac
done
[ -x /usr/bin/time ] || { echo "readers.sh: needs GNU time (/usr/bin/time)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/none"
echo "load: $(uptime)"
printf 'rows\texpect\twall_s\tcpu_s\tmaxrss_kib\n'
for n in "$@"; do
	GEN_ONLY=1 sh "$top/bench/rows.sh" "$n" "$tmp/d$n" >/dev/null
	for exp in claims none; do
		e=$tmp/none
		[ "$exp" = none ] || e=$top/tests/data/expected
		rc=0
		/usr/bin/time -o "$tmp/time" -f '%e %U %S %M' \
			"$mr" check --from "$tmp/d$n" --expected "$e" >/dev/null 2>"$tmp/err" || rc=$?
		# exit 1: regressions (the fixture's baseline knows two configs)
		if [ "$rc" -gt 1 ]; then
			echo "readers.sh: exit $rc at $n rows ($exp):" >&2
			cat "$tmp/err" >&2
			exit 1
		fi
		# (its last line: a first says "Command exited with non-zero status")
		tail -n 1 "$tmp/time" |
		awk -v n="$n" -v x="$exp" '{ printf "%s\t%s\t%.2f\t%.2f\t%s\n", n, x, $1, $2 + $3, $4 }'
	done
	rm -rf "$tmp/d$n"
done
