#!/bin/sh
# treescan.sh: the cost of one sample's scan of a run's process tree
# (bench/treescan.c: mr_tree_case over N children in the run's cgroup),
# for N = 1, 10, 100 and 1000 children: the median of ROUNDS runs of
# SAMPLES scans each, in nanoseconds per scan.  Builds the runner's
# objects first (make).  Not part of make check: it prints figures.
#
#   sh bench/treescan.sh                     cgroup path
#   MEMREPRO_CGROUP=0 sh bench/treescan.sh   the walk of the descendants
#   ROUNDS=5 SAMPLES=20000 CHILDREN="1 100"  (the defaults: 5, 20000,
#                                            "1 10 100 1000")
set -eu
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-5}
SAMPLES=${SAMPLES:-20000}
CHILDREN=${CHILDREN:-1 10 100 1000}
tmp=$(mktemp -d /tmp/memrepro-treescan.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
make -s build/memrepro >/dev/null
# shellcheck disable=SC2046 # the object list is meant to split
cc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Ilib -Irunner -o "$tmp/treescan" bench/treescan.c \
	$(find build/runner -name '*.o' ! -name main.o | LC_ALL=C sort) build/libmr.a -ldl -lm

printf '%-9s %14s %s\n' children ns_per_scan via
for n in $CHILDREN; do
	r=0
	: >"$tmp/ns"
	while [ "$r" -lt "$ROUNDS" ]; do
		"$tmp/treescan" "$n" "$SAMPLES" >"$tmp/out"
		awk '{ print $6 }' "$tmp/out" >>"$tmp/ns"
		via=$(awk '{ print $8 }' "$tmp/out")
		r=$((r + 1))
	done
	med=$(sort -g "$tmp/ns" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
	printf '%-9s %14s %s\n' "$n" "$med" "$via"
done
