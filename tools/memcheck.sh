#!/bin/sh
# memcheck.sh: valgrind's memcheck over the runner (make memcheck).
#
# Usage: tools/memcheck.sh BUILD_DIR
# Runs the runner under memcheck through what it does: list, describe,
# usage errors, runs of every fixture (crash, hang, leftovers, floods,
# junk records, a memory cap) and of a real case (fiber-stacks, small) with
# the pressure axis, -j, check and bless from results, bad input, an
# interrupted run and its --resume.  Every error and every definite or
# indirect leak is a failure (exit status 99 from valgrind); the cases
# themselves are not traced (they are the measured programs).
set -u

b=$1
mr=$b/memrepro
fix=$b/fixtures
tmp=$(mktemp -d "${TMPDIR:-/tmp}/memrepro-memcheck.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0

# Did valgrind report anything?  Its notices ("--PID-- WARNING: unhandled
# syscall 434": pidfd_open, which the runner does without) are not reports.
reported() {
	grep -qv '^--[0-9]*-- ' "$1"
}

# vg WANT_STATUS ARGS...: the runner under memcheck; its own exit status
# must be WANT_STATUS (valgrind's 99 means errors or leaks).
vg() {
	want=$1
	shift
	n=$((n + 1))
	timeout -k 10 300 valgrind -q --error-exitcode=99 --leak-check=full \
		--show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect \
		--child-silent-after-fork=yes --trace-children=no \
		--log-file="$tmp/vg.$n.log" "$mr" "$@" >"$tmp/out.$n" 2>&1
	st=$?
	if [ "$st" -ne "$want" ] || reported "$tmp/vg.$n.log"; then
		echo "memcheck: FAILED (status $st, want $want): memrepro $*" >&2
		cat "$tmp/vg.$n.log" >&2
		tail -n 20 "$tmp/out.$n" >&2
		fail=1
	else
		echo "memcheck: ok (status $st): memrepro $*"
	fi
}

vg 0 list --cases "$fix"
vg 0 describe --cases "$fix" ok --axis mode=a,b
vg 0 --help
vg 2 run --cases "$fix" --repeat 0 ok
vg 2 run --cases "$fix" ok --axis mode=a --axis mode=b
vg 2 run --cases "$fix" ../x
vg 1 run --cases "$fix" --out "$tmp/fixtures" --repeat 1 --timeout 2 --mem-cap 48 \
	--axis allocator=glibc,jemalloc --axis how=segv,abort --axis mb=8 --axis records=300 \
	--axis procs=1,3 crash fail hang hog junk noack ok orphan skip spew touch
# the process tree: many children, a respawning chain, a daemonised
# grandchild (killed through the run's cgroup and its children); a glibc
# tunable the loader does not list
vg 0 run --cases "$fix" --out "$tmp/tree" --repeat 1 --axis allocator=glibc \
	--axis mode=sleep,chain,daemon --axis n=60 --axis mb=1 forks
vg 2 run --cases "$fix" ok --axis glibc.malloc.no_such_tunable=1
# -j: the runner's workers (forks of it, under memcheck too) and the
# results they send back
vg 1 run --cases "$fix" --out "$tmp/jobs" --repeat 2 --timeout 2 -j 2 \
	--axis allocator=glibc --axis how=segv --axis mb=8 crash hang ok orphan touch
vg 0 run fiber-stacks --out "$tmp/real" --repeat 1 --axis allocator=glibc \
	--axis madvise=free,dontneed --axis fibers=2000 --axis iterations=2 \
	--axis work_mb=16 --axis pressure=none,64
mkdir -p "$tmp/none"
vg 1 check --from "$tmp/fixtures" --expected "$tmp/none"
vg 2 check --from "$tmp/fixtures" --expected "$tmp/no-such-dir"
vg 0 check --from tests/data/results-held --expected tests/data/expected
vg 1 check --from tests/data/results-regressed --expected tests/data/expected
vg 2 check --from tests/data/results-held --expected tests/data/bad-claims/operator
vg 2 check --from tests/data/bad-results/cut-short --expected tests/data/expected
vg 0 bless --from "$tmp/real" --expected "$tmp/blessed"
vg 0 check --from "$tmp/real" --expected "$tmp/blessed"
# the formats, the report (gnuplot is a child: not traced), compare, trend
for f in tap junit json; do
	vg 1 check --from tests/data/results-regressed --expected tests/data/expected --format "$f" -v
done
vg 0 report --expected "$tmp/blessed" "$tmp/real"
# the fixtures fail by design: report exits 1 as check does
vg 1 report --cases "$fix" --expected "$tmp/none" "$tmp/fixtures"
vg 0 compare --out "$tmp/cmp" -v "$tmp/real" "$tmp/real"
# one repeat a side: too few to call a change, so nothing fails
vg 0 compare --out "$tmp/cmp2" --fail-on 0 tests/data/results-held tests/data/results-regressed
vg 0 trend --out "$tmp/trend" -v "$tmp/real" "$tmp/real" "$tmp/fixtures"
vg 2 report --from "$tmp/nothing-here"
# interrupted (SIGINT from timeout), then resumed
n=$((n + 1))
timeout --preserve-status -s INT 3 valgrind -q --error-exitcode=99 --leak-check=full \
	--show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect \
	--child-silent-after-fork=yes --log-file="$tmp/vg.$n.log" \
	"$mr" run --cases "$fix" --out "$tmp/int" --repeat 4 --axis allocator=glibc --axis ms=300 nap >"$tmp/out.$n" 2>&1
st=$?
if [ "$st" -ne 130 ] || reported "$tmp/vg.$n.log"; then
	echo "memcheck: FAILED (status $st, want 130): interrupted run" >&2
	cat "$tmp/vg.$n.log" "$tmp/out.$n" >&2
	fail=1
else
	echo "memcheck: ok (status $st): interrupted run"
fi
vg 0 run --resume "$tmp/int"
[ "$fail" -eq 0 ] && echo "memcheck: $n runner invocations, no error, no leak"
exit $fail
