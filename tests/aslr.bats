#!/usr/bin/env bats
# --aslr: the cases run without address space randomization unless asked,
# so that where a mapping lands (and whether THP or an allocator's 2 MiB
# alignment costs it a page more) is the same run to run.

load test_helper

# The personality of a nap case while it sleeps, read from /proc, with the
# runner given "$@"; and env.tsv's aslr into $BATS_TEST_TMPDIR/aslr.
personality_of_case() {
	local d=$BATS_TEST_TMPDIR/p$RANDOM pid p=
	# (no `timeout` around it: $! must be the runner, whose child the case is)
	"$MR" run --cases "$FIX" --out "$d" --axis allocator=glibc --axis ms=3000 \
		--repeat 1 -q "$@" nap >/dev/null &
	runner=$!
	for _ in $(seq 100); do
		pid=$(pgrep -P "$runner" -f "$FIX/nap --param" | head -n 1)
		[ -n "$pid" ] && p=$(cat "/proc/$pid/personality" 2>/dev/null) && break
		sleep 0.05
	done
	kill -INT "$runner"
	wait "$runner" || true
	awk -F'\t' '$1 == "aslr" { print $2 }' "$d/env.tsv" > "$BATS_TEST_TMPDIR/aslr"
	echo "$p"
}

@test "cases run with ADDR_NO_RANDOMIZE by default, and env.tsv says so" {
	p=$(personality_of_case)
	echo "personality $p, aslr $(cat "$BATS_TEST_TMPDIR/aslr")"
	[ -n "$p" ]
	case $(cat "$BATS_TEST_TMPDIR/aslr") in
	off) [ $((0x$p & 0x0040000)) -ne 0 ] ;;
	"on (personality:"*) skip "this machine refuses ADDR_NO_RANDOMIZE" ;;
	*) false ;;
	esac
}

@test "--aslr on leaves the layout random, even under setarch -R" {
	command -v setarch >/dev/null || skip "no setarch"
	setarch -R true 2>/dev/null || skip "setarch -R refused here"
	p=$(setarch -R bash -c "$(declare -f personality_of_case); FIX=$FIX MR=$MR BATS_TEST_TMPDIR=$BATS_TEST_TMPDIR personality_of_case --aslr on")
	echo "personality $p"
	[ -n "$p" ]
	[ $((0x$p & 0x0040000)) -eq 0 ]
	[ "$(cat "$BATS_TEST_TMPDIR/aslr")" = on ]
}

@test "bad --aslr values are exit 2 naming the option" {
	for v in yes 1 '' OFF; do
		run -2 --separate-stderr "$MR" run --cases "$FIX" --out "$BATS_TEST_TMPDIR/o" --aslr "$v" nap
		[[ "$stderr" == *"--aslr '$v'"* ]] || false
		[ ! -e "$BATS_TEST_TMPDIR/o" ]
	done
}
