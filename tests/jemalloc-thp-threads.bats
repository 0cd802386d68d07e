#!/usr/bin/env bats
# jemalloc-thp-threads (jemalloc/jemalloc#1127, #1674): what no claim can
# say, since the runner has no metric for it: jemalloc's own `mapped`
# against the process's RSS, from the case's summary line.  #1127 saw RSS
# 50 % above `mapped` with THP and many threads; without huge pages RSS
# stays below it (mapped counts whole extents, most never touched).

load test_helper

CASE="$CASES/jemalloc-thp-threads"

# The case by hand under jemalloc, 10 threads without VM stacks (#1127's
# application was no Ruby), at once: its summary line in $output.
run_jemalloc() {
	run -0 timeout -k 5 60 env LD_PRELOAD=libjemalloc.so.2 "$CASE" \
		--param threads=10 --param vm_stack_kb=0 --param settle_ms=0 "$@"
	if [[ "$output" != *"; jemalloc: "* ]]; then
		skip "libjemalloc.so.2 is not installed (no jemalloc statistics)"
	fi
}

# RSS / mapped from the summary line.
ratio() {
	sed -n 's/.*RSS \/ mapped \([0-9.]*\).*/\1/p' <<< "$output"
}

thp_mode() {
	sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null
}

@test "with huge pages (thp=always), RSS is above jemalloc's own mapped, as #1127 saw" {
	[[ "$(thp_mode)" == always || "$(thp_mode)" == madvise ]] || skip "no transparent huge pages here"
	run_jemalloc --param thp=always
	echo "$output"
	[[ "$output" == *"AnonHugePages "[1-9]* ]] || false
	awk -v r="$(ratio)" 'BEGIN { exit !(r > 1.0) }'
}

@test "without huge pages, RSS stays below jemalloc's mapped" {
	[[ "$(thp_mode)" != always ]] || skip "THP always: thp=default is huge pages too here"
	run_jemalloc --param thp=default
	echo "$output"
	[[ "$output" == *"AnonHugePages 0 KiB"* ]] || false
	awk -v r="$(ratio)" 'BEGIN { exit !(r > 0 && r < 1.0) }'
}

@test "under glibc there are no jemalloc statistics to print" {
	run -0 timeout -k 5 60 "$CASE" --param threads=2 --param settle_ms=0
	[[ "$output" == *"jemalloc-thp-threads: 2 threads, VM stack 1024 KiB, thp default: RSS "* ]] || false
	[[ "$output" != *"; jemalloc: "* ]] || false
}

@test "thp=always with jemalloc.thp=never is skipped, saying why: thp=always's thp:always would win" {
	[[ "$(thp_mode)" == always || "$(thp_mode)" == madvise ]] || skip "no transparent huge pages here"
	run -4 --separate-stderr timeout -k 5 60 env MALLOC_CONF=thp:never "$CASE" \
		--param threads=2 --param settle_ms=0 --param thp=always
	[[ "${stderr_lines[-1]}" == "skipped: thp=always overrides MALLOC_CONF's thp:never (jemalloc takes the last): the same run as thp=always" ]] || false
}
