#!/usr/bin/env bats
# What --axis values name, checked before anything runs: a value that names
# nothing the machine could run, an axis set that selects no config, a
# tunable value glibc would take as another: exit 2 naming it.

load test_helper

setup() {
	export XDG_CACHE_HOME=$BATS_TEST_TMPDIR/cache
}

# The loader's tunables into LISTED, or skip where it cannot list them.
needs_listed_tunables() {
	local ldso
	ldso=$(ldd "$MR" | awk '$1 ~ /^\// && $1 ~ /ld-linux/ { print $1 }')
	[ -n "$ldso" ] || skip "no dynamic loader named by ldd"
	LISTED=$("$ldso" --list-tunables 2>/dev/null) || skip "$ldso cannot list its tunables (glibc < 2.33)"
}

@test "a negative value of an unsigned tunable (glibc would wrap it) is exit 2 naming it; a signed one's bounds hold" {
	needs_listed_tunables
	grep -q '^glibc.malloc.arena_max: 0x' <<<"$LISTED" || skip "arena_max is not listed as unsigned here"
	run -2 mr describe --cases "$FIX" nap --axis glibc.malloc.arena_max=-5
	[[ "$output" == *"--axis glibc.malloc.arena_max: value '-5' is negative: glibc would take it as 18446744073709551611 (it is unsigned)"* ]] || false
	run -2 mrf run nap --axis allocator=glibc --axis glibc.malloc.arena_max=2,-0x1 --repeat 1
	[[ "$output" == *"value '-0x1' is negative"* ]] || false
	[ ! -e "$BATS_TEST_TMPDIR/out" ]
	# -0 is 0, out of arena_max's range as 0 is
	run -2 mr describe --cases "$FIX" nap --axis glibc.malloc.arena_max=-0
	[[ "$output" == *"value '-0' is out of glibc's range for it, 0x1 to 0x"* ]] || false
	# an int32 tunable compares signed: its minimum is the bound
	run -2 mr describe --cases "$FIX" nap --axis glibc.malloc.mmap_max=-5
	[[ "$output" == *"value '-5' is out of glibc's range for it, 0 to 2147483647"* ]] || false
	run -0 mr describe --cases "$FIX" nap --axis glibc.malloc.arena_max=1,2
}

@test "without the loader's list a negative tunable value is refused too" {
	run -2 env MEMREPRO_LDSO=/bin/false timeout 60 "$MR" describe --cases "$FIX" nap --axis glibc.malloc.arena_max=-1
	[[ "$output" == *"--axis glibc.malloc.arena_max: value '-1' is negative"* ]] || false
}
