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
	want=$(listed_message "$dir")
	[ -n "$want" ] || { echo "no message listed for $dir"; return 1; }
	run -2 --separate-stderr "$MR" check --from "$results" --expected "$expected"
	echo "stderr: $stderr"
	echo "want:   $want"
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
	[[ "$stderr" == *"$want"* ]] || false
	[ -z "$output" ]
}

@test "every malformed claims file names its file:line:column" {
	for d in "$DATA"/bad-claims/*/; do
		name=bad-claims/$(basename "$d")
		check_bad "$name" "$DATA/results-held" "$d"
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
