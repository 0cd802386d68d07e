#!/usr/bin/env bats
# --shard K/N and merge: N shards merged give what one unsharded run gives.

load test_helper

setup() {
	EXP=$BATS_TEST_TMPDIR/expected
	mkdir -p "$EXP"
	printf '%s\n' \
		'more-is-more holds rss_kb@done[mode=a] < rss_kb@done[mode=c] "fixture: 8 MiB < 32 MiB"' \
		'small holds rss_kb@done < 20480 "fixture: only a and b are small"' \
		'old-report reported rss_kb@done[mode=c] < rss_kb@done[mode=a] "fixture: contradicted"' > "$EXP/ok.claims"
}

# shard K/N [OPTIONS]: run shard K of N of the fixtures ok and touch into
# s<K> of the test's tmpdir (of the file's in setup_file).
shard() {
	timeout -k 5 120 "$MR" run --cases "$FIX" --axis allocator=glibc --repeat 2 -q \
		--shard "$1" --out "${BATS_TEST_TMPDIR:-$BATS_FILE_TMPDIR}/s${1%/*}" "${@:2}" ok touch
}

# Shards 1/2 and 2/2, run once for the file (side by side, as CI jobs
# would be): most tests only read them.
setup_file() {
	local one
	# (fd 3 closed: bats waits for whoever holds it)
	shard 1/2 >/dev/null 3>&- &
	one=$!
	shard 2/2 >/dev/null
	wait "$one"
}

# The file's shards 1/2 and 2/2, copied to s1 and s2 of the test's tmpdir.
shards() {
	cp -R "$BATS_FILE_TMPDIR/s1" "$BATS_FILE_TMPDIR/s2" "$BATS_TEST_TMPDIR/"
}

# The verdicts of check --from DIR as "case claim verdict" lines, sorted
# (the figures differ from run to run; the verdicts may not).
verdicts() {
	timeout -k 5 60 "$MR" check --from "$1" --expected "$EXP" --format tap |
		grep -E '^(not )?ok ' | sed 's/^\(not ok\|ok\) [0-9]* /\1 /' | sort
}

@test "bad --shard values are exit 2 naming the parameter" {
	for v in 0/2 3/2 x 1/0 2 1/2/3 -1/2; do
		run -2 "$MR" run --cases "$FIX" --shard "$v" ok
		[[ "$output" == *"--shard '$v'"* ]] || false
	done
}

@test "the shards split the pairs evenly, each once, and record shard in env.tsv" {
	shards
	d=$BATS_TEST_TMPDIR
	[ "$(tsv_col "$d/s1/env.tsv" value '$1 == "shard"')" = 1/2 ]
	[ "$(tsv_col "$d/s2/env.tsv" value '$1 == "shard"')" = 2/2 ]
	# 4 pairs (ok: mode a, b, c; touch), 2 each, every repeat of a pair in one shard
	[ "$(tsv_col "$d/s1/env.tsv" value '$1 == "shard.pairs"')" = 2/4 ]
	a=$(tsv_col "$d/s1/runs.tsv" config | sort -u)
	b=$(tsv_col "$d/s2/runs.tsv" config | sort -u)
	[ "$(printf '%s\n' "$a" | wc -l)" -eq 2 ]
	[ -z "$(comm -12 <(echo "$a") <(echo "$b"))" ]
	[ "$(tsv_col "$d/s1/runs.tsv" config | wc -l)" -eq 4 ]
}

@test "two shards merged give the verdicts of one unsharded run" {
	shards
	d=$BATS_TEST_TMPDIR
	run -0 timeout 60 "$MR" merge --out "$d/m" "$d/s1" "$d/s2"
	run -0 timeout -k 5 120 "$MR" run --cases "$FIX" --axis allocator=glibc --repeat 2 -q \
		--out "$d/whole" ok touch
	[ "$(tsv_col "$d/m/runs.tsv" case | wc -l)" -eq 8 ]
	! grep -q $'^shard\t' "$d/m/env.tsv" || false
	grep -q $'^merged_from\t' "$d/m/env.tsv"
	# every log is in the merged directory
	for l in $(tsv_col "$d/m/runs.tsv" log); do [ -f "$d/m/$l" ]; done
	merged=$(verdicts "$d/m")
	whole=$(verdicts "$d/whole")
	echo "merged:"; echo "$merged"; echo "whole:"; echo "$whole"
	[ -n "$merged" ]
	[ "$merged" = "$whole" ]
	# compare works on it
	run -0 timeout 60 "$MR" compare --out "$d/cmp" "$d/whole" "$d/m"
	[ -s "$d/cmp/compare.tsv" ]
}

