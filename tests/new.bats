#!/usr/bin/env bats
# memrepro new NAME [--lang ...]: a skeleton from the templates (etc/new/)
# that builds with the project's Makefile as it is and passes its own
# claims under every allocator, in a throwaway tree (the Makefile, lib/
# and the built lib/ objects; cases/ and expected/ its own).

load test_helper

setup() {
	T=$BATS_TEST_TMPDIR/tree
	mkdir -p "$T/build"
	cp "$ROOT/Makefile" "$T/"
	ln -s "$ROOT/lib" "$ROOT/tools" "$ROOT/mk" "$T/"
	# the objects of lib/ as built (mtimes kept: make rebuilds none)
	cp -a "$ROOT/build/lib" "$ROOT/build/libmr.a" "$T/build/"
}

# tmake TARGET...: the tree's Makefile, not the outer make's flags.
tmake() {
	(cd "$T" && timeout -k 5 120 env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s JOBS=1 "$@")
}

# tmr ARGS...: the runner in the tree, its results there too.
tmr() {
	(cd "$T" && timeout -k 5 300 "$MR" "$@")
}

@test "new demo: a C case, its claims and figures, that builds with the Makefile and passes check" {
	run -0 tmr new demo
	[[ $output == *"wrote cases/demo.c, expected/demo.claims, expected/demo.figures"* ]] || false
	[ -f "$T/cases/demo.c" ] && [ -f "$T/expected/demo.claims" ] && [ -f "$T/expected/demo.figures" ]
	# the provenance header to fill, the describe table, its name put in
	grep -q '^ \* Source: ' "$T/cases/demo.c"
	grep -q '\.mechanism = ' "$T/cases/demo.c"
	run -1 grep -l '@NAME@' "$T/cases/demo.c" "$T/expected/demo.claims" "$T/expected/demo.figures"
	tmake build/cases/demo
	run -0 "$T/build/cases/demo" --describe
	[[ $output == *$'name\tdemo'* ]] || false
	[[ $output == *$'checkpoint\tstart'*$'checkpoint\tfilled'* ]] || false
	run -0 tmr check --cases build/cases demo
	[[ $output =~ claim\ +filled-resident\ +held.*held\ for\ (all|both) ]] || false
	[[ $output == *"demo: 1 claim held, 0 reproduces, 0 regressed"* ]] || false
}

@test "new demo --lang node: the original beside its model, both judged by check" {
	command -v node >/dev/null || skip "no node on this machine"
	run -0 tmr new demo --lang node
	[[ $output == *"cases/demo.c, cases/demo.js, expected/demo.claims"* ]] || false
	tmake build/cases/demo build/cases/demo.js build/lib/memrepro.js
	run -0 node "$T/cases/demo.js" --param mb=4
	[[ $output == "RSS: "*"(4 MiB kept)" ]] || false
	run -0 tmr check --cases build/cases --axis runtime=c,node demo
	[[ $output =~ claim\ +filled-resident\ +held ]] || false
	[[ $output =~ claim\ +orig-filled-resident\ +held\ +allocator=[a-z]+,runtime=node ]] || false
}

@test "new demo --lang ruby: the original beside its model; check passes (the original where ruby is here)" {
	run -0 tmr new demo --lang ruby
	[[ $output == *"cases/demo.c, cases/demo.rb, expected/demo.claims"* ]] || false
	grep -q '^# memrepro: params mb$' "$T/cases/demo.rb"
	grep -q '^require_relative "../lib/memrepro"$' "$T/cases/demo.rb"
	tmake build/cases/demo build/cases/demo.rb build/lib/memrepro.rb
	run -0 tmr check --cases build/cases demo
	[[ $output =~ claim\ +filled-resident\ +held ]] || false
	if command -v ruby >/dev/null; then
		[[ $output =~ claim\ +orig-filled-resident\ +held\ +allocator=[a-z]+,runtime=ruby ]] || false
	fi
}

@test "new demo --lang python: the original beside its model, on lib/memrepro.py" {
	[ -e "$ROOT/lib/memrepro.py" ] ||
		skip "lib/memrepro.py is not in this tree: the Python originals' helper comes with the python runtime"
	command -v python3 >/dev/null || skip "no python3 on this machine"
	run -0 tmr new demo --lang python
	[[ $output == *"cases/demo.c, cases/demo.py, expected/demo.claims"* ]] || false
	tmake build/cases/demo build/lib/memrepro.py
	# the Makefile copies the originals to build/cases/ (cp when it has no .py rule)
	tmake build/cases/demo.py 2>/dev/null || cp "$T/cases/demo.py" "$T/build/cases/"
	run -0 python3 "$T/cases/demo.py" --param mb=4
	[[ $output == "RSS: "*"(4 MiB kept)" ]] || false
	run -0 tmr check --cases build/cases --axis runtime=c,python demo
	[[ $output =~ claim\ +filled-resident\ +held ]] || false
	[[ $output =~ claim\ +orig-filled-resident\ +held\ +allocator=[a-z]+,runtime=python ]] || false
}

