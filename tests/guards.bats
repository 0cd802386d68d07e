#!/usr/bin/env bats
# Guards of a session: one runner per results directory at a time, only
# glibc tunables glibc takes, and the resource limits the cases ran under
# recorded.

load test_helper

# The pid a results directory's lock file names.
lock_pid() {
	local p
	p=$(cat "$1/memrepro.lock" 2>/dev/null) || return 1
	[[ "$p" =~ ^[0-9]+$ ]] || return 1
	echo "$p"
}

# A runner stopped in the middle of writing $1 (SIGSTOP, so that it is
# still writing however slow the machine is): its pid in RUNNER, the
# background job in JOB.  It runs nap three times; the first has begun.
stopped_runner() {
	timeout -k 10 120 "$MR" run --cases "$FIX" --out "$1" nap --axis allocator=glibc \
		--axis mode=a --axis ms=300 --repeat 3 >"$BATS_TEST_TMPDIR/first.out" 2>&1 3>&- &
	JOB=$!
	wait_for 30 runs_begun "$1" 1
	RUNNER=$(lock_pid "$1")
	kill -STOP "$RUNNER"
}

# The loader of the runner, as ldd names it, must list its tunables (glibc
# 2.33 on): its list in LISTED.
needs_listed_tunables() {
	local ldso
	ldso=$(ldd "$MR" | awk '$1 ~ /^\// && $1 ~ /ld-linux/ { print $1 }')
	[ -n "$ldso" ] || skip "no dynamic loader named by ldd"
	LISTED=$("$ldso" --list-tunables 2>/dev/null) || skip "$ldso cannot list its tunables (glibc < 2.33)"
}

