#!/usr/bin/env bats
# redis-frag (redis/redis#4751): what its claims cannot say.  MEMORY PURGE
# is jemalloc's: elsewhere the case does nothing and says so; under
# jemalloc it prints the allocator's own figures, whose ratio of active to
# allocated (the true fragmentation) is small.

load test_helper

@test "redis-frag: without jemalloc MEMORY PURGE does nothing, and the case says so" {
	run -0 timeout -k 5 60 "$CASES/redis-frag" --param keys=20000
	[[ "$output" == *"redis-frag churned: live "*" bytes (no mallctl: not jemalloc)"* ]] || false
	[[ "${lines[-1]}" == *"MEMORY PURGE not jemalloc: nothing" ]] || false
}

@test "redis-frag: under jemalloc the purge runs and the fragmentation it prints is small" {
	ldconfig -p 2>/dev/null | grep -q 'libjemalloc.so.2 ' || skip "libjemalloc.so.2 is not installed"
	run -0 env LD_PRELOAD=libjemalloc.so.2 timeout -k 5 60 "$CASES/redis-frag" --param keys=20000
	[[ "${lines[-1]}" == *"MEMORY PURGE purged" ]] || false
	frag=$(sed -n 's/^redis-frag purged: .*fragmentation \([0-9.]*\),.*/\1/p' <<<"$output")
	echo "fragmentation $frag"
	awk -v f="$frag" 'BEGIN { exit !(f > 0.99 && f < 1.1) }'
}
