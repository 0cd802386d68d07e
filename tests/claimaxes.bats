#!/usr/bin/env bats
# The axis directive of a claims file ("axis KEY=V1,V2"): the case's
# matrix also has the configs with KEY=V beside its configs without KEY
# (their names unchanged), in run, check, bless and report, unless the
# command line gives --axis KEY; a reference that leaves KEY unnamed takes
# the configs without it.  The showenv fixture prints what reached it;
# the allocator "fix" (the fixture allocator library, options through
# MALLOC_CONF) stands in for jemalloc so that no real one is needed.

load test_helper

setup() {
	EXP=$BATS_TEST_TMPDIR/expected
	mkdir -p "$EXP"
	REG=$BATS_TEST_TMPDIR/allocators
	printf '%s\n' '[fix]' 'library = libfakealloc.so.1' \
		"search = $ROOT/build/fakealloc/1.0" 'options = conf MALLOC_CONF' > "$REG"
}

# memrepro SUB on showenv under glibc and fix, claims from $EXP.
mrc() {
	local sub=$1
	shift
	timeout -k 5 120 "$MR" "$sub" --cases "$FIX" --expected "$EXP" --allocators "$REG" \
		--out "$BATS_TEST_TMPDIR/out" --axis allocator=glibc,fix --repeat 1 "$@" showenv
}

configs() {
	tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" config | sort -u
}

claims() {
	printf '%s\n' "$@" > "$EXP/showenv.claims"
}

