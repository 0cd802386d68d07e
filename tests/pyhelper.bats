#!/usr/bin/env bats
# lib/memrepro.py, the checkpoint helper of Python originals
# (docs/originals.md): the protocol under a mock runner
# (tests/data/pyhelper/mock.py), by hand, and end to end under the runner
# with a fixture original of the model "touch", on the host's python3.

load test_helper

setup() {
	command -v python3 > /dev/null || skip "no python3 on this machine"
	LIB=$ROOT/build/lib
	DATA=$ROOT/tests/data/pyhelper
}

# mock MODE ARGS...: the program under the mock runner.
mock() {
	timeout -k 5 60 python3 "$DATA/mock.py" "$1" python3 "$DATA/prog.py" "$LIB" "${@:2}"
}

@test "memrepro.py under a runner: one record per checkpoint, measured while it waits; a forked child sends none; children see neither fds nor variables" {
	run -0 mock ack --param n=5 own --param=m=2
	# grow 1..3, then done: the child's "child" never came
	[ "$(grep -c '^record ' <<< "$output")" -eq 4 ]
	[ "$(grep '^record ' <<< "$output" | awk '{ printf "%s%s ", $2, $3 }')" = "grow1 grow2 grow3 done1 " ]
	# RSS grew 16 MiB between records: the runner saw the program blocked
	mapfile -t rss < <(awk '$1 == "record" && $2 == "grow" { print $4 }' <<< "$output")
	(( rss[1] - rss[0] > 15 * 1024 && rss[2] - rss[1] > 15 * 1024 )) || false
	[[ "$output" == *"child-env unset unset"* ]] || false
	[[ "$output" != *"child-has-fd"* ]] || false
	# --param taken off argv, the program's own argument left
	[[ "$output" == *"param n=5 argv own"* ]] || false
	[ "${lines[-1]}" = "exit 0" ]
}

@test "memrepro.py with the runner gone before the start (EOF, EPIPE) or in the middle (EOF on the ack): the program runs to its end, exit 0" {
	run -0 mock gone-before
	[[ "$output" == *"param n=none argv "* ]] || false
	[ "${lines[-2]}" = end ]
	[ "${lines[-1]}" = "exit 0" ]
	run -0 mock gone-mid
	# one record, unacked: EOF; no record after it
	[ "$(grep -c '^record ' <<< "$output")" -eq 1 ]
	[ "${lines[-2]}" = end ]
	[ "${lines[-1]}" = "exit 0" ]
}

@test "memrepro.py by hand: no variables, nothing sent; bad variables and names are one line on stderr, the program runs on" {
	run -0 --separate-stderr timeout 60 python3 "$DATA/prog.py" "$LIB"
	[ "$stderr" = "" ]
	[ "${lines[-1]}" = end ]
	run -0 --separate-stderr env MEMREPRO_CKPT_FD=x MEMREPRO_ACK_FD=4 timeout 60 python3 "$DATA/prog.py" "$LIB"
	[[ "$stderr" == "memrepro: MEMREPRO_CKPT_FD is not a file descriptor number: x; checkpoints are off" ]] || false
	[ "${lines[-1]}" = end ]
	run -0 --separate-stderr env MEMREPRO_CKPT_FD=3 timeout 60 python3 "$DATA/prog.py" "$LIB"
	[[ "$stderr" == *"MEMREPRO_CKPT_FD and MEMREPRO_ACK_FD go together; only one is set; checkpoints are off"* ]] || false
	# fds that are not open: as a gone runner, silently
	run -0 --separate-stderr env MEMREPRO_CKPT_FD=97 MEMREPRO_ACK_FD=98 timeout 60 python3 "$DATA/prog.py" "$LIB"
	[ "$stderr" = "" ]
	[ "${lines[-1]}" = end ]
	run -0 --separate-stderr timeout 60 python3 -c "import sys; sys.path.insert(0, '$LIB'); import memrepro
memrepro.checkpoint('Bad Name'); memrepro.checkpoint(None); memrepro.param('x', 1) == 1 and print('went on')" --param bad
	[[ "$stderr" == *"checkpoint name is not [a-z0-9_-]{1,63}: Bad Name; dropped"* ]] || false
	[[ "$stderr" == *"--param wants NAME=VALUE, not 'bad'; ignored"* ]] || false
	[ "$output" = "went on" ]
}

@test "a Python original runs beside its model under runtime=python: its parameter passed, its checkpoint measured" {
	D=$BATS_TEST_TMPDIR/cases
	mkdir -p "$D" "$BATS_TEST_TMPDIR/lib"
	cp "$FIX/touch" "$D/"
	cp "$ROOT/tests/data/originals/good.py" "$D/touch.py"
	cp "$LIB/memrepro.py" "$BATS_TEST_TMPDIR/lib/"
	run -0 timeout -k 5 120 "$MR" run --cases "$D" --out "$BATS_TEST_TMPDIR/out" --repeat 1 \
		--axis allocator=glibc --axis runtime=c,python --axis mb=8,40 touch
	d=$BATS_TEST_TMPDIR/out
	[ "$(tsv_col "$d/runs.tsv" outcome '$2 == "allocator=glibc,mb=8,runtime=python"')" = ok ]
	small=$(tsv_col "$d/checkpoints.tsv" rss_kb '$2 == "allocator=glibc,mb=8,runtime=python"')
	big=$(tsv_col "$d/checkpoints.tsv" rss_kb '$2 == "allocator=glibc,mb=40,runtime=python"')
	(( big - small > 30 * 1024 && big - small < 36 * 1024 )) || false
	log=$(tsv_col "$d/runs.tsv" log '$2 == "allocator=glibc,mb=40,runtime=python"')
	grep -qx "touched 40 MiB; env None; argv " "$d/$log"
	grep -q "^runtime.python.version	" "$d/env.tsv"
}

@test "pymalloc-survivors: the model and its Python original, quick, under glibc: every claim holds" {
	run -0 timeout -k 5 300 "$MR" run --out "$BATS_TEST_TMPDIR/out" --repeat 1 --profile quick \
		--axis allocator=glibc --axis runtime=c,python pymalloc-survivors
	run -0 "$MR" check --from "$BATS_TEST_TMPDIR/out" pymalloc-survivors
	[[ "$output" == *"pymalloc-survivors: 8 claims held, 0 reproduces, 0 regressed"* ]] || false
	d=$BATS_TEST_TMPDIR/out
	# the original printed the report's rows, as by hand
	log=$(tsv_col "$d/runs.tsv" log '$2 ~ /alloc=malloc/ && $2 ~ /runtime=python/')
	grep -q "^malloc: after freeing everything " "$d/$log"
}
