#!/usr/bin/env bats
# bless: what it is about to change, asking on a terminal, --yes.

load test_helper

setup() {
	EXP=$BATS_TEST_TMPDIR/expected
	R=$BATS_TEST_TMPDIR/r
	mkdir -p "$EXP"
	run -0 timeout -k 5 120 "$MR" run --cases "$FIX" --out "$R" --axis allocator=glibc --axis mb=32 --repeat 3 --quiet touch
	run -0 "$MR" bless --from "$R" --expected "$EXP"
	BASE=$(ls "$EXP"/*/touch.tsv)
}

# A copy of the results with rss_kb at the checkpoints scaled by $1.
scaled() {
	cp -R "$R" "$BATS_TEST_TMPDIR/s"
	awk -F'\t' -v OFS='\t' -v f="$1" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; print; next }
		{ $col["rss_kb"] = int($col["rss_kb"] * f); print }' "$R/checkpoints.tsv" > "$BATS_TEST_TMPDIR/s/checkpoints.tsv"
	echo "$BATS_TEST_TMPDIR/s"
}

# Run the runner on a pseudo-terminal, with stdin's text as the answer.
on_tty() {
	command -v script >/dev/null || skip "script(1) not installed (util-linux)"
	local answer=$1
	shift
	printf '%s\n' "$answer" | timeout -k 5 60 script -qec "$*" /dev/null
}

@test "a first bless says it writes a new baseline" {
	run -0 "$MR" bless --from "$R" --expected "$BATS_TEST_TMPDIR/fresh"
	[[ "$output" == *"new baseline"* ]] || false
	[[ "$output" == *"wrote"* ]] || false
}

@test "bless shows the rows that move beyond the old tolerance, then writes (stdin not a terminal)" {
	s=$(scaled 1.2)
	run -0 "$MR" bless --from "$s" --expected "$EXP" < /dev/null
	[[ "$output" == *"1 moved beyond the old tolerance"* ]] || false
	line=$(printf '%s\n' "$output" | grep '^  ~ ')
	[[ "$line" == *"rss_kb@touched  median "*" -> "*"(+20.0 %), tolerance"* ]] || false
	[[ "$output" == *"wrote $BASE"* ]] || false
	# the new median is in the file
	new=$(awk -F'\t' '$3 == "rss_kb" && $2 == "touched" { print $4 }' "$BASE")
	old=$(awk -F'\t' 'NR > 1 && $4 == "touched" { print $7 }' "$R/checkpoints.tsv" | sort -n | sed -n 2p)
	[ "$new" -gt "$old" ]
}

@test "an unchanged baseline is not rewritten" {
	before=$(stat -c %Y.%s "$BASE")
	sleep 1
	run -0 "$MR" bless --from "$R" --expected "$EXP"
	[[ "$output" == *"unchanged: not rewritten"* ]] || false
	[ "$(stat -c %Y.%s "$BASE")" = "$before" ]
}

@test "on a terminal bless asks, and writes nothing when the answer is no" {
	s=$(scaled 1.2)
	sum=$(md5sum < "$BASE")
	run -1 on_tty n "$MR" bless --from "$s" --expected "$EXP"
	[[ "$output" == *"write 1 baseline? [y/N]"* ]] || false
	[[ "$output" == *"nothing written"* ]] || false
	[ "$(md5sum < "$BASE")" = "$sum" ]
	run -0 on_tty y "$MR" bless --from "$s" --expected "$EXP"
	[[ "$output" == *"wrote $BASE"* ]] || false
	[ "$(md5sum < "$BASE")" != "$sum" ]
}

@test "bless --yes does not ask, even on a terminal" {
	s=$(scaled 1.2)
	run -0 on_tty n "$MR" bless --yes --from "$s" --expected "$EXP"
	[[ "$output" != *"[y/N]"* ]] || false
	[[ "$output" == *"wrote $BASE"* ]] || false
}
