#!/usr/bin/env bats
# A baseline row of wait4's peak (maxrss_kb) is judged with at least
# 8 MiB of tolerance (check/baseline.c, mr_bl_row_tol): the peak counts the runner's
# own resident pages at the fork, which move with the machine.

load test_helper

setup() {
	EXP=$BATS_TEST_TMPDIR/exp
	run -0 mrf run touch --repeat 1 --axis allocator=glibc --axis mb=8
	run -0 timeout -k 5 60 "$MR" bless --yes --from "$BATS_TEST_TMPDIR/out" --expected "$EXP" touch
	BL=$(find "$EXP" -name touch.tsv)
}

# The baseline's maxrss_kb row moved down by KIB, its tolerance 3072.
lower_by() {
	awk -F'\t' -v OFS='\t' -v d="$1" '
		!/^#/ && $3 == "maxrss_kb" { $4 -= d; $5 -= d; $6 -= d; $8 = 3072 } { print }' "$BL" > "$BL.new"
	mv "$BL.new" "$BL"
}

maxrss_line() {
	timeout -k 5 60 "$MR" check --from "$BATS_TEST_TMPDIR/out" --expected "$EXP" --verbose touch 2>&1 |
		grep 'maxrss_kb' || true
}

@test "a peak 5 MiB above its row of 3 MiB tolerance holds (8 MiB at least)" {
	lower_by 5120
	run maxrss_line
	[[ "$output" == *held* ]] || { echo "$output"; false; }
}

@test "a peak 20 MiB above its row regresses" {
	lower_by 20480
	run maxrss_line
	[[ "$output" == *regressed* ]] || { echo "$output"; false; }
}
