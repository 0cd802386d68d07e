#!/usr/bin/env bats
# mimalloc-threads (microsoft/mimalloc#1107): what its claims cannot say.
# Threads the machine cannot give skip the case with the reason (a limit of
# the machine, not a fault), a stack below the minimum is a usage error,
# and run by hand the case goes through its three moments in order.

load test_helper

@test "mimalloc-threads: a stack below PTHREAD_STACK_MIN is a usage error naming the parameter" {
	run -2 timeout -k 5 30 "$CASES/mimalloc-threads" --param stack_kb=1
	[[ "$output" == *"mimalloc-threads: stack_kb=1 is below PTHREAD_STACK_MIN"* ]] || false
}

@test "mimalloc-threads: threads the machine cannot give skip the case, the reason last on stderr" {
	# 500 stacks of 1 MiB do not fit in 200 MB of address space: EAGAIN
	run -4 --separate-stderr bash -c 'ulimit -v 200000 && exec timeout -k 5 30 "$0" --param threads=500' \
		"$CASES/mimalloc-threads"
	echo "${stderr_lines[@]}"
	[[ "${stderr_lines[-1]}" == "skipped: pthread_create: thread "*" of 500: Resource temporarily unavailable "* ]] || false
}

@test "mimalloc-threads: by hand, start, created and exited in order, and the summary line last" {
	run -0 --separate-stderr timeout -k 5 30 "$CASES/mimalloc-threads" --param threads=50 --param bytes=4096
	[ "$(printf '%s\n' "${lines[@]}" | sed -n 's/^checkpoint \([a-z]*\)#1 .*/\1/p' | tr '\n' ' ')" = "start created exited " ]
	[[ "${lines[-1]}" == "mimalloc-threads: 50 threads x 4096 bytes, stack 1024 KiB, thp default: VSZ "* ]] || false
}
