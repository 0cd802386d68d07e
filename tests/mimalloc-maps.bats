#!/usr/bin/env bats
# mimalloc-maps (codebase-memory-mcp#1666): what its claims cannot say yet.
# The report's figure is the mapping count, which the case counts itself
# (/proc/self/maps lines) at each checkpoint and prints until the runner
# records it.

load test_helper

@test "mimalloc-maps: the case prints its mapping count at start and when indexed" {
	run -0 timeout -k 5 60 "$CASES/mimalloc-maps" --param workers=2 --param files=8
	line=$(grep '^mimalloc-maps: ' <<<"$output")
	echo "$line"
	[[ "$line" =~ mappings\ ([0-9]+)\ at\ start,\ ([0-9]+)\ indexed$ ]] || false
	start=${BASH_REMATCH[1]} indexed=${BASH_REMATCH[2]}
	# the binary, libc, the loader, the stack, two thread stacks: at least ten
	[[ $start -ge 10 ]] || false
	[[ $indexed -ge $start ]] || false
}
