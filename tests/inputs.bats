#!/usr/bin/env bats
# Bad input: every malformed claims file and results directory under
# tests/data gives exit 2 and the one file:line:column message that
# tests/data/README.md lists for it.

load test_helper

DATA="$ROOT/tests/data"

# The message README.md lists for a dir, up to its first "..." or " (".
listed_message() {
	grep -F "| \`$1\` |" "$DATA/README.md" | awk -F'`' '{print $4}' |
		sed -e 's/\.\.\..*//' -e 's/ (.*//'
}

check_bad() {
	local dir=$1 results=$2 expected=$3 want
	shift 3
	want=$(listed_message "$dir")
	[ -n "$want" ] || { echo "no message listed for $dir"; return 1; }
	run -2 --separate-stderr timeout 60 "$MR" check --from "$results" --expected "$expected" "$@"
	echo "stderr: $stderr"
	echo "want:   $want"
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
	[[ "$stderr" == *"$want"* ]] || false
	[ -z "$output" ]
}

@test "every malformed claims file names its file:line:column" {
	for d in "$DATA"/bad-claims/*/; do
		name=bad-claims/$(basename "$d")
		check_bad "$name" "$DATA/results-held" "$d" --cases "$DATA/cases"
		[[ "$stderr" == *"$name/fixture-stacks.claims:"[0-9]*:[0-9]*": "* ]] || false
	done
}

@test "every malformed results directory names its file and line" {
	for d in "$DATA"/bad-results/*/; do
		check_bad "bad-results/$(basename "$d")" "$d" "$DATA/expected"
	done
}

@test "held results pass, regressed ones fail with the regressed rows listed" {
	run -0 "$MR" check --from "$DATA/results-held" --expected "$DATA/expected"
	[[ "$output" == *"dontneed-returns  held"* ]] || false
	run -1 "$MR" check --from "$DATA/results-regressed" --expected "$DATA/expected"
	[[ "$output" == *"dontneed-returns  regressed"* ]] || false
	[[ "$output" == *"rss_kb@cleared"*regressed* ]] || false
	[[ "$output" == *"failed (crashed: SIGSEGV)"* ]] || false
}

@test "a misspelt checkpoint is exit 2 naming it and the case's checkpoints; without the case's describe it skips" {
	run -2 --separate-stderr timeout 60 "$MR" check --from "$DATA/results-held" \
		--expected "$DATA/bad-claims/checkpoint" --cases "$DATA/cases"
	echo "$stderr"
	[[ "$stderr" == *'fixture-stacks.claims:2:19: unknown checkpoint "clearde" of case fixture-stacks (did you mean cleared?); checkpoints: created, cleared' ]] || false
	[ -z "$output" ]
	# No fixture-stacks in the default cases dir: nothing declares the
	# checkpoints, and a checkpoint no run recorded may be one the case
	# reaches only with other parameters.
	run -0 timeout 60 "$MR" check --from "$DATA/results-held" --expected "$DATA/bad-claims/checkpoint"
	[[ "$output" == *"typo  skipped ("*"no checkpoint clearde recorded"* ]] || false
}

@test "a claim of 150,000 terms is exit 2 naming the limit, not a crash" {
	mkdir "$BATS_TEST_TMPDIR/exp"
	{
		printf 'flat holds rss_kb@cleared'
		yes ' + 1' | head -n 150000 | tr -d '\n'
		printf ' > 0 "fixture"\n'
	} > "$BATS_TEST_TMPDIR/exp/fixture-stacks.claims"
	run -2 --separate-stderr timeout 60 "$MR" check --from "$DATA/results-held" --expected "$BATS_TEST_TMPDIR/exp"
	echo "$stderr"
	[[ "$stderr" == *"fixture-stacks.claims:1:1049: claim flat has too many terms (limit: 256 numbers and metrics in a claim)" ]] || false
	# and a claims file beyond the limit of a file is refused whole
	head -c 1100000 /dev/zero | tr '\0' ' ' > "$BATS_TEST_TMPDIR/exp/fixture-stacks.claims"
	run -2 --separate-stderr timeout 60 "$MR" check --from "$DATA/results-held" --expected "$BATS_TEST_TMPDIR/exp"
	[[ "$stderr" == *"fixture-stacks.claims: larger than 1024 KiB (the limit of a claims file)" ]] || false
}

