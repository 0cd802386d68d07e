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
	run -0 mrf run --axis allocator=glibc --repeat 1 -qvj2 touch
	[[ "$output" == *"# exec: "* ]] || false
	[[ "$output" != *"#1/1 ok"* ]] || false
	[ "$(awk -F'\t' '$1 == "jobs" { print $2 }' "$BATS_TEST_TMPDIR/out/env.tsv")" = 2 ]
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
	run -2 --separate-stderr "$MR" run --cases "$FIX" -- --repeat
	[[ "$stderr" == *"bad case name '--repeat'"* ]] || false
}
