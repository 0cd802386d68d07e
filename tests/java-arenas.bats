#!/usr/bin/env bats
# java-arenas (canton-network/splice#316, bigbluebutton#25309): what its
# claims cannot say.  The arenas glibc makes are the threads' up to the
# limit, counted by glibc itself (the case prints malloc_info's count), and
# threads the machine cannot give skip the case with the reason.

load test_helper

# glibc's arena count the case prints, run with arena_max $1 and $2 threads
arenas() {
	GLIBC_TUNABLES=glibc.malloc.arena_max=$1 timeout -k 5 60 "$CASES/java-arenas" \
		--param threads="$2" | sed -n 's/.*glibc arenas (malloc_info) \([0-9-]*\)$/\1/p'
}

@test "java-arenas: each thread takes an arena of its own up to the limit, the main arena besides" {
	[ "$(arenas 128 3)" = 4 ]
	[ "$(arenas 4 104)" = 4 ]
	[ "$(arenas 2 104)" = 2 ]
}

@test "java-arenas: threads the machine cannot give skip the case, the reason last on stderr" {
	# 104 stacks of 1 MiB and their arenas do not fit in 200 MB of address space
	run -4 --separate-stderr bash -c 'ulimit -v 200000 && exec timeout -k 5 30 "$0"' "$CASES/java-arenas"
	echo "${stderr_lines[@]}"
	[[ "${stderr_lines[-1]}" == "skipped: pthread_create of thread "*": EAGAIN (a limit of this machine)" ]] || false
}
