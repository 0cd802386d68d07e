#!/usr/bin/env bats
# two-allocators-strand (python/cpython#156159): a C extension's buffers
# freed to glibc stay resident below a kept block; objects from malloc (the
# GIL build) reuse them, objects from an allocator of their own (the
# free-threaded build's mimalloc) take new pages; malloc_trim(0) first
# (TRIM=1) gives them back.

load test_helper

# the case's summary line, small: objects=$1 trim=$2
summary() {
	timeout -k 5 60 "$CASES/two-allocators-strand" --param strand_mb=8 --param obj_mb=8 \
		--param objects="$1" --param trim="$2" | grep '^two-allocators-strand: '
}

@test "two-allocators-strand: describe names its report, mechanism and the two axes" {
	run -0 "$MR" describe two-allocators-strand
	[[ "$output" == *"python/cpython#156159"* ]] || false
	[[ "$output" == *retention* ]] || false
	[[ "$output" == *"malloc|arena"* ]] || false
	[[ "$output" == *"none|malloc_trim"* ]] || false
	run -2 "$CASES/two-allocators-strand" --param obj_b=512
	[[ "$output" == *obj_b* ]] || false
}

@test "two-allocators-strand: glibc counts the stranded buffers as free in its heap, after malloc_trim too" {
	for t in none malloc_trim; do
		line=$(summary arena "$t")
		echo "$line"
		read -r arena free < <(sed -n 's/.*glibc arena \([0-9]*\) KiB, free \([0-9]*\) KiB;.*/\1 \2/p' <<<"$line")
		[[ $arena -ge $((8 * 1024)) ]] || false
		[[ $free -ge $((arena * 9 / 10)) ]] || false
		[[ "$line" == *"from their own allocator (1 chunks mapped)"* ]] || false
	done
	line=$(summary malloc none)
	[[ "$line" == *"from malloc (0 chunks mapped)"* ]] || false
}

@test "two-allocators-strand: quick, under glibc, every claim holds" {
	run -0 timeout -k 5 120 "$MR" run --out "$BATS_TEST_TMPDIR/out" --repeat 1 --profile quick \
		--axis allocator=glibc --axis runtime=c two-allocators-strand
	run -0 "$MR" check --from "$BATS_TEST_TMPDIR/out" two-allocators-strand
	[[ "$output" == *"two-allocators-strand: 5 claims held, 0 reproduces, 0 regressed"* ]] || false
}

@test "two-allocators-strand: buffers glibc mmaps are not stranded, and the claims say so" {
	run -0 timeout -k 5 120 "$MR" run --out "$BATS_TEST_TMPDIR/out" --repeat 1 --profile quick \
		--axis allocator=glibc --axis runtime=c --axis glibc.malloc.mmap_threshold=4096 two-allocators-strand
	run ! "$MR" check --from "$BATS_TEST_TMPDIR/out" two-allocators-strand
	[[ "$output" == *"strand-kept"*regressed* ]] || false
	[[ "$output" == *"ft-trim-halves"*regressed* ]] || false
}

# --- the original (cases/two-allocators-strand.py) ---

@test "two-allocators-strand.py: objects=arena runs under mimalloc from 3.13 on, and is skipped before" {
	command -v python3 > /dev/null || skip "no python3 on this machine"
	run timeout -k 5 60 env MEMREPRO_OBJECTS=arena python3 -S "$ROOT/cases/two-allocators-strand.py" \
		--param strand_mb=4 --param obj_mb=4
	if python3 -c 'import sys; sys.exit(sys.version_info < (3, 13))'; then
		[ "$status" -eq 0 ] || false
		[[ "${lines[0]}" == "mimalloc: start "* ]] || false
		[[ "$output" == *"mimalloc: phase 2, 4194 objects of 1000 bytes"* ]] || false
	else
		[ "$status" -eq 4 ] || false
		[[ "${lines[-1]}" == "skipped: Python 3."*" has no mimalloc (PYTHONMALLOC=mimalloc is 3.13's)" ]] || false
	fi
	run -0 timeout -k 5 60 env MEMREPRO_OBJECTS=malloc python3 -S "$ROOT/cases/two-allocators-strand.py" \
		--param strand_mb=4 --param obj_mb=4
	[[ "${lines[0]}" == "pymalloc: start "* ]] || false
}

@test "two-allocators-strand: the original beside the model on Debian's 3.13, quick, under glibc: every claim holds" {
	needs_network
	run -0 timeout -k 5 600 "$MR" run --out "$BATS_TEST_TMPDIR/out" --repeat 1 --profile quick \
		--axis allocator=glibc --axis runtime=c,python@3.13 two-allocators-strand
	run -0 "$MR" check --from "$BATS_TEST_TMPDIR/out" two-allocators-strand
	[[ "$output" == *"two-allocators-strand: 8 claims held, 0 reproduces, 0 regressed"* ]] || false
}
