#!/usr/bin/env bats
# The reader of /proc/PID/task/TID/children (lib/mr_proc.c): its parser at
# every chunk boundary against a plain reference, its file reader, and the
# children of a real process listed exactly once each.  A number cut by a
# read boundary once became two pids, which the runner then killed.

load test_helper

UNIT="$ROOT/${MEMREPRO_BUILD:-build}/unit"

@test "children-file parser: pids of every length cut at every chunk boundary match the reference" {
	run -0 timeout -k 5 $((120 * SLOW)) "$UNIT/pidlist" chunks
	[[ "$output" == *"ok chunks: "* ]] || false
	[[ "$output" == *"ok random: "* ]] || false
	[[ "$output" != *FAIL* ]] || false
}

@test "children-file parser: empty, separators only, 0, 1, leading zeros, out of range, junk bytes, the byte bound" {
	run -0 timeout -k 5 $((120 * SLOW)) "$UNIT/pidlist" edges
	[[ "$output" == *"ok edges: "* ]] || false
}

@test "children-file reader: files cut by its reads, a 0 in a file, a missing file, a directory, /dev/zero, a silent FIFO" {
	run -0 timeout -k 5 $((60 * SLOW)) "$UNIT/pidlist" files "$BATS_TEST_TMPDIR"
	[[ "$output" == *"ok files: "* ]] || false
}

@test "500 children are listed exactly once each" {
	run -0 timeout -k 5 $((120 * SLOW)) "$UNIT/children" 500 20
	[ "$output" = "500 children listed exactly once each in 20 scans" ]
}

@test "a single child is listed, and nothing else" {
	run -0 timeout -k 5 $((60 * SLOW)) "$UNIT/children" 1 5
	[ "$output" = "1 children listed exactly once each in 5 scans" ]
}