@test "a division by a measured zero is undefined in every format, with the reason, and does not fail" {
	local why='(rss_kb@cleared[madvise=free] - rss_kb@cleared[madvise=free]) is 0 (a division by zero)'
	run -0 timeout 60 "$MR" check --from "$DATA/results-held" --expected "$DATA/undefined"
	[[ "$output" == *"inf-holds      undefined (allocator=glibc: 150 820 / (150 820 - 150 820) > 1 is undefined: $why"* ]] || false
	[[ "$output" == *"nan-regresses  undefined ("*"(wall_ms - wall_ms) is 0 (a division by zero)"* ]] || false
	[[ "$output" == *"defined        held"* ]] || false
	[[ "$output" == *"1 claim held, 0 reproduces, 0 regressed, 2 undefined;"* ]] || false
	[[ "$output" != *regressed\ \ * ]] || false
	run -0 timeout 60 "$MR" check --from "$DATA/results-held" --expected "$DATA/undefined" --format tap
	[[ "$output" == *"ok 1 fixture-stacks: claim inf-holds # SKIP undefined: allocator=glibc: "*"$why"* ]] || false
	[[ "$output" == *"ok 2 fixture-stacks: claim nan-regresses # SKIP undefined: "* ]] || false
	[[ "$output" != *"not ok"* ]] || false
	run -0 timeout 60 "$MR" check --from "$DATA/results-held" --expected "$DATA/undefined" --format junit
	[[ "$output" == *'<skipped message="undefined: allocator=glibc: 150 820 / (150 820 - 150 820) &gt; 1 is undefined: '* ]] || false
	[[ "$output" != *"<failure"* ]] || false
	run -0 timeout 60 "$MR" check --from "$DATA/results-held" --expected "$DATA/undefined" --format json
	[ "$(grep -o '"verdict": "undefined"' <<< "$output" | wc -l)" -eq 2 ]
	[[ "$output" == *'"undefined": 2'* ]] || false
	[[ "$output" == *'"status": "passed"'* ]] || false
}

# --- the command line -------------------------------------------------------

# One bad parameter: exit 2, the first line of stderr names it, nothing run.
bad_param() {
	local name=$1
	shift
	run -2 --separate-stderr timeout 30 "$MR" run --cases "$FIX" --out "$BATS_TEST_TMPDIR/out" "$@"
	echo "$* -> $stderr"
	[[ "${stderr%%$'\n'*}" == *"$name"* ]] || false
	[ ! -e "$BATS_TEST_TMPDIR/out" ]
	[ -z "$output" ]
}

@test "absurd numbers for every numeric option are exit 2 naming the option, nothing run" {
	for v in -1 0 1001 abc 1.5 '' 99999999999999999999; do
		bad_param --repeat touch --repeat "$v"
	done
	for v in -5 0 abc inf nan 1e400 0x10 99999999; do
		bad_param --timeout touch --timeout "$v"
	done
	for v in -1 0 abc 60001; do
		bad_param --interval touch --interval "$v"
	done
	for v in -1 0 abc 1.5 1048577 99999999999999999999; do
		bad_param --mem-cap touch --mem-cap "$v"
	done
	for v in 0 -2 abc; do
		bad_param --timeout-factor touch --timeout-factor "$v"
	done
}

@test "absurd axis values (a case's own, the runner's pressure) are exit 2 naming the axis" {
	for v in -1 0 abc 16385 99999999999999999999 1.5; do
		bad_param mb touch --axis "mb=$v"
	done
	for v in -1 0 abc 1048577 1.5; do
		bad_param pressure touch --axis "pressure=$v"
	done
	bad_param "--axis" touch --axis "mb"
	bad_param "--axis" touch --axis "=4"
	bad_param "mb" touch --axis "mb=4,4"
}

@test "an axis given twice is exit 2 naming it" {
	bad_param "--axis mb given twice" touch --axis mb=4 --axis mb=8
	bad_param "--axis allocator given twice" touch --axis allocator=glibc --axis allocator=jemalloc
}

@test "a case name that is a path is refused before anything runs" {
	bad_param "bad case name '../x'" ../x
	bad_param "bad case name '/bin/sh'" /bin/sh
	bad_param "bad case name 'touch/..'" touch/..
}

# --- where the results go -------------------------------------------------

@test "an unwritable results directory is exit 2 before any run: a file in the way" {
	touch "$BATS_TEST_TMPDIR/file"
	run -2 timeout 30 "$MR" run --cases "$FIX" --out "$BATS_TEST_TMPDIR/file/out" touch
	[[ "$output" == *"$BATS_TEST_TMPDIR/file/out"* ]] || false
	[[ "$output" != *"touch #1"* ]] || false
	run -2 timeout 30 "$MR" run --cases "$FIX" --out "$BATS_TEST_TMPDIR/file" touch
	[[ "$output" == *"not a directory"* ]] || false
}

# A small tmpfs at $BATS_TEST_TMPDIR/mnt (root only), unmounted by teardown.
small_fs() {
	mkdir -p "$BATS_TEST_TMPDIR/mnt"
	mount -t tmpfs -o "$1" memrepro-test "$BATS_TEST_TMPDIR/mnt" 2>/dev/null ||
		skip "cannot mount a tmpfs here (not root?)"
}

