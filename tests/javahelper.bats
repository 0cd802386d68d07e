#!/usr/bin/env bats
# lib/Memrepro.java, the checkpoint helper of Java originals
# (docs/originals.md): the protocol under a mock runner
# (tests/data/pyhelper/mock.py), by hand, and end to end under the runner
# with a fixture original of the model "touch", on the host's java (the
# source launcher) with the class make built.

load test_helper

setup() {
	command -v java > /dev/null || skip "no java on this machine"
	command -v python3 > /dev/null || skip "no python3 for the mock runner"
	LIB=$ROOT/build/lib
	[ -f "$LIB/Memrepro.class" ] || skip "build/lib/Memrepro.class not built: no javac when make ran"
	DATA=$ROOT/tests/data/javahelper
}

# mock MODE ARGS...: the program under the mock runner.
mock() {
	timeout -k 5 120 python3 "$ROOT/tests/data/pyhelper/mock.py" "$1" \
		java --class-path "$LIB" "$DATA/Prog.java" "${@:2}"
}

@test "Memrepro.java under a runner: one record per checkpoint, measured while it waits; a child holds none of the fds; --param taken off" {
	run -0 mock ack --param n=5 own --param=m=2
	[ "$(grep '^record ' <<< "$output" | awk '{ printf "%s%s ", $2, $3 }')" = "grow1 grow2 grow3 done1 " ]
	# RSS grew 16 MiB between records: the runner saw the program blocked
	mapfile -t rss < <(awk '$1 == "record" && $2 == "grow" { print $4 }' <<< "$output")
	(( rss[1] - rss[0] > 15 * 1024 && rss[2] - rss[1] > 15 * 1024 )) || false
	[[ "$output" != *"child-has-fd"* ]] || false
	[[ "$output" == *"param n=5 argv own kept 3"* ]] || false
	[[ "$output" == *"memrepro: checkpoint name is not [a-z0-9_-]{1,63}: Bad Name; dropped"* ]] || false
	[ "${lines[-1]}" = "exit 0" ]
}

@test "Memrepro.java with the runner gone before the start (no reader: the open gives up) or in the middle (EOF on the ack): the program runs to its end, exit 0" {
	run -0 mock gone-before
	[ "$(grep -c '^record ' <<< "$output")" -eq 0 ]
	[ "${lines[-2]}" = end ]
	[ "${lines[-1]}" = "exit 0" ]
	run -0 mock gone-mid
	# one record, unacked: EOF; no record after it
	[ "$(grep -c '^record ' <<< "$output")" -eq 1 ]
	[ "${lines[-2]}" = end ]
	[ "${lines[-1]}" = "exit 0" ]
}

@test "Memrepro.java by hand: no variables, nothing sent; bad variables are one line on stderr, the program runs on" {
	run -0 --separate-stderr timeout 120 java --class-path "$LIB" "$DATA/Prog.java"
	[ "$stderr" = "memrepro: checkpoint name is not [a-z0-9_-]{1,63}: Bad Name; dropped" ]
	[ "${lines[-1]}" = end ]
	run -0 --separate-stderr env MEMREPRO_CKPT_FD=x MEMREPRO_ACK_FD=4 timeout 120 java --class-path "$LIB" "$DATA/Prog.java"
	[[ "$stderr" == *"memrepro: MEMREPRO_CKPT_FD is not a file descriptor number: x; checkpoints are off"* ]] || false
	[ "${lines[-1]}" = end ]
	run -0 --separate-stderr env MEMREPRO_CKPT_FD=3 timeout 120 java --class-path "$LIB" "$DATA/Prog.java"
	[[ "$stderr" == *"MEMREPRO_CKPT_FD and MEMREPRO_ACK_FD go together; only one is set; checkpoints are off"* ]] || false
	# fds that are not open: as a gone runner, silently
	run -0 --separate-stderr env MEMREPRO_CKPT_FD=97 MEMREPRO_ACK_FD=98 timeout 120 java --class-path "$LIB" "$DATA/Prog.java" --param bad
	[[ "$stderr" == *"--param wants NAME=VALUE, not 'bad'; ignored"* ]] || false
	[[ "$stderr" != *"MEMREPRO_"* ]] || false
	[ "${lines[-1]}" = end ]
}

@test "a Java original runs beside its model under runtime=java: its parameter passed, its checkpoint measured; without the helper's class: skipped, saying so" {
	D=$BATS_TEST_TMPDIR/cases
	mkdir -p "$D" "$BATS_TEST_TMPDIR/lib"
	cp "$FIX/touch" "$D/"
	cp "$ROOT/tests/data/originals/touch.java" "$D/touch.java"
	cp "$LIB/Memrepro.class" "$BATS_TEST_TMPDIR/lib/"
	run -0 timeout -k 5 300 "$MR" run --cases "$D" --out "$BATS_TEST_TMPDIR/out" --repeat 1 \
		--axis allocator=glibc --axis runtime=c,java --axis mb=8,40 touch
	d=$BATS_TEST_TMPDIR/out
	[ "$(tsv_col "$d/runs.tsv" outcome '$2 == "allocator=glibc,mb=8,runtime=java"')" = ok ]
	small=$(tsv_col "$d/checkpoints.tsv" rss_kb '$2 == "allocator=glibc,mb=8,runtime=java"')
	big=$(tsv_col "$d/checkpoints.tsv" rss_kb '$2 == "allocator=glibc,mb=40,runtime=java"')
	echo "rss at touched: mb=8 $small, mb=40 $big"
	(( big - small > 24 * 1024 && big - small < 48 * 1024 )) || false
	log=$(tsv_col "$d/runs.tsv" log '$2 == "allocator=glibc,mb=40,runtime=java"')
	grep -qx "touched 40 MiB; argv " "$d/$log"
	grep -q "^runtime.java.version	" "$d/env.tsv"
	rm "$BATS_TEST_TMPDIR/lib/Memrepro.class"
	run -0 timeout -k 5 120 "$MR" run --cases "$D" --out "$BATS_TEST_TMPDIR/out2" --repeat 1 \
		--axis allocator=glibc --axis runtime=java --axis mb=8 touch
	[ "$(tsv_col "$BATS_TEST_TMPDIR/out2/runs.tsv" outcome '$2 ~ /runtime=java/')" = skipped ]
	grep -q "touch.java needs the Java helper Memrepro.class beside it in ../lib" "$BATS_TEST_TMPDIR/out2/runs.tsv"
}
