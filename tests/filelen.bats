#!/usr/bin/env bats
# tools/filelen.sh, the lint's limit of 600 lines a file (make lint).

load test_helper

@test "filelen: a file over the limit is named and fails the lint" {
	mkdir -p "$BATS_TEST_TMPDIR/src/sub"
	seq 601 >"$BATS_TEST_TMPDIR/src/sub/long.c"
	seq 600 >"$BATS_TEST_TMPDIR/src/short.c"
	seq 700 >"$BATS_TEST_TMPDIR/src/notes.txt"
	run -1 sh "$ROOT/tools/filelen.sh" -n 600 "$BATS_TEST_TMPDIR/src"
	[ "${lines[0]}" = "$BATS_TEST_TMPDIR/src/sub/long.c: 601 lines" ]
	[ "${lines[1]}" = "1 file over 600 lines (tools/filelen.sh)" ]
	[ "${#lines[@]}" -eq 2 ]
}

@test "filelen: the runner and lib are within 600 lines a file" {
	cd "$ROOT"
	run -0 sh tools/filelen.sh runner lib
	[ -z "$output" ]
}