teardown() {
	if mountpoint -q "$BATS_TEST_TMPDIR/mnt" 2>/dev/null; then
		umount "$BATS_TEST_TMPDIR/mnt"
	fi
}

@test "a read-only results filesystem is exit 2 before any run" {
	small_fs ro,size=64m
	run -2 timeout 30 "$MR" run --cases "$FIX" --out "$BATS_TEST_TMPDIR/mnt/out" touch
	[[ "$output" == *"Read-only file system"* ]] || false
	[[ "$output" != *"touch #1"* ]] || false
}

@test "a full disk is exit 2 before any run" {
	small_fs size=64k
	run -2 timeout 30 "$MR" run --cases "$FIX" --out "$BATS_TEST_TMPDIR/mnt/out" touch
	[[ "$output" == *"KiB free on its filesystem, need at least 32 MiB: nothing was run"* ]] || false
	[ ! -e "$BATS_TEST_TMPDIR/mnt/out" ]
}

@test "a disk that fills up during the runs stops the runner; what was written stays readable" {
	small_fs size=40m
	d=$BATS_TEST_TMPDIR/mnt/out
	# each spew run keeps a 16 MiB log: the third one finds the disk full
	run -1 --separate-stderr timeout -k 5 120 "$MR" run --cases "$FIX" --out "$d" spew \
		--axis allocator=glibc --axis mb=64 --repeat 4
	echo "$stderr"
	[[ "$stderr" == *"No space left on device"* ]] || false
	n=$(tsv_col "$d/runs.tsv" outcome | wc -l)
	[ "$n" -ge 1 ]
	[ "$n" -lt 4 ]
	run -0 timeout 60 "$MR" check --from "$d" --expected "$NO_EXPECTED"
}

# --- results from elsewhere -------------------------------------------------

@test "results naming paths outside themselves are refused, never followed" {
	r=$BATS_TEST_TMPDIR/evil
	mkdir -p "$r"
	cp "$DATA/results-held/"*.tsv "$r/"
	sed -i 's/^platform\t.*/platform\t..\/..\/..\/tmp\/memrepro-evil/' "$r/env.tsv"
	run -2 "$MR" bless --from "$r" --expected "$BATS_TEST_TMPDIR/exp"
	[[ "$output" == *"not usable as a directory name"* ]] || false
	[ ! -e /tmp/memrepro-evil ]
	cp "$DATA/results-held/env.tsv" "$r/"
	awk -F'\t' -v OFS='\t' 'NR == 2 { $1 = "../../x" } { print }' "$DATA/results-held/runs.tsv" > "$r/runs.tsv"
	run -2 "$MR" bless --from "$r" --expected "$BATS_TEST_TMPDIR/exp"
	[[ "$output" == *'bad case name "../../x"'* ]] || false
	[ ! -e "$BATS_TEST_TMPDIR/exp" ] || [ -z "$(find "$BATS_TEST_TMPDIR/exp" -type f)" ]
}

@test "symbolic links planted in a results directory are never written through by report" {
	r=$BATS_TEST_TMPDIR/planted
	run -0 timeout -k 5 60 "$MR" run --cases "$FIX" --out "$r" ok --axis allocator=glibc --axis mode=a --repeat 1
	echo precious > "$BATS_TEST_TMPDIR/victim"
	mkdir "$BATS_TEST_TMPDIR/victim-dir"
	ln -s "$BATS_TEST_TMPDIR/victim" "$r/report.md"
	ln -s "$BATS_TEST_TMPDIR/victim-dir" "$r/plots"
	# the charts cannot be made: the report fails (exit 1), writing nothing
	run -1 timeout -k 5 60 "$MR" report --cases "$FIX" --expected "$NO_EXPECTED" "$r"
	echo "$output"
	[ "$(cat "$BATS_TEST_TMPDIR/victim")" = precious ]
	[ -z "$(ls -A "$BATS_TEST_TMPDIR/victim-dir")" ]
	[[ "$output" == *"plots"*"symbolic links"* ]] || false
	# without the planted directory link, the report replaces the file link
	rm "$r/plots"
	run -0 timeout -k 5 60 "$MR" report --cases "$FIX" --expected "$NO_EXPECTED" "$r"
	[ "$(cat "$BATS_TEST_TMPDIR/victim")" = precious ]
	[ ! -L "$r/report.md" ]
}

@test "every malformed figures file names its file:line:column" {
	for d in "$DATA"/bad-figures/*/; do
		name=bad-figures/$(basename "$d")
		check_bad "$name" "$DATA/results-held" "$d" --cases "$DATA/cases"
		[[ "$stderr" == *"$name/fixture-stacks.figures:"[0-9]*:[0-9]*": "* ]] || false
	done
}
