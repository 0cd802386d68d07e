#!/usr/bin/env bats
# The case side: lib/ through the fixture cases, run by hand.

load test_helper

@test "--describe prints the line format the runner parses" {
	run -0 "$FIX/ok" --describe
	[ "${lines[0]}" = $'memrepro-case\t1' ]
	[[ "$output" == *$'\nname\tok\n'* ]] || false
	[[ "$output" == *$'param\tmode\t'* ]] || false
	[[ "$output" == *$'checkpoint\tdone\t'* ]] || false
}

@test "an unknown parameter is exit 2 naming it and the valid ones" {
	run -2 "$FIX/ok" --param colour=red
	[[ "$output" == *colour* ]] || false
	[[ "$output" == *mode* ]] || false
}

@test "a value outside the allowed ones is exit 2 naming the parameter and the allowed values" {
	run -2 "$FIX/ok" --param mode=zzz
	[[ "$output" == *mode* ]] || false
	[[ "$output" == *zzz* ]] || false
	[[ "$output" == *"a|b|c"* ]] || false
}

@test "an integer parameter rejects non-numbers, negatives and overflow" {
	run -2 "$FIX/touch" --param mb=abc
	[[ "$output" == *mb* ]] || false
	run -2 "$FIX/touch" --param mb=-5
	[[ "$output" == *mb* ]] || false
	run -2 "$FIX/touch" --param mb=99999999999999999999999
	[[ "$output" == *mb* ]] || false
}

@test "run by hand, a checkpoint prints a readable line with its figures" {
	run -0 "$FIX/touch" --param mb=16
	[[ "$output" == *"checkpoint touched#1"* ]] || false
	[[ "$output" == *rss* ]] || false
}

@test "a skipping case exits 4 with the reason as its last stderr line" {
	run -4 --separate-stderr "$FIX/skip"
	last=$(printf '%s\n' "$stderr" | tail -n 1)
	[[ "$last" == *"needs a feature"* ]] || false
}

@test "fiber-stacks describes its three madvise modes as an axis" {
	run -0 "$CASES/fiber-stacks" --describe
	line=$(printf '%s\n' "$output" | grep $'^param\tmadvise\t')
	[[ "$line" == *$'\tfree|dontneed|none\t'* ]] || false
}