@test "report works on merged shards" {
	command -v gnuplot >/dev/null || skip "gnuplot is not installed"
	shards
	d=$BATS_TEST_TMPDIR
	run -0 timeout 60 "$MR" merge --out "$d/m" "$d/s1" "$d/s2"
	# "small" regresses by design (mode=c is 32 MiB): report exits as check does
	run -1 timeout 120 "$MR" report --cases "$FIX" --expected "$EXP" "$d/m"
	[[ "$output" == *"total: 1 claim held, 0 reproduces, 1 regressed"* ]] || false
	[ -s "$d/m/report.md" ]
}

@test "merge refuses a missing shard, a shard given twice and shards of different profiles" {
	cp -R "$BATS_FILE_TMPDIR/s1" "$BATS_TEST_TMPDIR/"
	run -0 shard 2/2 --profile quick
	d=$BATS_TEST_TMPDIR
	run -2 timeout 60 "$MR" merge --out "$d/m" "$d/s1"
	[[ "$output" == *"shard 2/2 is missing"* ]] || false
	run -2 timeout 60 "$MR" merge --out "$d/m" "$d/s1" "$d/s1"
	[[ "$output" == *"given twice"* ]] || false
	run -2 timeout 60 "$MR" merge --out "$d/m" "$d/s1" "$d/s2"
	[[ "$output" == *profile* ]] || false
	[ ! -e "$d/m/runs.tsv" ]
}

@test "merge refuses overlapping runs and shards of another platform" {
	shards
	d=$BATS_TEST_TMPDIR
	cp -r "$d/s2" "$d/s2b"
	tail -n 1 "$d/s1/runs.tsv" >> "$d/s2b/runs.tsv"
	run -2 timeout 60 "$MR" merge --out "$d/m" "$d/s1" "$d/s2b"
	[[ "$output" == *"refusing overlapping shards"* ]] || false
	cp -r "$d/s2" "$d/s2c"
	sed -i 's/^platform\t.*/platform\tother-platform/' "$d/s2c/env.tsv"
	run -2 timeout 60 "$MR" merge --out "$d/m" "$d/s1" "$d/s2c"
	[[ "$output" == *platform* ]] || false
}

@test "merge refuses a shard given a repeat of another shard's pair, nothing written" {
	shards
	d=$BATS_TEST_TMPDIR
	# s1's last row (the second repeat of one of its pairs), moved to s2
	# with its log and a wall time of its own: no (case, config, repeat)
	# overlaps and no repeat is beyond env.tsv's, but the pair is in both
	row=$(tail -n 1 "$d/s1/runs.tsv")
	sed -i '$d' "$d/s1/runs.tsv"
	at=$(($(wc -l < "$d/s2/runs.tsv") + 1))
	awk -F'\t' -v OFS='\t' -v row="$row" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "wall_ms") c = i }
		END { n = split(row, f, "\t"); f[c] = 999999; s = f[1]
			for (i = 2; i <= n; i++) s = s OFS f[i]
			print s }' "$d/s1/runs.tsv" >> "$d/s2/runs.tsv"
	log=$(printf '%s\n' "$row" | awk -F'\t' '{ print $NF }')
	mkdir -p "$(dirname "$d/s2/$log")"
	mv "$d/s1/$log" "$d/s2/$log"
	cfg=$(printf '%s\n' "$row" | cut -f2)
	line=$(awk -F'\t' -v c="$cfg" '$2 == c { print NR; exit }' "$d/s1/runs.tsv")
	run -2 --separate-stderr timeout 60 "$MR" merge --out "$d/m" "$d/s1" "$d/s2"
	echo "stderr: $stderr"
	[[ "$stderr" == *"$d/s2/runs.tsv:$at: case $(printf '%s\n' "$row" | cut -f1) config $cfg is in another shard too ($d/s1/runs.tsv:$line)"* ]] || false
	[ ! -e "$d/m" ]
}

