#!/usr/bin/env bats
# What a claim or a baseline depends on: the THP mode ("when thp=..."),
# the CPUs (the platform key), a clock (rows bless leaves out); and the
# proof that check passes on machines unlike the reference one: the quick
# corpus under each THP mode, the last of them with one CPU kept busy
# (without root: the host's mode, busy).  Minutes per mode: they run with
# MEMREPRO_PORTABLE=1 (make check-portable, part of make ci).

load test_helper

THP=/sys/kernel/mm/transparent_hugepage/enabled

setup() {
	EXP=$BATS_TEST_TMPDIR/expected
	mkdir -p "$EXP"
}

teardown() {
	# Whatever happened in the test: the THP mode it found, and no busy loop.
	if [ -f "$BATS_TEST_TMPDIR/thp.orig" ]; then
		cat "$BATS_TEST_TMPDIR/thp.orig" > "$THP" || true
	fi
	if [ -f "$BATS_TEST_TMPDIR/busy.pid" ]; then
		kill "$(cat "$BATS_TEST_TMPDIR/busy.pid")" 2>/dev/null || true
	fi
}

# One run of the `ok` fixture into $BATS_TEST_TMPDIR/r, its env.tsv
# saying THP mode $1.
results_thp() {
	local r=$BATS_TEST_TMPDIR/r
	[ -d "$r" ] || timeout -k 5 120 "$MR" run --cases "$FIX" --out "$r" \
		--axis allocator=glibc --repeat 1 ok >/dev/null 2>&1
	sed -i "s/^thp\t.*/thp\t$1/" "$r/env.tsv"
	grep -q "^thp	$1\$" "$r/env.tsv"
}

check_from() {
	timeout -k 5 60 "$MR" check --from "$BATS_TEST_TMPDIR/r" --expected "$EXP" "$@"
}

@test "a claim made when thp=madvise,never is evaluated there and skipped with the reason elsewhere" {
	printf '%s\n' '# test claims' \
		'small holds when thp=madvise,never rss_kb@done[mode=a] < rss_kb@done[mode=c] "fixture: 8 MiB < 32 MiB"' \
		'false-there holds when thp = never rss_kb@done[mode=c] < rss_kb@done[mode=a] "fixture: false, never evaluated here"' \
		> "$EXP/ok.claims"
	results_thp madvise
	run -0 check_from
	echo "$output"
	[[ "$output" == *"small"*held* ]] || false
	[[ "$output" == *"false-there"*"skipped (claimed only when thp=never; this platform has thp=madvise)"* ]] || false

	results_thp always
	run -0 check_from
	[[ "$output" == *"small"*"skipped (claimed only when thp=madvise,never; this platform has thp=always)"* ]] || false

	# The same false claim regresses where it is made for.
	results_thp never
	run -1 check_from
	[[ "$output" == *"false-there"*regressed* ]] || false
}

@test "results that do not record the THP mode skip a claim made for some" {
	printf '%s\n' 'small holds when thp=madvise rss_kb@done[mode=a] < rss_kb@done[mode=c] "fixture"' > "$EXP/ok.claims"
	results_thp madvise
	sed -i '/^thp\t/d' "$BATS_TEST_TMPDIR/r/env.tsv"
	run -0 check_from
	[[ "$output" == *"skipped (claimed only when thp=madvise; the results do not record the THP mode)"* ]] || false
}

@test "a malformed when clause is exit 2 naming file:line:column" {
	local bad=(
		'a holds when cpus=2 rss_kb@done < 5 "x"|14: a claim is made for some THP modes or kernels only (when thp=MODE,..., when kernel>=V): "cpus" is neither'
		'a holds when thp=sometimes rss_kb@done < 5 "x"|18: unknown THP mode "sometimes": always, madvise, never or none (a kernel without THP)'
		'a holds when thp=never,never rss_kb@done < 5 "x"|24: THP mode "never" named twice'
		'a holds when thp never rss_kb@done < 5 "x"|18: expected "=" after "when thp", got "never"'
		'a holds when thp= rss_kb@done < 5 "x"|19: unknown THP mode "rss_kb@done"'
		'a holds when thp=never, < 5 "x"|25: unknown THP mode "<"'
		'a holds when "x"|14: expected thp or kernel after "when", got a quoted citation'
	)
	local b
	results_thp madvise
	for b in "${bad[@]}"; do
		printf '%s\n' '# test' "${b%%|*}" > "$EXP/ok.claims"
		run -2 --separate-stderr check_from
		echo "claim:  ${b%%|*}"
		echo "stderr: $stderr"
		[[ "$stderr" == *"ok.claims:2:${b#*|}"* ]] || false
	done
}

@test "the platform key names the CPUs, and those of a narrower affinity mask" {
	local n r=$BATS_TEST_TMPDIR/k
	n=$(getconf _NPROCESSORS_ONLN)
	run -0 timeout -k 5 120 "$MR" run --cases "$FIX" --out "$r" --axis allocator=glibc --repeat 1 ok
	grep -q "^platform	.*-thp_[a-z]*-cpu$n\$" "$r/env.tsv" || { grep platform "$r/env.tsv"; false; }
	[ "$n" -ge 2 ] || skip "one CPU online: no narrower mask to try"
	command -v taskset >/dev/null || skip "taskset (util-linux) is not installed"
	run -0 taskset -c 0 timeout -k 5 120 "$MR" run --cases "$FIX" --out "$r.1" --axis allocator=glibc --repeat 1 ok
	grep -q "^platform	.*-cpu1of$n\$" "$r.1/env.tsv" || { grep platform "$r.1/env.tsv"; false; }
}

