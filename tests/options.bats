#!/usr/bin/env bats
# Allocator options as axes: --axis jemalloc.KEY=V reaches the case in
# MALLOC_CONF (after what the runner inherited in it), mimalloc.KEY and
# tcmalloc.KEY as MIMALLOC_KEY / TCMALLOC_KEY; only in the configs of
# that allocator, part of their names.  The showenv fixture prints what
# reached it.

load test_helper

# The log of config CONFIG (its file name: '=' as '-', ',' as '+').
log_of() {
	cat "$BATS_TEST_TMPDIR/out/logs/showenv/$1.1.log"
}

# Skip when the host lacks allocator $1 (its configs would be skipped).
need_alloc() {
	if grep -q "^allocator\.$1\.missing" "$BATS_TEST_TMPDIR/out/env.tsv"; then
		skip "$1 is not installed here: $(grep "^allocator\.$1\.missing" "$BATS_TEST_TMPDIR/out/env.tsv" | cut -f2)"
	fi
}

@test "a jemalloc option reaches MALLOC_CONF of the jemalloc configs only, named in their configs" {
	run -0 mrf run showenv --repeat 1 --axis allocator=glibc,jemalloc \
		--axis jemalloc.dirty_decay_ms=-1,10000
	need_alloc jemalloc
	# one glibc config, not two: the option is not the glibc config's
	run -0 tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" config
	[ "$output" = "allocator=glibc,thp=never
allocator=jemalloc,jemalloc.dirty_decay_ms=-1,thp=never
allocator=jemalloc,jemalloc.dirty_decay_ms=10000,thp=never" ]
	run -0 log_of allocator-jemalloc+jemalloc.dirty_decay_ms--1
	[[ "$output" == *$'\nMALLOC_CONF=dirty_decay_ms:-1\n'* ]] || false
	run -0 log_of allocator-jemalloc+jemalloc.dirty_decay_ms-10000
	[[ "$output" == *$'\nMALLOC_CONF=dirty_decay_ms:10000\n'* ]] || false
	run -0 log_of allocator-glibc
	[[ "$output" != *MALLOC_CONF* ]] || false
	# env.tsv says which variable carries it
	run -0 grep -x $'option.jemalloc.dirty_decay_ms\tMALLOC_CONF' "$BATS_TEST_TMPDIR/out/env.tsv"
}

@test "several jemalloc options join in key order after the inherited MALLOC_CONF" {
	MALLOC_CONF=narenas:3 run -0 mrf run showenv --repeat 1 --axis allocator=jemalloc \
		--axis jemalloc.narenas=1 --axis jemalloc.dirty_decay_ms=0
	need_alloc jemalloc
	run -0 tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" config
	[ "$output" = "allocator=jemalloc,jemalloc.dirty_decay_ms=0,jemalloc.narenas=1,thp=never" ]
	# later pairs win in jemalloc: the axis' narenas:1 over the inherited 3
	run -0 log_of default
	[[ "$output" == *$'MALLOC_CONF=narenas:3,dirty_decay_ms:0,narenas:1\n'* ]] || false
	# the inherited one is recorded as such
	run -0 grep -x $'env.MALLOC_CONF\tnarenas:3' "$BATS_TEST_TMPDIR/out/env.tsv"
}

@test "a mimalloc option is MIMALLOC_<KEY>, replacing an inherited one" {
	MIMALLOC_SHOW_ERRORS=5 run -0 mrf run showenv --repeat 1 \
		--axis allocator=glibc,mimalloc --axis mimalloc.show_errors=0
	need_alloc mimalloc
	run -0 log_of allocator-mimalloc
	[[ "$output" == *$'\nMIMALLOC_SHOW_ERRORS=0\n'* ]] || false
	[[ "$output" != *MIMALLOC_SHOW_ERRORS=5* ]] || false
	run -0 grep -c "^MIMALLOC_SHOW_ERRORS=" "$BATS_TEST_TMPDIR/out/logs/showenv/allocator-mimalloc.1.log"
	[ "$output" = 1 ]
	# the glibc config keeps what the runner had
	run -0 log_of allocator-glibc
	[[ "$output" == *$'MIMALLOC_SHOW_ERRORS=5\n'* ]] || false
}

@test "a tcmalloc option is TCMALLOC_<KEY>" {
	run -0 mrf run showenv --repeat 1 --axis allocator=tcmalloc --axis tcmalloc.release_rate=0,10
	need_alloc tcmalloc
	run -0 log_of tcmalloc.release_rate-10
	[[ "$output" == *$'\nTCMALLOC_RELEASE_RATE=10\n'* ]] || false
	run -0 grep -x $'option.tcmalloc.release_rate\tTCMALLOC_RELEASE_RATE' "$BATS_TEST_TMPDIR/out/env.tsv"
}

@test "an option of an allocator that takes none, or of an unknown one: exit 2 naming the axis" {
	run -2 mrf run showenv --axis allocator=tbbmalloc --axis tbbmalloc.x=1
	[[ "$output" == *"--axis tbbmalloc.x: allocator tbbmalloc takes no options"* ]] || false
	run -2 mrf run showenv --axis jemaloc.narenas=1
	[[ "$output" == *"--axis jemaloc.narenas: unknown allocator 'jemaloc'; did you mean 'jemalloc'?"* ]] || false
	[ ! -e "$BATS_TEST_TMPDIR/out" ]
}

@test "an option or value jemalloc refuses (it would run on without it): exit 2 naming what it said, nothing run" {
	run -0 mrf run showenv --repeat 1 --axis allocator=jemalloc --axis jemalloc.narenas=1,2
	need_alloc jemalloc
	rm -rf "$BATS_TEST_TMPDIR/out"
	run -2 --separate-stderr mrf run showenv --repeat 1 --axis allocator=glibc,jemalloc --axis jemalloc.dirty_decay=0
	[[ "$stderr" == *"--axis jemalloc options: jemalloc "*" does not take MALLOC_CONF=dirty_decay:0: Invalid conf pair: dirty_decay:0"* ]] || false
	[ ! -e "$BATS_TEST_TMPDIR/out" ]
	run -2 --separate-stderr mrf run showenv --repeat 1 --axis allocator=jemalloc --axis jemalloc.narenas=x
	[[ "$stderr" == *"does not take MALLOC_CONF=narenas:x: Invalid conf value: narenas:x"* ]] || false
	# a command's too
	run -2 --separate-stderr timeout 60 "$MR" run --out "$BATS_TEST_TMPDIR/out" --axis allocator=jemalloc \
		--axis jemalloc.dirty_decay=0 -- true
	[[ "$stderr" == *"Invalid conf pair: dirty_decay:0"* ]] || false
	[ ! -e "$BATS_TEST_TMPDIR/out" ]
	# a claims file's directive may name one on purpose (what a version
	# without it does): its configs run
	mkdir -p "$BATS_TEST_TMPDIR/exp"
	echo 'axis jemalloc.no_such=1' > "$BATS_TEST_TMPDIR/exp/showenv.claims"
	run -0 mrf run showenv --repeat 1 --axis allocator=jemalloc --expected "$BATS_TEST_TMPDIR/exp"
	tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" config | grep -qx "allocator=jemalloc,jemalloc.no_such=1,thp=never"
}

@test "an option mimalloc does not list (it reads only the variables it knows): exit 2 naming the ones it has" {
	run -0 mrf run showenv --repeat 1 --axis allocator=mimalloc
	need_alloc mimalloc
	rm -rf "$BATS_TEST_TMPDIR/out"
	run -2 --separate-stderr mrf run showenv --repeat 1 --axis allocator=glibc,mimalloc --axis mimalloc.no_such=1
	[[ "$stderr" == *"--axis mimalloc options: mimalloc "*" does not take MIMALLOC_NO_SUCH=1: no option 'no_such' (its options: show_errors, "* ]] || false
	[ ! -e "$BATS_TEST_TMPDIR/out" ]
}

@test "an option of an allocator no config has: exit 2" {
	run -2 mrf run showenv --axis allocator=glibc,mimalloc --axis jemalloc.narenas=1
	[[ "$output" == *"--axis jemalloc.narenas: no config would have allocator jemalloc"* ]] || false
}

@test "an option key or value that cannot travel: exit 2 naming the axis" {
	run -2 mrf run showenv --axis jemalloc.Narenas=1
	[[ "$output" == *"--axis 'jemalloc.Narenas=1': bad key 'jemalloc.Narenas'"* ]] || false
	run -2 mrf run showenv --axis jemalloc.=1
	[[ "$output" == *"bad key 'jemalloc.'"* ]] || false
	run -2 mrf run showenv --axis jemalloc.a.b=1
	[[ "$output" == *"bad key 'jemalloc.a.b'"* ]] || false
	# MALLOC_CONF splits at ':' and ','
	run -2 mrf run showenv --axis jemalloc.narenas=1:2
	[[ "$output" == *"--axis 'jemalloc.narenas=1:2': bad value '1:2'"* ]] || false
}

@test "describe shows the option configs without running anything" {
	run -0 mr describe --cases "$FIX" showenv --axis allocator=glibc,jemalloc --axis jemalloc.narenas=1,2
	[[ "$output" == *"allocator=jemalloc,jemalloc.narenas=2"* ]] || false
	[[ "$output" != *"allocator=glibc,jemalloc"* ]] || false
}

@test "'@' only in an allocator spec, once, between a name and a version: exit 2 otherwise" {
	run -2 mrf run showenv --axis allocator=@1.0
	[[ "$output" == *"bad value '@1.0'"* ]] || false
	run -2 mrf run showenv --axis allocator=jemalloc@
	[[ "$output" == *"bad value 'jemalloc@'"* ]] || false
	run -2 mrf run showenv --axis allocator=jemalloc@5@3
	[[ "$output" == *"bad value 'jemalloc@5@3'"* ]] || false
	run -2 mrf run showenv --axis thp=never@1
	[[ "$output" == *"bad value 'never@1'"* ]] || false
}

@test "a variable the runner inherited twice reaches the case once: the first, as getenv sees it" {
	# an environment with two entries of one name (execve allows it)
	cat > "$BATS_TEST_TMPDIR/twice.c" <<-'EOF2'
	#include <stdlib.h>
	#include <unistd.h>
	extern char **environ;
	int main(int argc, char **argv)
	{
		int n = 0, i;
		char **e;

		(void)argc;
		while (environ[n])
			n++;
		e = calloc((size_t)n + 3, sizeof *e);
		for (i = 0; i < n; i++)
			e[i] = environ[i];
		e[n] = "MALLOC_CONF=first";
		e[n + 1] = "MALLOC_CONF=second";
		execve(argv[1], argv + 1, e);
		return 127;
	}
	EOF2
	"${CC:-cc}" -o "$BATS_TEST_TMPDIR/twice" "$BATS_TEST_TMPDIR/twice.c"
	run -0 timeout -k 5 60 "$BATS_TEST_TMPDIR/twice" "$MR" run --cases "$FIX" \
		--out "$BATS_TEST_TMPDIR/out" showenv --repeat 1 --axis allocator=glibc
	run -0 grep -c '^MALLOC_CONF=' "$BATS_TEST_TMPDIR/out/logs/showenv/default.1.log"
	[ "$output" = 1 ]
	run -0 grep -x 'MALLOC_CONF=first' "$BATS_TEST_TMPDIR/out/logs/showenv/default.1.log"
}
