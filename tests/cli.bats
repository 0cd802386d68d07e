#!/usr/bin/env bats
# The command line: --version, abbreviated long options, bundled short
# ones, and the errors of each.

load test_helper

@test "--version prints the version and the commit, anywhere, and exits 0" {
	version=$(sed -n 's/^VERSION := //p' "$ROOT/Makefile")
	[ -n "$version" ]
	run -0 --separate-stderr "$MR" --version
	[[ "$output" =~ ^memrepro\ ${version//./\\.}\ \(commit\ ([0-9a-f]{12}(-dirty)?|unknown)\)$ ]] || false
	[ -z "$stderr" ]
	want=$output
	run -0 "$MR" run --version
	[ "$output" == "$want" ]
	# the commit is the one a run records in env.tsv
	run -0 mrf run --axis allocator=glibc --repeat 1 -q touch
	commit=$(awk -F'\t' '$1 == "commit" { print $2 }' "$BATS_TEST_TMPDIR/out/env.tsv")
	[ "$want" == "memrepro $version (commit $commit)" ]
}

@test "a long option may be abbreviated; its messages and env.tsv give the full name" {
	run -0 mrf run --ax allocator=glibc --rep 1 --qui touch
	[ "$(awk -F'\t' '$1 == "repeat" { print $2 }' "$BATS_TEST_TMPDIR/out/env.tsv")" = 1 ]
	grep -qxF "$(printf 'options\t--cases=%s --axis=allocator=glibc --repeat=1 --profile=full -- touch' "$FIX")" \
		"$BATS_TEST_TMPDIR/out/env.tsv"
	run -2 --separate-stderr "$MR" run --rep 0 touch
	[[ "$stderr" == *"--repeat '0': want a whole number in 1..1000"* ]] || false
	run -2 --separate-stderr "$MR" run --verb=1
	[[ "$stderr" == *"--verbose takes no value"* ]] || false
}

@test "an ambiguous abbreviation is exit 2 naming it and what it could be" {
	run -2 --separate-stderr "$MR" run --ti 1 touch
	[[ "$stderr" == *"ambiguous option '--ti': it could be --timeout, --timeout-factor"* ]] || false
	[ -z "$output" ]
	run -2 --separate-stderr "$MR" --ver
	[[ "$stderr" == *"ambiguous option '--ver': it could be --verbose, --version"* ]] || false
	# an exact name is never ambiguous
	run -2 --separate-stderr "$MR" run --timeout 0 touch
	[[ "$stderr" == *"--timeout '0': want a positive number"* ]] || false
}

@test "short options bundle, a value attached or not" {
	run -0 mrf run --axis allocator=glibc --repeat 1 -qj2 touch
	[[ "$output" != *"#1/1 ok"* ]] || false
	[ "$(awk -F'\t' '$1 == "jobs" { print $2 }' "$BATS_TEST_TMPDIR/out/env.tsv")" = 2 ]
	rm -r "$BATS_TEST_TMPDIR/out"
	run -0 mrf run --axis allocator=glibc --repeat 1 -vj2 touch
	[[ "$output" == *"# exec: "* ]] || false
	run -2 --separate-stderr "$MR" run -qx touch
	[[ "$stderr" == *"unknown option '-x'"* ]] || false
	run -2 --separate-stderr "$MR" run -qj
	[[ "$stderr" == *"-j needs a value"* ]] || false
}

@test "unknown options and commands are exit 2; after -- every argument is a name" {
	run -2 --separate-stderr "$MR" run --bogus=3 touch
	[[ "$stderr" == *"unknown option '--bogus=3'"* ]] || false
	[[ "$stderr" == *"usage: memrepro run"* ]] || false
	run -2 --separate-stderr "$MR" bogus
	[[ "$stderr" == *"unknown command 'bogus'"* ]] || false
	run -2 --separate-stderr "$MR" check --cases "$FIX" -- --repeat
	[[ "$stderr" == *"bad case name '--repeat'"* ]] || false
	# run's -- is a command's (tests/command.bats)
	run -2 --separate-stderr "$MR" run --cases "$FIX" -- --repeat
	[[ "$stderr" == *"-- --repeat: no executable of that name in PATH"* ]] || false
}

# --- exit statuses and messages CI can rely on ------------------------------

# A gnuplot that draws nothing: an empty file where each image is asked
# for, so that report's status is the verdicts' alone.
stub_gnuplot() {
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	# a gnuplot that writes each image it is named
	printf '#!/bin/sh\nfor a; do case $a in *.png|*.svg) printf x > "$a" ;; esac; done\n' \
		> "$BATS_TEST_TMPDIR/bin/gnuplot"
	chmod +x "$BATS_TEST_TMPDIR/bin/gnuplot"
}

@test "the run counts on the terminal are runs.tsv's outcomes, as check counts them" {
	# skip exits 4 (skipped) after it ran: measured, and still skipped
	run -0 --separate-stderr timeout -k 5 120 "$MR" check --cases "$FIX" --out "$BATS_TEST_TMPDIR/out" \
		--expected "$NO_EXPECTED" --axis allocator=glibc --axis mode=a --repeat 2 ok skip
	ok=$(tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" outcome '$4 == "ok"' | wc -l)
	skipped=$(tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" outcome '$4 == "skipped"' | wc -l)
	[ "$ok" -eq 2 ] && [ "$skipped" -eq 2 ]
	[[ "$stderr" == *"4 runs in "*": $ok ok, 0 failed, $skipped skipped"* ]] || false
	[[ "$output" == *"total: "*"; $ok runs ok, 0 failed, $skipped skipped"* ]] || false
	run -0 timeout -k 5 60 "$MR" run --cases "$FIX" --out "$BATS_TEST_TMPDIR/out2" skip \
		--axis allocator=glibc --repeat 2
	[[ "$output" == *"2 runs in "*": 0 ok, 0 failed, 2 skipped"* ]] || false
}

@test "report exits as check does and prints its summary line" {
	stub_gnuplot
	d=$BATS_TEST_TMPDIR/r
	run -1 timeout -k 5 60 "$MR" run --cases "$FIX" --out "$d" --axis allocator=glibc --axis mode=a \
		--repeat 1 -q ok fail
	run -1 --separate-stderr timeout -k 5 120 env PATH="$BATS_TEST_TMPDIR/bin:$PATH" \
		"$MR" report --cases "$FIX" --expected "$NO_EXPECTED" "$d"
	[[ "$output" == *"total: no claims; no baseline; 1 run ok, 1 failed"* ]] || false
	[ -s "$d/report.md" ]
	run -0 timeout -k 5 120 env PATH="$BATS_TEST_TMPDIR/bin:$PATH" \
		"$MR" report --cases "$FIX" --expected "$NO_EXPECTED" --from "$d" ok
	[[ "$output" == *"total: no claims; no baseline; 1 run ok, 0 failed"* ]] || false
	# and after a run of its own
	run -1 timeout -k 5 120 env PATH="$BATS_TEST_TMPDIR/bin:$PATH" "$MR" report --cases "$FIX" \
		--out "$BATS_TEST_TMPDIR/r2" --expected "$NO_EXPECTED" --axis allocator=glibc --repeat 1 fail
	[[ "$output" == *"total: no claims; no baseline; 0 runs ok, 1 failed"* ]] || false
}

@test "an --expected directory that is not there is exit 2 naming it (bless makes it)" {
	d=$BATS_TEST_TMPDIR/r
	run -0 timeout -k 5 60 "$MR" run --cases "$FIX" --out "$d" --axis allocator=glibc --axis mode=a --repeat 1 -q ok
	run -2 --separate-stderr "$MR" check --from "$d" --expected "$BATS_TEST_TMPDIR/typo"
	[[ "$stderr" == *"--expected $BATS_TEST_TMPDIR/typo: No such file or directory"* ]] || false
	[ -z "$output" ]
	run -2 --separate-stderr "$MR" report --from "$d" --expected "$BATS_TEST_TMPDIR/typo"
	[[ "$stderr" == *"--expected $BATS_TEST_TMPDIR/typo"* ]] || false
	touch "$BATS_TEST_TMPDIR/file"
	run -2 --separate-stderr "$MR" check --from "$d" --expected "$BATS_TEST_TMPDIR/file"
	[[ "$stderr" == *"--expected $BATS_TEST_TMPDIR/file: not a directory"* ]] || false
	run -0 "$MR" check --from "$d" --expected "$NO_EXPECTED"
	run -0 "$MR" bless --from "$d" --expected "$BATS_TEST_TMPDIR/new" --yes
	[ -d "$BATS_TEST_TMPDIR/new" ]
}

@test "report of a path that is not there says so, exit 2" {
	run -2 --separate-stderr "$MR" report "$BATS_TEST_TMPDIR/nonexistent"
	[[ "$stderr" == *"results directory $BATS_TEST_TMPDIR/nonexistent: No such file or directory"* ]] || false
	[[ "$stderr" != *"bad case name"* ]] || false
}

@test "an unknown command lists every command of the table, the nearest first" {
	run -2 --separate-stderr "$MR" corpsu
	[[ "$stderr" == *"unknown command 'corpsu'; did you mean 'corpus'?"* ]] || false
	# the list is the commands --help shows, every one
	list=${stderr#*commands: }
	list=${list%%$'\n'*}
	want=$("$MR" --help | awk '/^Commands:/ { on = 1; next } on && /^  memrepro / { print $2 } on && /^$/ { exit }' | sort)
	[ "$(wc -l <<<"$want")" -ge 14 ]
	[ "$(tr -d ' ' <<<"$list" | tr ',' '\n' | sort)" = "$want" ]
	run -2 --separate-stderr "$MR" zzzzzzzz
	[[ "$stderr" != *"did you mean"* ]] || false
}

@test "a misspelt case: did you mean the nearest" {
	run -2 --separate-stderr "$MR" run --cases "$FIX" tuoch
	[[ "$stderr" == *"unknown case 'tuoch'; did you mean 'touch'?"* ]] || false
	run -2 --separate-stderr "$MR" describe --cases "$FIX" zzzzzzzz
	[[ "$stderr" == *"unknown case 'zzzzzzzz'; cases in"* ]] || false
}

@test "export without --format says it is required" {
	run -2 --separate-stderr "$MR" export "$BATS_TEST_TMPDIR"
	[[ "$stderr" == *"--format is required: bmf or benchmark-action"* ]] || false
	[[ "$stderr" != *"''"* ]] || false
}

@test "--verbose and --quiet exclude each other: exit 2" {
	run -2 --separate-stderr "$MR" run --cases "$FIX" --verbose --quiet touch
	[[ "$stderr" == *"--verbose and --quiet exclude each other"* ]] || false
	run -2 --separate-stderr "$MR" check -qv --cases "$FIX" touch
	[[ "$stderr" == *"--verbose and --quiet exclude each other"* ]] || false
}

@test "the tests' release cache is the run's own, never the user's" {
	[ "$XDG_CACHE_HOME" = "$BATS_RUN_TMPDIR/cache" ]
	[[ "$XDG_CACHE_HOME" != "$HOME"* ]] || false
}

@test "describe names the profile it was given, each as its word (kernels too)" {
	local p
	for p in quick full versions originals kernels; do
		run -0 mr describe --cases "$FIX" nap --axis allocator=glibc --profile "$p"
		[[ "$output" == *"matrix (profile $p): "* ]] || false
	done
}