@test "bless writes no row of a figure that counts a clock (mimalloc's minflt)" {
	run -0 timeout -k 5 120 "$MR" run --cases "$FIX" --out "$BATS_TEST_TMPDIR/m" \
		--axis allocator=glibc,mimalloc --repeat 1 ok
	grep -q 'allocator=mimalloc.*	ok	' "$BATS_TEST_TMPDIR/m/runs.tsv" ||
		skip "mimalloc is not installed (Debian package libmimalloc2.0)"
	run -0 timeout -k 5 60 "$MR" bless --from "$BATS_TEST_TMPDIR/m" --expected "$EXP" --yes
	base=$(ls "$EXP"/*/ok.tsv)
	# glibc's minflt is a baseline row; mimalloc's is not, its memory at a
	# checkpoint is (its peak, maxrss_kb, is blessed only from an idle
	# machine's runs: it follows the decommit clock too)
	grep -q '^allocator=glibc,[^	]*	-	minflt	' "$base"
	# on a busy machine (every mimalloc run stretched) none of mimalloc's
	# figures is blessed, and bless says so
	if [[ "$output" == *"3 configs whose figures follow the allocator's clock ran only on a busy machine: their figures not blessed"* ]]; then
		run ! grep '^allocator=mimalloc,[^	]*	done	' "$base"
	else
		grep -q '^allocator=mimalloc,[^	]*	done	rss_kb	' "$base"
	fi
	run ! grep '^allocator=mimalloc,[^	]*	-	minflt	' "$base"
}

# --- the quick corpus on other machines ------------------------------------

# The quick corpus as make check runs it, results into $1.
corpus() {
	timeout -k 10 1800 "$MR" check --profile quick -j "${JOBS:-$(nproc)}" --out "$1"
}

portable_only() {
	[ -n "${MEMREPRO_PORTABLE:-}" ] ||
		skip "the quick corpus takes minutes per setting: make check-portable (MEMREPRO_PORTABLE=1) runs it"
}

# The check's verdicts in one line per case, for the log.
summary() {
	printf '%s\n' "$output" | grep -E '^[a-z-]+: .*claim|regressed  |^total' || true
}

# busy_start: a loop on CPU 0, as another program would keep it busy
# (taskset execs it: its pid is the loop's); busy_stop kills it and
# proves it gone.
busy_start() {
	taskset -c 0 sh -c 'while :; do :; done' &
	echo "$!" > "$BATS_TEST_TMPDIR/busy.pid"
}
busy_stop() {
	local busy
	busy=$(cat "$BATS_TEST_TMPDIR/busy.pid")
	kill "$busy"
	wait "$busy" || true
	rm -f "$BATS_TEST_TMPDIR/busy.pid"
	run ! kill -0 "$busy"
}

# thp_settable: root, and a THP mode to switch.
thp_settable() {
	[ "$(id -u)" -eq 0 ] && [ -w "$THP" ]
}

# The last THP mode switched to runs beside the busy loop: one corpus run
# proves both (under make ci, the host's own mode is left to make check).
@test "the quick corpus passes check under THP always, madvise and never, the last of them with one CPU kept busy" {
	portable_only
	[ "$(id -u)" -eq 0 ] || skip "switching $THP needs root"
	[ -w "$THP" ] || skip "$THP is not writable (no THP, or a read-only /sys)"
	local orig mode modes=() fails=0 busy left=${MEMREPRO_PORTABLE_MARK:-/var/tmp/memrepro-portable.thp}
	# A run killed outright (SIGKILL, the machine's session ended) puts
	# nothing back: the mode it found waits in $left, put back first.
	if [ -s "$left" ] && grep -qxE 'always|madvise|never' "$left"; then
		echo "THP put back to $(cat "$left"), as a killed run of this test found it"
		cat "$left" > "$THP"
	fi
	orig=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$THP")
	[ -n "$orig" ]
	echo "$orig" > "$BATS_TEST_TMPDIR/thp.orig"
	echo "$orig" > "$left"
	for mode in always madvise never; do
		# make ci has just run `make check` under the host's own mode
		if [ -n "${MEMREPRO_PORTABLE_SKIP_HOST:-}" ] && [ "$mode" = "$orig" ]; then
			echo "THP $mode: the host's own mode, checked by make check before this"
			continue
		fi
		modes+=("$mode")
	done
	for mode in "${modes[@]}"; do
		busy=
		if [ "$mode" = "${modes[-1]}" ] && command -v taskset >/dev/null; then
			busy=", one CPU busy"
			busy_start
		fi
		# A subshell that puts the mode back however it ends.
		run bash -c 'trap "echo $2 > $3" EXIT; trap "exit 143" INT TERM HUP
			echo "$1" > "$3" || exit 99; shift 3; "$@"' _ "$mode" "$orig" "$THP" \
			timeout -k 10 1800 "$MR" check --profile quick -j "${JOBS:-$(nproc)}" \
			--out "$BATS_TEST_TMPDIR/thp-$mode"
		echo "THP $mode$busy: status $status"
		summary
		grep -q "^thp	$mode\$" "$BATS_TEST_TMPDIR/thp-$mode/env.tsv" || fails=1
		[ "$status" -eq 0 ] || fails=1
		[ "$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$THP")" = "$orig" ] || fails=1
		if [ -n "$busy" ]; then
			busy_stop || fails=1
		fi
	done
	rm -f "$left"
	[ "$fails" -eq 0 ]
}

@test "the quick corpus passes check with one CPU kept busy by another program" {
	portable_only
	command -v taskset >/dev/null || skip "taskset (util-linux) is not installed"
	! thp_settable || skip "the THP test's last mode ran beside the busy loop"
	local rc
	busy_start
	run corpus "$BATS_TEST_TMPDIR/busy"
	rc=$status
	echo "one CPU busy: status $rc"
	summary
	busy_stop
	[ "$rc" -eq 0 ]
}
