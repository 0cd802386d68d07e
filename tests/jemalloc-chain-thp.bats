#!/usr/bin/env bats
# jemalloc-chain-thp (jemalloc/jemalloc#468): what the claims cannot say:
# layout=chunk runs under glibc only, and a block that does not fit a
# chunk after its header is refused as a usage error naming the parameter.

load test_helper

@test "layout=chunk under another allocator is skipped with the reason" {
	JE=$(ldconfig -p 2>/dev/null | awk '$1 == "libjemalloc.so.2" { print $NF; exit }')
	[[ -n "$JE" ]] || skip "libjemalloc.so.2 is not installed"
	run -4 --separate-stderr timeout -k 5 30 env LD_PRELOAD="$JE" \
		"$CASES/jemalloc-chain-thp" --param layout=chunk --param count=2
	[[ "${stderr_lines[-1]}" == "skipped: layout=chunk maps its chunks itself"* ]] || false
}

@test "a block too big for a chunk after its header is a usage error" {
	run -2 --separate-stderr timeout -k 5 30 "$CASES/jemalloc-chain-thp" \
		--param layout=chunk --param size=2050000 --param count=1
	[ "$stderr" = "jemalloc-chain-thp: size=2050000 does not fit a 2 MiB chunk after its header" ]
}

@test "layout=chunk without huge pages touches about half of each chunk" {
	mode=$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null) || mode="[never]"
	[[ "$mode" != *"[always]"* ]] || skip "THP always gives every chunk a huge page"
	run -0 timeout -k 5 30 "$CASES/jemalloc-chain-thp" --param layout=chunk --param count=16
	echo "$output"
	[[ "${lines[-1]}" == *"AnonHugePages 0 KiB"* ]] || false
}