@test "an axis directive adds the configs with the option, beside the unchanged ones, and the option reaches the case" {
	claims '# two values of an option' 'axis fix.narenas=1,2' \
		'ran holds maxrss_kb[allocator=fix] >= 0 "fixture"'
	run -0 mrc run
	run -0 configs
	[ "$output" = "allocator=fix,fix.narenas=1,thp=never
allocator=fix,fix.narenas=2,thp=never
allocator=fix,thp=never
allocator=glibc,thp=never" ]
	# the added configs' short names have the option; the others are as before
	l=$BATS_TEST_TMPDIR/out/logs/showenv
	run -0 cat "$l/allocator-fix+fix.narenas-2.1.log"
	[[ "$output" == *$'\nMALLOC_CONF=narenas:2\n'* ]] || false
	run -0 cat "$l/allocator-fix.1.log"
	[[ "$output" != *MALLOC_CONF* ]] || false
	run -0 cat "$l/allocator-glibc.1.log"
	[[ "$output" != *MALLOC_CONF* ]] || false
}

@test "without the directive the matrix is the default one" {
	claims 'ran holds maxrss_kb[allocator=fix] >= 0 "fixture"'
	run -0 mrc run
	run -0 configs
	[ "$output" = "allocator=fix,thp=never
allocator=glibc,thp=never" ]
}

@test "a directive of glibc's malloc tunable adds configs of allocator=glibc only, another glibc tunable of every allocator" {
	claims 'axis glibc.malloc.mmap_threshold=131072' \
		'ran holds maxrss_kb >= 0 "fixture"'
	run -0 mrc run
	run -0 configs
	[ "$output" = "allocator=fix,thp=never
allocator=glibc,glibc.malloc.mmap_threshold=131072,thp=never
allocator=glibc,thp=never" ]
	run -0 cat "$BATS_TEST_TMPDIR/out/logs/showenv/allocator-glibc+glibc.malloc.mmap_threshold-131072.1.log"
	[[ $'\n'"$output" == *$'\nGLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072\n'* ]] || false
	run -0 cat "$BATS_TEST_TMPDIR/out/logs/showenv/allocator-glibc.1.log"
	[[ "$output" != *GLIBC_TUNABLES* ]] || false
	# not glibc's malloc: it reaches any allocator's process
	claims 'axis glibc.pthread.rseq=0' 'ran holds maxrss_kb >= 0 "fixture"'
	rm -rf "$BATS_TEST_TMPDIR/out"
	run -0 mrc run
	run -0 configs
	[ "$output" = "allocator=fix,glibc.pthread.rseq=0,thp=never
allocator=fix,thp=never
allocator=glibc,glibc.pthread.rseq=0,thp=never
allocator=glibc,thp=never" ]
}

@test "check judges a claim on the added configs; a claim not naming the key takes the configs without it only" {
	claims 'axis fix.narenas=1,2' \
		'plain holds maxrss_kb[allocator=fix] >= 0 "fixture: the default config only"' \
		'tuned holds maxrss_kb[allocator=fix,fix.narenas=2] >= 0 "fixture: an added config"' \
		'each holds maxrss_kb[allocator=fix,fix.narenas=1] >= 0 * maxrss_kb[allocator=fix] "fixture: added beside default"' \
		'ranged holds maxrss_kb > 0 "fixture: over the allocators, not the option"'
	run -0 mrc check --verbose
	[[ "$output" =~ plain\ +held ]] || false
	[[ "$output" =~ tuned\ +held ]] || false
	[[ "$output" =~ each\ +held ]] || false
	[[ "$output" =~ ranged\ +held[^$'\n']*"2 of 2 combinations held" ]] || false
	# one combination each: no "combinations" in their lines, no skips
	run -0 grep -E '^ +claim +(plain|tuned|each) ' <<<"$output"
	[[ "$output" != *combinations* ]] || false
	[[ "$output" != *skipped* ]] || false
}

@test "the command line's --axis of the key wins over the directive" {
	claims 'axis fix.narenas=1,2' 'ran holds maxrss_kb[allocator=fix,fix.narenas=3] >= 0 "fixture"'
	run -0 mrc run --axis fix.narenas=3
	run -0 configs
	[ "$output" = "allocator=fix,fix.narenas=3,thp=never
allocator=glibc,thp=never" ]
}

@test "an option directive of an allocator the run does not have adds nothing; its claims are skipped" {
	claims 'axis fix.narenas=1' 'ran holds maxrss_kb >= 0 "fixture"' \
		'tuned holds maxrss_kb[allocator=fix,fix.narenas=1] >= 0 "fixture"'
	run -0 timeout -k 5 120 "$MR" check --cases "$FIX" --expected "$EXP" --allocators "$REG" \
		--out "$BATS_TEST_TMPDIR/out" --axis allocator=glibc --repeat 1 showenv
	[[ "$output" =~ ran\ +held ]] || false
	[[ "$output" =~ tuned\ +skipped\ \(no\ run\ has\ allocator=fix ]] || false
	run -0 configs
	[ "$output" = "allocator=glibc,thp=never" ]
}

@test "bless writes the added configs' rows beside the others" {
	claims 'axis fix.narenas=1' 'ran holds maxrss_kb >= 0 "fixture"'
	run -0 mrc bless --yes
	b=$(find "$EXP" -name showenv.tsv)
	[ -n "$b" ]
	run -0 cut -f1 "$b"
	[[ "$output" == *$'\nallocator=fix,fix.narenas=1,thp=never\n'* ]] || false
	[[ "$output" == *$'\nallocator=fix,thp=never\n'* ]] || false
}

@test "a bad axis directive is exit 2 naming file:line:col" {
	f=$EXP/showenv.claims
	claims '# bad' 'axis narenas=1' 'ran holds maxrss_kb >= 0 "fixture"'
	run -2 mrc run
	[[ "$output" == *"$f:2:6: an axis directive adds configs of an allocator option or a glibc tunable"* ]] || false
	claims 'axis fix.narenas=1 2' 'ran holds maxrss_kb >= 0 "fixture"'
	run -2 mrc check
	[[ "$output" == *"$f:1:20: expected \",\" or the end of the line"* ]] || false
	claims 'axis fix.narenas=1,1' 'ran holds maxrss_kb >= 0 "fixture"'
	run -2 mrc run
	[[ "$output" == *"$f:1:20: value \"1\" named twice"* ]] || false
	claims 'axis fix.narenas=1' 'axis fix.narenas=2' 'ran holds maxrss_kb >= 0 "fixture"'
	run -2 mrc run
	[[ "$output" == *"$f:2:6: axis fix.narenas given twice (first on line 1)"* ]] || false
	claims 'axis fix.narenas' 'ran holds maxrss_kb >= 0 "fixture"'
	run -2 mrc run
	[[ "$output" == *"$f:1:"*"expected \"=\" after the axis key"* ]] || false
	# checked against the registry and glibc when the session starts
	claims 'ran holds maxrss_kb >= 0 "fixture"' 'axis fxi.narenas=1'
	run -2 mrc run
	[[ "$output" == *"$f:2:6: fxi.narenas: unknown allocator 'fxi'"* ]] || false
	claims 'axis fix.narenas=a:b'
	run -2 mrc run
	[[ "$output" == *"$f:1:6: fix.narenas: value 'a:b' cannot go into MALLOC_CONF"* ]] || false
	claims 'axis glibc.malloc.nosuch=1'
	run -2 mrc run
	[[ "$output" == *"$f:1:6: glibc.malloc.nosuch"* ]] || false
	# nothing ran
	[ ! -e "$BATS_TEST_TMPDIR/out/runs.tsv" ] || [ "$(wc -l < "$BATS_TEST_TMPDIR/out/runs.tsv")" -le 1 ]
}

@test "a claim may still be called axis" {
	claims 'axis holds maxrss_kb >= 0 "fixture: a claim id, not a directive"'
	run -0 mrc check
	[[ "$output" =~ axis\ +held ]] || false
}