@test "new demo --lang sh: a shell program speaks the protocol; run as a command, check passes" {
	run -0 tmr new demo --lang sh
	[[ $output == *"wrote cases/demo.sh, expected/demo.claims, expected/demo.figures"* ]] || false
	[ -x "$T/cases/demo.sh" ]
	# by hand: no checkpoint channel, the program's own print only
	run -0 sh "$T/cases/demo.sh"
	[[ $output == "RSS: "*" kB (16777216 bytes kept)" ]] || false
	run -0 tmr run -q --repeat 2 --axis allocator=glibc,jemalloc --name demo \
		--checkpoints start,filled --out out -- sh cases/demo.sh
	# both checkpoints came over the protocol, measured while sh waited
	# (exit is the runner's own mark of a command)
	[ "$(tsv_col "$T/out/checkpoints.tsv" checkpoint '$2 == "allocator=glibc"' | sort -u | tr '\n' ' ')" = "exit filled start " ]
	grown=$(tsv_col "$T/out/checkpoints.tsv" rss_kb '$2 == "allocator=glibc" && $3 == 1 && $4 == "filled"')
	start=$(tsv_col "$T/out/checkpoints.tsv" rss_kb '$2 == "allocator=glibc" && $3 == 1 && $4 == "start"')
	(( grown - start > 16 * 1024 )) || false
	run -0 tmr check --from out demo
	[[ $output =~ claim\ +filled-resident\ +held.*held\ for\ both\ allocators ]] || false
}

@test "new never overwrites: an existing file is named, exit 2, nothing written" {
	mkdir -p "$T/expected"
	echo keep > "$T/expected/demo.figures"
	run -2 tmr new demo
	[[ $output == *"expected/demo.figures exists: new never overwrites a file"* ]] || false
	[ ! -e "$T/cases/demo.c" ] && [ ! -e "$T/expected/demo.claims" ]
	[ "$(cat "$T/expected/demo.figures")" = keep ]
	# a link there is a file there: not followed, not replaced
	rm "$T/expected/demo.figures"
	ln -s "$BATS_TEST_TMPDIR/elsewhere" "$T/expected/demo.claims"
	run -2 tmr new demo
	[[ $output == *"expected/demo.claims exists"* ]] || false
	[ ! -e "$BATS_TEST_TMPDIR/elsewhere" ] && [ ! -e "$T/cases/demo.c" ]
}

@test "new: a bad NAME or --lang is exit 2 naming it; nothing written" {
	run -2 tmr new Demo
	[[ $output == *"case name 'Demo': want [a-z0-9][a-z0-9-]{0,63}"* ]] || false
	run -2 tmr new -- -demo
	[[ $output == *"case name '-demo'"* ]] || false
	run -2 tmr new demo/x
	[[ $output == *"case name 'demo/x'"* ]] || false
	run -2 tmr new demo --lang perl
	[[ $output == *"--lang 'perl': want c, node, ruby, python or sh"* ]] || false
	run -2 tmr new
	[[ $output == *"new needs one case NAME"* ]] || false
	run -2 tmr new demo --axis allocator=glibc
	[[ $output == *"--axis does not apply to new"* ]] || false
	[ ! -e "$T/cases" ] && [ ! -e "$T/expected" ]
}

@test "new --cases DIR --expected DIR: the skeleton goes there, the directories made" {
	run -0 tmr new demo --lang node --cases "$BATS_TEST_TMPDIR/c/d" --expected "$BATS_TEST_TMPDIR/e"
	[ -f "$BATS_TEST_TMPDIR/c/d/demo.c" ] && [ -f "$BATS_TEST_TMPDIR/c/d/demo.js" ]
	[ -f "$BATS_TEST_TMPDIR/e/demo.claims" ] && [ -f "$BATS_TEST_TMPDIR/e/demo.figures" ]
	[ ! -e "$T/cases" ] && [ ! -e "$T/expected" ]
}

@test "new is in the usage, its --help, the man page and the README" {
	run -0 "$MR" --help
	[[ $output == *"memrepro new NAME [--lang c|node|ruby|python|sh]"* ]] || false
	run -0 "$MR" new --help
	[[ $output == *"usage: memrepro new NAME"*"--lang c|node|ruby|python|sh"*"--cases DIR"*"--expected DIR"* ]] || false
	grep -q '^\.B new' "$ROOT/docs/memrepro.1"
	# the README's "Write a case" starts from it
	grep -q '^build/memrepro new ' "$ROOT/README.md"
	grep -q '^\.BR \\-\\-lang " c|node|ruby|python|sh"$' "$ROOT/docs/memrepro.1"
}