@test "a second runner on a results directory being written exits 2 naming it and the pid; the first finishes cleanly" {
	d=$BATS_TEST_TMPDIR/busy
	stopped_runner "$d"
	# nap's process: the lock is close-on-exec, no case holds it
	nap=$(grep -o '^pid [0-9]*' "$d"/logs/nap/*.log | head -1 | awk '{print $2}')
	if [ -d "/proc/$nap/fd" ]; then
		run ! sh -c "ls -l /proc/$nap/fd | grep -q memrepro.lock"
	fi
	run -2 timeout 60 "$MR" run --resume "$d"
	echo "$output"
	[[ "$output" == *"results directory $d is being written by another memrepro (pid $RUNNER): wait until it ends"* ]] || false
	run -2 timeout 60 "$MR" run --cases "$FIX" --out "$d" nap --axis allocator=glibc --repeat 1
	[[ "$output" == *"results directory $d is being written by another memrepro (pid $RUNNER)"* ]] || false
	# readers: merge and bless refuse, check and report warn
	run -2 timeout 60 "$MR" merge --out "$BATS_TEST_TMPDIR/merged" "$d"
	[[ "$output" == *"$d is still being written by a runner (pid $RUNNER): refusing to merge it"* ]] || false
	[ ! -e "$BATS_TEST_TMPDIR/merged" ]
	run -2 timeout 60 "$MR" bless --from "$d" --expected "$BATS_TEST_TMPDIR/exp" --yes
	[[ "$output" == *"refusing to bless from it"* ]] || false
	run --separate-stderr timeout 60 "$MR" check --from "$d" --expected "$NO_EXPECTED"
	[[ "$stderr" == *"warning: $d is still being written by a runner (pid $RUNNER)"* ]] || false
	kill -CONT "$RUNNER"
	rc=0
	wait "$JOB" || rc=$?
	cat "$BATS_TEST_TMPDIR/first.out"
	[ "$rc" -eq 0 ]
	# the first run's three runs, each once, and nothing else
	[ "$(tail -n +2 "$d/runs.tsv" | cut -f1-3 | sort -u | wc -l)" -eq 3 ]
	[ "$(tail -n +2 "$d/runs.tsv" | wc -l)" -eq 3 ]
	[ "$(grep -c '^resumed' "$d/env.tsv")" -eq 0 ]
	run -0 --separate-stderr timeout 60 "$MR" check --from "$d" --expected "$NO_EXPECTED"
	[[ "$stderr" != *"still being written"* ]] || false
	# the lock is gone with its runner: a resume now has nothing to do
	run -0 timeout 60 "$MR" run --resume "$d"
	[[ "$output" == *"3 runs had ended"* ]] || false
}

@test "a lock file that is a symbolic link or has a second link is refused, never written through" {
	target=$BATS_TEST_TMPDIR/precious
	echo keep > "$target"
	d=$BATS_TEST_TMPDIR/planted
	mkdir "$d"
	ln -s "$target" "$d/memrepro.lock"
	run -2 timeout 60 "$MR" run --cases "$FIX" --out "$d" touch --axis allocator=glibc --axis mb=4 --repeat 1
	[[ "$output" == *"memrepro.lock is a symbolic link: refusing it"* ]] || false
	rm "$d/memrepro.lock"
	ln "$target" "$d/memrepro.lock"
	run -2 timeout 60 "$MR" run --cases "$FIX" --out "$d" touch --axis allocator=glibc --axis mb=4 --repeat 1
	[[ "$output" == *"memrepro.lock is not a regular file of its own (one link): refusing it"* ]] || false
	[ "$(cat "$target")" = keep ]
	[ ! -e "$d/runs.tsv" ]
}

@test "an unknown glibc tunable or a value glibc would ignore is refused at matrix expansion with exit 2" {
	needs_listed_tunables
	run -2 mr describe --cases "$FIX" nap --axis glibc.malloc.no_such_tunable=1
	echo "$output"
	[[ "$output" == *"--axis glibc.malloc.no_such_tunable: glibc "*" has no such tunable"* ]] || false
	[[ "$output" == *"arena_max"* ]] || false
	run -2 mr describe --cases "$FIX" nap --axis glibc.malloc.arena_max=abc
	[[ "$output" == *"--axis glibc.malloc.arena_max: value 'abc' is not a number as glibc reads one"* ]] || false
	run -2 mr describe --cases "$FIX" nap --axis glibc.malloc.arena_max=12abc
	[[ "$output" == *"value '12abc' is not a number"* ]] || false
	# 8 is no octal digit
	run -2 mr describe --cases "$FIX" nap --axis glibc.malloc.arena_max=08
	[[ "$output" == *"value '08' is not a number"* ]] || false
	run -2 mr describe --cases "$FIX" nap --axis glibc.malloc.arena_max=99999999999999999999
	[[ "$output" == *"is too large for glibc"* ]] || false
	# bounds as the loader lists them (arena_max: min 1)
	run -2 mr describe --cases "$FIX" nap --axis glibc.malloc.arena_max=0
	[[ "$output" == *"value '0' is out of glibc's range for it, 0x1 to 0x"* ]] || false
	# run refuses before anything is made
	run -2 mrf run nap --axis allocator=glibc --axis glibc.malloc.arena_max=1,abc --repeat 1
	[[ "$output" == *"value 'abc' is not a number"* ]] || false
	[ ! -e "$BATS_TEST_TMPDIR/out" ]
	# what glibc takes: decimal, hexadecimal, octal
	run -0 mr describe --cases "$FIX" nap --axis allocator=glibc --axis mode=a \
		--axis glibc.malloc.arena_max=1,0x10,010
	[[ "$output" == *"matrix (profile full): 3 configs"* ]] || false
}

@test "int32 tunables are bounded signed, as glibc compares them" {
	needs_listed_tunables
	grep -q '^glibc.malloc.perturb: 0 (min: 0, max: 255)$' <<<"$LISTED" ||
		skip "this glibc lists perturb otherwise"
	run -0 mr describe --cases "$FIX" nap --axis glibc.malloc.perturb=255
	run -2 mr describe --cases "$FIX" nap --axis glibc.malloc.perturb=256
	[[ "$output" == *"value '256' is out of glibc's range for it, 0 to 255"* ]] || false
	run -2 mr describe --cases "$FIX" nap --axis glibc.malloc.perturb=-1
	[[ "$output" == *"value '-1' is out of glibc's range"* ]] || false
}

@test "a loader that cannot list its tunables: only glibc.malloc's documented ones, values checked as numbers" {
	run -0 env MEMREPRO_LDSO=/bin/false timeout 60 "$MR" describe --cases "$FIX" nap --axis glibc.malloc.arena_max=2
	run -2 env MEMREPRO_LDSO=/bin/false timeout 60 "$MR" describe --cases "$FIX" nap --axis glibc.malloc.arena_max=two
	[[ "$output" == *"value 'two' is not a number"* ]] || false
	[[ "$output" == *"/bin/false has no --list-tunables"* ]] || false
	run -2 env MEMREPRO_LDSO=/bin/false timeout 60 "$MR" describe --cases "$FIX" nap --axis glibc.cpu.x86_ibt=1
	[[ "$output" == *"--axis glibc.cpu.x86_ibt: not a tunable this runner can check"* ]] || false
}

@test "env.tsv records the runner's resource limits; a change of the stack limit refuses a resume, of nofile does not" {
	d=$BATS_TEST_TMPDIR/lim
	# shellcheck disable=SC2016 # expanded by that bash
	run -0 timeout -k 5 60 bash -c 'ulimit -s 4096; exec "$0" "$@"' "$MR" run --cases "$FIX" --out "$d" \
		touch --axis allocator=glibc --axis mb=4 --repeat 1
	val() { tsv_col "$d/env.tsv" value "\$1 == \"$1\""; }
	[ "$(val rlimit.stack)" = 4194304 ]
	for k in rlimit.as rlimit.nofile rlimit.nproc rlimit.memlock; do
		[[ "$(val "$k")" =~ ^([0-9]+|unlimited)$ ]] || false
	done
	as=$(ulimit -v)
	[ "$(val rlimit.as)" = "$([ "$as" = unlimited ] && echo unlimited || echo $((as * 1024)))" ]
	# shellcheck disable=SC2016
	run -2 timeout -k 5 60 bash -c 'ulimit -s 8192; exec "$0" "$@"' "$MR" run --resume "$d"
	[[ "$output" == *"rlimit.stack was '4194304' when the runs began, is '8388608' now"* ]] || false
	# shellcheck disable=SC2016
	run -0 timeout -k 5 60 bash -c 'ulimit -s 4096; ulimit -n 512; exec "$0" "$@"' "$MR" run --resume "$d"
	[[ "$output" == *"1 run had ended"* ]] || false
}
