#!/usr/bin/env bats
# tools/hguards.sh, the lint's check that each header's include guard
# names its header (make lint).

load test_helper

# hdr FILE GUARD [DEFINE]: a header of that guard (defined as DEFINE).
hdr() {
	mkdir -p "$(dirname "$1")"
	printf '/* a header */\n#ifndef %s\n#define %s\n\nint x;\n\n#endif\n' "$2" "${3:-$2}" >"$1"
}

@test "hguards: a guard of another file, a guard twice, a #define of another name and none are named" {
	local s=$BATS_TEST_TMPDIR/src
	hdr "$s/check/check.h" MR_COMPARE_H
	hdr "$s/check/bless.h" MR_CHECK_BLESS_H
	hdr "$s/out/bless.h" MR_OUT_BLESS_H
	hdr "$s/out/compare.h" MR_COMPARE_H
	hdr "$s/lib/mr_proc.h" MR_PROC_H
	hdr "$s/results/write.h" MR_WRITE_H MR_RESULTS_H
	hdr "$s/results/read.h" MR_READ_H
	hdr "$s/run/proc.h" MR_PROC_H
	printf 'int y;\n' >"$s/run/bare.h"
	run -1 sh "$ROOT/tools/hguards.sh" "$s"
	[ "${lines[0]}" = "$s/check/check.h: guard MR_COMPARE_H, want MR_CHECK_H or MR_<PREFIX>_CHECK_H" ]
	[ "${lines[1]}" = "$s/results/write.h: #ifndef MR_WRITE_H is not followed by #define MR_WRITE_H" ]
	[ "${lines[2]}" = "$s/run/bare.h: no include guard (want MR_BARE_H)" ]
	[ "${lines[3]}" = "$s/run/proc.h: guard MR_PROC_H is $s/lib/mr_proc.h's too" ]
	[ "${lines[4]}" = "4 headers with a bad include guard (tools/hguards.sh)" ]
	[ "${#lines[@]}" -eq 5 ]
}

@test "hguards: the runner's and lib's headers each have their own guard" {
	cd "$ROOT"
	run -0 sh tools/hguards.sh runner lib
	[ -z "$output" ]
}
