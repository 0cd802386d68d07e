#!/bin/sh
# treescan.sh: the cost of one sample's scan of a run's process tree
# (bench/treescan.c: mr_tree_case over N children in the run's cgroup),
# for N = 1, 10, 100 and 1000 children: the median of ROUNDS runs of
# SAMPLES scans each, in nanoseconds per scan: wall time, user CPU time
# (the runner's own code) and system CPU time (the kernel's); with BEFORE,
# the ratios after/before of the user time and of the CPU time in all.  With BEFORE=REV, the same
# program is also built against the runner of commit REV (exported with
# git archive, built apart) and the two are run in turn, round by round,
# so that a busy machine weighs on both.  Not part of make check: it
# prints figures.
#
#   sh bench/treescan.sh                     this tree, cgroup path
#   BEFORE=main sh bench/treescan.sh         main beside this tree
#   MEMREPRO_CGROUP=0 sh bench/treescan.sh   the walk of the descendants
#   ROUNDS=5 SAMPLES=5000 CHILDREN="1 10 100 1000"   (the defaults)
set -eu
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-5}
SAMPLES=${SAMPLES:-5000}
CHILDREN=${CHILDREN:-1 10 100 1000}
BEFORE=${BEFORE:-}
tmp=$(mktemp -d /tmp/memrepro-treescan.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# build TREE OUT: bench/treescan.c linked with the runner objects of TREE
build() {
	make -s -C "$1" build/memrepro >/dev/null
	# shellcheck disable=SC2046 # the object list is meant to split
	cc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -I"$1/lib" -I"$1/runner" -o "$2" bench/treescan.c \
		$(find "$1/build/runner" -name '*.o' ! -name main.o | LC_ALL=C sort) "$1/build/libmr.a" -ldl -lm
}
build . "$tmp/after"
progs=after
if [ -n "$BEFORE" ]; then
	mkdir "$tmp/src"
	git archive "$BEFORE" | tar -x -C "$tmp/src"
	build "$tmp/src" "$tmp/before"
	progs="before after"
fi

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0) ? a / b : 0 }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# fig PROG COLUMN: the median of that column of PROG's rounds
fig() { awk -v c="$2" '{ print $c }' "$tmp/out.$1" | median; }

if [ -n "$BEFORE" ]; then
	printf '%-8s %10s %10s %10s %10s %10s %10s %7s %7s  %s\n' children \
		wall_before wall_after user_before user_after sys_before sys_after \
		user cpu via
else
	printf '%-8s %10s %10s %10s  %s\n' children wall_ns user_ns sys_ns via
fi
for n in $CHILDREN; do
	for p in $progs; do : >"$tmp/out.$p"; done
	r=0
	while [ "$r" -lt "$ROUNDS" ]; do
		for p in $progs; do
			"$tmp/$p" "$n" "$SAMPLES" >>"$tmp/out.$p"
		done
		r=$((r + 1))
	done
	via=$(awk '{ v = $8 } END { print v }' "$tmp/out.after")
	aw=$(fig after 6) au=$(fig after 10) as=$(fig after 12)
	if [ -n "$BEFORE" ]; then
		bw=$(fig before 6) bu=$(fig before 10) bs=$(fig before 12)
		printf '%-8s %10s %10s %10s %10s %10s %10s %7s %7s  %s\n' "$n" "$bw" "$aw" "$bu" "$au" \
			"$bs" "$as" "$(ratio "$au" "$bu")" "$(ratio $((au + as)) $((bu + bs)))" "$via"
	else
		printf '%-8s %10s %10s %10s  %s\n' "$n" "$aw" "$au" "$as" "$via"
	fi
done