@test "a merge into a non-empty directory is refused" {
	shards
	d=$BATS_TEST_TMPDIR
	mkdir -p "$d/m" && touch "$d/m/x"
	run -2 timeout 60 "$MR" merge --out "$d/m" "$d/s1" "$d/s2"
	[[ "$output" == *"not an empty directory"* ]] || false
}

@test "env.tsv records the commit the runner was built from" {
	shards
	c=$(tsv_col "$BATS_TEST_TMPDIR/s1/env.tsv" value '$1 == "commit"')
	echo "commit: '$c'"
	if [ -e "$ROOT/.git" ]; then
		[[ "$c" =~ ^[0-9a-f]{12}(-dirty)?$ ]] || false
		# a commit of this repository (HEAD may have moved since the build)
		git -C "$ROOT" cat-file -e "${c%-dirty}^{commit}"
	else
		[ "$c" = unknown ]
	fi
}

@test "merge refuses shards built from different commits, naming the key and both values" {
	shards
	d=$BATS_TEST_TMPDIR
	c=$(tsv_col "$d/s1/env.tsv" value '$1 == "commit"')
	[ -n "$c" ]
	cp -r "$d/s2" "$d/s2c"
	sed -i 's/^commit\t.*/commit\t0123456789ab-dirty/' "$d/s2c/env.tsv"
	run -2 timeout 60 "$MR" merge --out "$d/m" "$d/s1" "$d/s2c"
	[[ "$output" == *"$d/s2c has commit '0123456789ab-dirty' but $d/s1 has '$c'"* ]] || false
	[ ! -e "$d/m/runs.tsv" ]
	# a shard of a runner that recorded no commit is not one of this run either
	cp -r "$d/s2" "$d/s2n"
	sed -i '/^commit\t/d' "$d/s2n/env.tsv"
	run -2 timeout 60 "$MR" merge --out "$d/m" "$d/s1" "$d/s2n"
	[[ "$output" == *"has commit '(not recorded)' but $d/s1 has '$c'"* ]] || false
}

@test "the shard plan takes each config's cost from the cost_ms rows bless writes" {
	d=$BATS_TEST_TMPDIR
	rm "$EXP/ok.claims"
	# one case: check --shard wants runs of every case it is given
	run -0 timeout -k 5 120 "$MR" bless --cases "$FIX" --expected "$EXP" --out "$d/b" \
		--axis allocator=glibc --repeat 1 -q ok
	f=$(ls "$EXP"/*/ok.tsv)
	[ "$(grep -c $'\tcost_ms\t' "$f")" -eq 3 ]
	# Only the cost rows, mode=c made far the dearest: it gets a shard of
	# its own, where a split by count gives shard 1 modes a and c.
	awk -F'\t' -v OFS='\t' '
		/^#/ || /^config\t/ { print; next }
		$3 != "cost_ms" { next }
		$1 ~ /mode=c/ { $4 = $5 = $6 = 100000 }
		{ print }' "$f" > "$f.new"
	mv "$f.new" "$f"
	for k in 1 2; do
		run -0 timeout -k 5 120 "$MR" check --cases "$FIX" --expected "$EXP" \
			--axis allocator=glibc --repeat 1 -q --shard "$k/2" --out "$d/s$k" ok
	done
	[[ "$(tsv_col "$d/s1/env.tsv" value '$1 == "shard.cost"')" == "baseline wall_ms"* ]] || false
	[ "$(tsv_col "$d/s1/env.tsv" value '$1 == "shard.pairs"')" = 1/3 ]
	[ "$(tsv_col "$d/s1/runs.tsv" config)" = allocator=glibc,mode=c ]
	[ "$(tsv_col "$d/s2/env.tsv" value '$1 == "shard.pairs"')" = 2/3 ]
}
