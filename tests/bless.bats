#!/usr/bin/env bats
# bless: what it is about to change, asking on a terminal, --yes.

load test_helper

# The runs, made once for the file; each test blesses its own copy.
setup_file() {
	touch_runs "$BATS_FILE_TMPDIR/r"
}

setup() {
	EXP=$BATS_TEST_TMPDIR/expected
	R=$BATS_TEST_TMPDIR/r
	mkdir -p "$EXP"
	cp -R "$BATS_FILE_TMPDIR/r" "$R"
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

# Run the runner on a pseudo-terminal, with stdin's text as the answer;
# with no answer (""), stdin is at its end from the start (script(1)
# lingers 2 s over an answer nobody reads).
on_tty() {
	command -v script >/dev/null || skip "script(1) not installed (util-linux)"
	local answer=$1
	shift
	if [ -n "$answer" ]; then
		printf '%s\n' "$answer" | timeout -k 5 60 script -qec "$*" /dev/null
	else
		timeout -k 5 60 script -qec "$*" /dev/null < /dev/null
	fi
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
	# a rewrite is a new inode (temporary + rename) or, in place, a new
	# mtime: 0.1 s is many ticks of the file system's clock
	before=$(stat -c %i.%.9Y.%s "$BASE")
	sleep 0.1
	run -0 "$MR" bless --from "$R" --expected "$EXP"
	[[ "$output" == *"unchanged: not rewritten"* ]] || false
	[ "$(stat -c %i.%.9Y.%s "$BASE")" = "$before" ]
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
	run -0 on_tty "" "$MR" bless --yes --from "$s" --expected "$EXP"
	[[ "$output" != *"[y/N]"* ]] || false
	[[ "$output" == *"wrote $BASE"* ]] || false
}

# Where field $1 (1-based) of the cost_ms row of baseline $2 starts, as
# "LINE:COLUMN".
cost_at() {
	awk -F'\t' -v f="$1" '$3 == "cost_ms" {
		c = 1
		for (i = 1; i < f; i++) c += length($i) + 1
		print NR ":" c; exit }' "$2"
}

@test "bless writes each config's wall_ms as a cost_ms row, which check does not compare" {
	row=$(awk -F'\t' '$3 == "cost_ms"' "$BASE")
	echo "$row"
	# one config (mb=32): median, min and max of the three runs' wall_ms
	[ "$(printf '%s\n' "$row" | wc -l)" -eq 1 ]
	IFS=$'\t' read -r config ck metric median min max n tol <<< "$row"
	[ "$config" = allocator=glibc,mb=32 ]
	[ "$ck" = - ]
	[ "$metric" = cost_ms ]
	[ "$n" = 3 ]
	[ "$tol" = - ]
	walls=$(tsv_col "$R/runs.tsv" wall_ms | sort -n)
	[ "$median" = "$(sed -n 2p <<< "$walls")" ]
	[ "$min" = "$(head -n 1 <<< "$walls")" ]
	[ "$max" = "$(tail -n 1 <<< "$walls")" ]
	# The runs take far longer than a cost of 0 (and far less than 10^8):
	# neither is a regression nor an improvement, nor even a row of check.
	for cost in 0 100000000; do
		awk -F'\t' -v OFS='\t' -v c="$cost" '$3 == "cost_ms" { $4 = $5 = $6 = c } { print }' \
			"$BASE" > "$BASE.new"
		mv "$BASE.new" "$BASE"
		run -0 timeout -k 5 60 "$MR" check --from "$R" --expected "$EXP" --format tap
		[[ "$output" != *cost_ms* ]] || false
		! grep -E '^(not )?ok .* (improved|regressed)' <<< "$output" || false
		# a TAP line for every other row of the baseline
		rows=$(awk -F'\t' '!/^#/ && !/^config\t/ && $3 != "cost_ms"' "$BASE" | wc -l)
		[ "$(grep -c ': baseline ' <<< "$output")" -eq "$rows" ]
	done
}

@test "a baseline whose cost rows changed is rewritten, and bless says so" {
	awk -F'\t' -v OFS='\t' '$3 == "cost_ms" { $4 = 99999 } { print }' "$BASE" > "$BASE.new"
	mv "$BASE.new" "$BASE"
	run -0 "$MR" bless --from "$R" --expected "$EXP"
	[[ "$output" == *"cost_ms (what a run takes, not compared): 1 changed, 0 new, 0 gone"* ]] || false
	[[ "$output" == *"wrote $BASE"* ]] || false
	[ "$(awk -F'\t' '$3 == "cost_ms" { print $4 }' "$BASE")" != 99999 ]
}

@test "a malformed cost_ms row is exit 2 naming file:line:column" {
	cp "$BASE" "$BATS_TEST_TMPDIR/good"
	# a tolerance, as if it were compared
	at=$(cost_at 8 "$BATS_TEST_TMPDIR/good")
	awk -F'\t' -v OFS='\t' '$3 == "cost_ms" { $8 = 30 } { print }' "$BATS_TEST_TMPDIR/good" > "$BASE"
	run -2 --separate-stderr "$MR" check --from "$R" --expected "$EXP"
	[[ "$stderr" == "$BASE:$at: a cost_ms row is never compared: its tolerance must be -, got \"30\"" ]] || false
	# at a checkpoint
	at=$(cost_at 2 "$BATS_TEST_TMPDIR/good")
	awk -F'\t' -v OFS='\t' '$3 == "cost_ms" { $2 = "touched" } { print }' "$BATS_TEST_TMPDIR/good" > "$BASE"
	run -2 --separate-stderr "$MR" check --from "$R" --expected "$EXP"
	[[ "$stderr" == "$BASE:$at: a cost_ms row is what a whole run takes: its checkpoint must be -, got \"touched\"" ]] || false
	# negative
	at=$(cost_at 4 "$BATS_TEST_TMPDIR/good")
	awk -F'\t' -v OFS='\t' '$3 == "cost_ms" { $4 = -5 } { print }' "$BATS_TEST_TMPDIR/good" > "$BASE"
	run -2 --separate-stderr "$MR" check --from "$R" --expected "$EXP"
	[[ "$stderr" == "$BASE:$at: negative cost -5" ]] || false
	# twice for one config
	cp "$BATS_TEST_TMPDIR/good" "$BASE"
	first=$(cost_at 1 "$BATS_TEST_TMPDIR/good")
	grep $'\tcost_ms\t' "$BATS_TEST_TMPDIR/good" >> "$BASE"
	n=$(wc -l < "$BASE")
	run -2 --separate-stderr "$MR" check --from "$R" --expected "$EXP"
	[[ "$stderr" == "$BASE:$n:1: "*" cost_ms again (first on line ${first%:*})" ]] || false
}
