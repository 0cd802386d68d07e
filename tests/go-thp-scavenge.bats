#!/usr/bin/env bats
# go-thp-scavenge (golang/go#64332, #61718): the scavenger's holes inside
# huge pages, refilled by khugepaged's pass (MADV_COLLAPSE stands in for
# it) unless the runtime marked the scavenged chunks MADV_NOHUGEPAGE, as
# Go 1.21.0 did.  Needs MADV_COLLAPSE (Linux >= 6.1): skipped without it.

load test_helper

# the case's summary line: go=$1 khugepaged=$2, a 16 MiB heap
summary() {
	run timeout -k 5 60 "$CASES/go-thp-scavenge" --param go="$1" --param khugepaged="$2" \
		--param heap_mb=16
	if [[ "$output" == *"skipped: madvise(MADV_COLLAPSE)"* ]]; then
		skip "no MADV_COLLAPSE on this kernel"
	fi
	[ "$status" -eq 0 ]
	grep '^go-thp-scavenge: ' <<<"$output"
}

@test "go-thp-scavenge: unmarked huge pages collapse back, marked ones and no pass do not" {
	summary 1.21.4 collapse
	[[ "$output" == *"go=1.21.4: 16 MiB heap, 10 % live: "*" runs returned, 8 of 8 huge pages collapsed back"* ]] || false
	summary 1.21.0 collapse
	[[ "$output" == *", 0 of 8 huge pages collapsed back"* ]] || false
	summary 1.21.4 off
	[[ "$output" == *", 0 of 8 huge pages collapsed back"* ]] || false
}

@test "go-thp-scavenge: the claims hold, and the scavenger's fails on a dense heap" {
	out=$BATS_TEST_TMPDIR/c
	run timeout -k 5 120 "$MR" check go-thp-scavenge --profile quick --out "$out" --repeat 1 \
		--axis allocator=glibc
	echo "$output"
	if [[ "$output" == *"MADV_COLLAPSE"* && "$output" != *"unmarked-refilled           held"* ]]; then
		skip "no MADV_COLLAPSE on this kernel"
	fi
	[ "$status" -eq 0 ]
	[[ "$output" == *"4 claims held, 0 reproduces, 0 regressed, 3 skipped"* ]] || false
	# anon_huge_kb: the refilled heap is huge pages again
	huge=$(tsv_col "$out/checkpoints.tsv" anon_huge_kb \
		'$(idx["checkpoint"]) == "collapsed" && $(idx["config"]) ~ /go=1.21.4,.*khugepaged=collapse/')
	[ "$huge" -ge $((30 * 1024)) ]
	# 90 % of each 2 MiB live: the scavenger returns too little for its claim
	run timeout -k 5 120 "$MR" check go-thp-scavenge --profile quick --out "$BATS_TEST_TMPDIR/d" \
		--repeat 1 --axis allocator=glibc --axis live_pct=90
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" =~ scavenger-returns\ +regressed ]] || false
}

@test "go-thp-scavenge: heap_mb must be whole huge pages" {
	run -2 "$CASES/go-thp-scavenge" --param heap_mb=3
	[ "$output" = "go-thp-scavenge: heap_mb=3 is not a multiple of 2 (whole huge pages)" ]
}
