#!/usr/bin/env bats
# jemalloc-retain-thp (facebook/jemalloc#46): the case's khugepaged pass
# itself, which the claims only see through RSS: it collapses jemalloc's
# ranges that kept a page, and is refused the ranges jemalloc advised
# MADV_NOHUGEPAGE (thp:never), as khugepaged skips them.

load test_helper

setup() {
	JE=$(ldconfig -p 2>/dev/null | awk '$1 == "libjemalloc.so.2" { print $NF; exit }')
	[[ -n "$JE" ]] || skip "libjemalloc.so.2 is not installed"
	mode=$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null) || skip "no THP in this kernel"
	[[ "$mode" != *"[never]"* ]] || skip "THP is never: the pass is claimed for always and madvise only"
}

# The summary line's count before the word given: pass_count LINE WORD
pass_count() {
	[[ "$1" =~ ([0-9]+)\ $2 ]] || return 1
	echo "${BASH_REMATCH[1]}"
}

@test "jemalloc defaults: the pass collapses ranges and is refused none" {
	run -0 timeout -k 5 60 env LD_PRELOAD="$JE" MALLOC_CONF= \
		"$CASES/jemalloc-retain-thp" --param objects=20000
	line=${lines[-1]}
	echo "$line"
	[[ "$line" == *"purge: jemalloc decay"* ]] || false
	[ "$(pass_count "$line" "ranges collapsed")" -ge 4 ]
	[ "$(pass_count "$line" "refused")" -eq 0 ]
}

# jemalloc 5.3.0 collapses none; 5.2.1 and sid's 5.3.1 leave a metadata
# block or so without advice (jemalloc-retain-thp.claims).
@test "thp:never: jemalloc's ranges are refused, at most two collapsed" {
	run -0 timeout -k 5 60 env LD_PRELOAD="$JE" MALLOC_CONF=thp:never \
		"$CASES/jemalloc-retain-thp" --param objects=20000
	line=${lines[-1]}
	echo "$line"
	[ "$(pass_count "$line" "ranges collapsed")" -le 2 ]
	[ "$(pass_count "$line" "refused")" -ge 4 ]
}
