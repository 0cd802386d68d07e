#!/usr/bin/env bats
# The libc axis: --axis libc=VERSION runs a case through that glibc's
# loader (libc6 of a Debian release, from the release cache), and a case
# re-executing itself (thp=always) goes through it again.  Without network
# a fixture archive (MEMREPRO_RELEASES=DIR) holds a "libc6" whose loader is
# a script: it lists its own tunables, logs how it was called and hands
# over to the host's loader.  With network, one real glibc (2.41).

load test_helper

setup() {
	export XDG_CACHE_HOME=$BATS_TEST_TMPDIR/cache
	HOST=$(getconf GNU_LIBC_VERSION | awk '{print $2}')
	HOSTLD=$(readlink -f /lib64/ld-linux-x86-64.so.2 || true)
}

# fake_libc DIR VERSION [RELEASE]: a libc6 VERSION-1 in DIR/RELEASE (sid)
# whose loader is a script (see above) and whose libc.so.6 is the host's.
fake_libc() {
	local tree rel=${3:-sid}
	[ -x "$HOSTLD" ] || skip "no /lib64/ld-linux-x86-64.so.2 to hand over to"
	command -v dpkg-deb >/dev/null || skip "no dpkg-deb to build the fixture archive"
	tree=$(mktemp -d "$BATS_TEST_TMPDIR/deb.XXXXXX")
	mkdir -p "$tree/DEBIAN" "$tree/usr/lib/x86_64-linux-gnu" "$1/$rel"
	cp /lib/x86_64-linux-gnu/libc.so.6 "$tree/usr/lib/x86_64-linux-gnu/"
	cat > "$tree/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" <<LOADER
#!/bin/sh
if [ "\$1" = --list-tunables ]; then
	echo 'glibc.malloc.mmap_threshold: 0x0 (min: 0x0, max: 0xffffffffffffffff)'
	echo 'glibc.malloc.trim_threshold: 0x0 (min: 0x0, max: 0xffffffffffffffff)'
	exit 0
fi
[ -z "\$FAKELD_LOG" ] || echo "\$*" >> "\$FAKELD_LOG"
exec $HOSTLD "\$@"
LOADER
	chmod 755 "$tree/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"
	cat > "$tree/DEBIAN/control" <<CONTROL
Package: libc6
Version: $2-1
Architecture: amd64
Maintainer: memrepro tests <tests@invalid>
Description: fixture glibc for memrepro's libc axis tests
CONTROL
	dpkg-deb --root-owner-group -Zgzip --build "$tree" "$1/$rel/libc6_$2-1_amd64.deb" >/dev/null
	rm -rf "$tree"
}

log_of() {
	cat "$BATS_TEST_TMPDIR/out/logs/showenv/$1.1.log"
}

@test "libc axis: an older glibc than the host's is skipped with the reason, nothing fetched" {
	mkdir -p "$BATS_TEST_TMPDIR/archive"
	MEMREPRO_RELEASES=$BATS_TEST_TMPDIR/archive run -0 mrf run showenv --repeat 1 \
		--axis allocator=glibc --axis "libc=2.31,$HOST"
	run -0 tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" outcome '$(idx["config"]) ~ /libc=2.31/'
	[ "$output" = skipped ]
	run -0 tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" detail '$(idx["config"]) ~ /libc=2.31/'
	[ "$output" = "glibc 2.31 is older than the host's $HOST, which the cases are built against (they need its GLIBC_2.34 symbols at least)" ]
	run -0 grep -c "^libc.2.31.missing" "$BATS_TEST_TMPDIR/out/env.tsv"
	[ ! -e "$XDG_CACHE_HOME/memrepro/pkgs" ]
}

@test "libc axis: a glibc that cannot be had is skipped with the reason" {
	# an archive without libc6: as a release cache that cannot fetch it
	mkdir -p "$BATS_TEST_TMPDIR/archive/sid"
	MEMREPRO_RELEASES=$BATS_TEST_TMPDIR/archive run -0 mrf run showenv --repeat 1 \
		--axis allocator=glibc --axis libc=2.41
	run -0 tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" outcome
	[ "$output" = skipped ]
	run -0 tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" detail
	[[ "$output" == "glibc 2.41 cannot be had: "* ]] || false
	run -0 grep "^libc.2.41.missing"$'\t'"glibc 2.41 cannot be had: " "$BATS_TEST_TMPDIR/out/env.tsv"
}

@test "libc axis: the host's version is the host's own loader" {
	run -0 mrf run showenv --repeat 1 --axis allocator=glibc --axis "libc=$HOST"
	run -0 tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" config
	[ "$output" = "allocator=glibc,libc=$HOST,thp=never" ]
	run -0 log_of default
	[[ "$output" == *$'\nexe='"$FIX/showenv"$'\n'* ]] || false
	[[ "$output" != *MEMREPRO_LOADER* ]] || false
	[[ "$output" == *"glibc=$HOST"* ]] || false
}

@test "libc axis: another glibc runs the case through its loader, the thp=always re-exec too" {
	fake_libc "$BATS_TEST_TMPDIR/archive" 2.99
	export FAKELD_LOG=$BATS_TEST_TMPDIR/ld.log
	MEMREPRO_RELEASES=$BATS_TEST_TMPDIR/archive run -0 mrf run showenv --repeat 1 \
		--axis allocator=glibc --axis "libc=$HOST,2.99" --axis thp=never,always
	run -0 tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" outcome
	[ "$(echo "$output" | sort -u)" = ok ]
	ld=$(echo "$XDG_CACHE_HOME"/memrepro/pkgs/libc6_2.99-1/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2)
	dir=${ld%/*}
	log=$BATS_TEST_TMPDIR/out/logs/showenv/libc-2.99+thp-never.1.log
	run -0 grep -Fx "MEMREPRO_LOADER=$ld" "$log"
	run -0 grep -Fx "MEMREPRO_LIBRARY_PATH=$dir" "$log"
	run -0 grep -Fx "MEMREPRO_CASE_EXE=$FIX/showenv" "$log"
	run -0 grep -Fx "reexec=0" "$log"
	run -0 grep -Fx "reexec=1" "$BATS_TEST_TMPDIR/out/logs/showenv/libc-2.99+thp-always.1.log"
	# the loader ran the case once for thp=never, twice for thp=always
	# (the runner's start and the case's re-exec), both times so:
	run -0 cat "$FAKELD_LOG"
	[ "${#lines[@]}" = 3 ]
	[ "${lines[0]}" = "--library-path $dir --argv0 $FIX/showenv $FIX/showenv --param thp=never" ]
	[ "${lines[1]}" = "--library-path $dir --argv0 $FIX/showenv $FIX/showenv --param thp=always" ]
	[ "${lines[2]}" = "--library-path $dir --argv0 $FIX/showenv $FIX/showenv --param thp=always" ]
	# the host's configs did not go through it
	run -0 log_of "libc-$HOST+thp-always"
	[[ "$output" != *MEMREPRO_LOADER* ]] || false
	# env.tsv: where the glibc came from
	run -0 grep -x $'libc.2.99.package\tlibc6' "$BATS_TEST_TMPDIR/out/env.tsv"
	run -0 grep -x $'libc.2.99.release\tsid' "$BATS_TEST_TMPDIR/out/env.tsv"
	run -0 grep -x $'libc.2.99.loader\t'"$ld" "$BATS_TEST_TMPDIR/out/env.tsv"
	sha=$(sha256sum "$BATS_TEST_TMPDIR/archive/sid/libc6_2.99-1_amd64.deb" | cut -d' ' -f1)
	run -0 grep -x $'libc.2.99.sha256\t'"$sha" "$BATS_TEST_TMPDIR/out/env.tsv"
}

@test "libc axis: an allocator preloaded under another glibc has its directory on the library path" {
	fake_libc "$BATS_TEST_TMPDIR/archive" 2.99
	MEMREPRO_RELEASES=$BATS_TEST_TMPDIR/archive run -0 mrf run showenv --repeat 1 \
		--axis libc=2.99 --axis allocator=mimalloc
	if grep -q "^allocator.mimalloc.missing" "$BATS_TEST_TMPDIR/out/env.tsv"; then
		skip "mimalloc is not installed here"
	fi
	path=$(grep "^allocator.mimalloc.path" "$BATS_TEST_TMPDIR/out/env.tsv" | cut -f2)
	run -0 log_of default
	[[ "$output" == *$'\nLD_PRELOAD='"$path"$'\n'* ]] || false
	[[ "$output" == *$'\nMEMREPRO_LIBRARY_PATH='*":${path%/*}"$'\n'* ]] || false
}

@test "libc axis: glibc tunables are checked against that glibc's own list" {
	fake_libc "$BATS_TEST_TMPDIR/archive" 2.99
	# the fixture glibc lists no arena_max; the host's does
	MEMREPRO_RELEASES=$BATS_TEST_TMPDIR/archive run -2 mrf run showenv --repeat 1 \
		--axis libc=2.99 --axis glibc.malloc.arena_max=1
	[[ "$output" == *"--axis glibc.malloc.arena_max: glibc 2.99 has no such tunable ("*"libc6_2.99-1"*"ld-linux-x86-64.so.2 --list-tunables); its glibc.malloc tunables: mmap_threshold, trim_threshold"* ]] || false
	MEMREPRO_RELEASES=$BATS_TEST_TMPDIR/archive run -0 mrf run showenv --repeat 1 \
		--axis allocator=glibc --axis libc=2.99 --axis glibc.malloc.mmap_threshold=65536
	run -0 log_of default
	[[ "$output" == *$'\nGLIBC_TUNABLES=glibc.malloc.mmap_threshold=65536\n'* ]] || false
}

@test "libc axis: a version no release has exits 2 naming those there are" {
	fake_libc "$BATS_TEST_TMPDIR/archive" 2.99
	MEMREPRO_RELEASES=$BATS_TEST_TMPDIR/archive run -2 mrf run showenv --axis libc=2.98
	[[ "$output" == *"--axis libc=2.98: "*"2.99"* ]] || false
	[ ! -e "$BATS_TEST_TMPDIR/out" ]
	run -2 mrf run showenv --axis libc=two
	[[ "$output" == *"--axis libc: bad value 'two'; want a glibc version such as 2.41"* ]] || false
}

# bats test_tags=network
@test "libc axis, network: glibc 2.41 of trixie, a thp=always re-exec stays on it" {
	needs_network
	export XDG_CACHE_HOME=${MEMREPRO_TEST_CACHE:-$XDG_CACHE_HOME}
	run -0 mrf run showenv --repeat 1 --axis allocator=glibc --axis libc=2.41 --axis thp=never,always
	if grep -q "^libc.2.41.missing" "$BATS_TEST_TMPDIR/out/env.tsv"; then
		skip "$(grep "^libc.2.41.missing" "$BATS_TEST_TMPDIR/out/env.tsv" | cut -f2)"
	fi
	run -0 log_of thp-never
	[[ "$output" == *$'\nglibc=2.41\n'* ]] || false
	run -0 log_of thp-always
	[[ "$output" == *$'\nglibc=2.41\n'* ]] || false
	[[ "$output" == *$'\nreexec=1'* ]] || false
	[[ "$output" == *$'\nexe='*"/libc6_2.41-"*"/ld-linux-x86-64.so.2"$'\n'* ]] || false
	run -0 grep -x $'libc.2.41.release\ttrixie' "$BATS_TEST_TMPDIR/out/env.tsv"
}

# fake_alloc DIR RELEASE VERSION LIB [GLIBC]: the fixture allocator
# (build/fakealloc/LIB) as libfakealloc1 VERSION in DIR/RELEASE; with
# GLIBC (4 characters, "2.99"), its need of GLIBC_2.2.5 rewritten to
# GLIBC_<GLIBC>, as a library built against that glibc would have it.
fake_alloc() {
	local tree so
	tree=$(mktemp -d "$BATS_TEST_TMPDIR/deb.XXXXXX")
	so=$tree/usr/lib/x86_64-linux-gnu/libfakealloc.so.1
	mkdir -p "$tree/DEBIAN" "${so%/*}" "$1/$2"
	cp "$ROOT/build/fakealloc/$4/libfakealloc.so.1" "$so"
	if [ -n "${5:-}" ]; then
		GLIBC=$5 perl -0777 -pi -e 's/GLIBC_2\.2\.5\0/GLIBC_$ENV{GLIBC}\0\0/g' "$so"
	fi
	cat > "$tree/DEBIAN/control" <<CONTROL
Package: libfakealloc1
Version: $3
Architecture: amd64
Maintainer: memrepro tests <tests@invalid>
Description: fixture allocator for memrepro's allocator spec tests
CONTROL
	dpkg-deb --root-owner-group -Zgzip --build "$tree" "$1/$2/libfakealloc1_$3_amd64.deb" >/dev/null
	rm -rf "$tree"
}

# The fixture allocator in the user's registry.
fake_registry() {
	export XDG_CONFIG_HOME=$BATS_TEST_TMPDIR/config
	mkdir -p "$XDG_CONFIG_HOME/memrepro"
	printf '%s\n' '[fakealloc]' 'library = libfakealloc.so.1' 'package = libfakealloc1' \
		'options = none' 'default = no' > "$XDG_CONFIG_HOME/memrepro/allocators"
}

@test "allocator specs: NAME@VERSION and NAME@RELEASE from the releases, the release normalised to its version" {
	command -v dpkg-deb >/dev/null || skip "no dpkg-deb to build the fixture archive"
	fake_registry
	fake_alloc "$BATS_TEST_TMPDIR/archive" bookworm 1.0-1 1.0
	fake_alloc "$BATS_TEST_TMPDIR/archive" trixie 2.0-1 2.0
	MEMREPRO_RELEASES=$BATS_TEST_TMPDIR/archive run -0 mrf run showenv --repeat 1 \
		--axis allocator=fakealloc@1.0,fakealloc@trixie
	run -0 tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" config
	[ "$output" = "allocator=fakealloc@1.0,thp=never
allocator=fakealloc@2.0,thp=never" ]
	run -0 tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" outcome
	[ "$(echo "$output" | sort -u)" = ok ]
	env=$BATS_TEST_TMPDIR/out/env.tsv
	so=$XDG_CACHE_HOME/memrepro/pkgs/libfakealloc1_2.0-1/usr/lib/x86_64-linux-gnu/libfakealloc.so.1
	run -0 grep -x $'allocator.fakealloc@2.0.package\tlibfakealloc1 2.0-1' "$env"
	run -0 grep -x $'allocator.fakealloc@2.0.release\ttrixie' "$env"
	run -0 grep -x $'allocator.fakealloc@2.0.path\t'"$so" "$env"
	sha=$(sha256sum "$BATS_TEST_TMPDIR/archive/trixie/libfakealloc1_2.0-1_amd64.deb" | cut -d' ' -f1)
	run -0 grep -x $'allocator.fakealloc@2.0.sha256\t'"$sha" "$env"
	run -0 grep -x $'allocator.fakealloc@1.0.release\tbookworm' "$env"
	run -0 grep -Fx "LD_PRELOAD=$so" "$BATS_TEST_TMPDIR/out/logs/showenv/allocator-fakealloc@2.0.1.log"
}

@test "allocator specs: a version no release has exits 2 naming those there are" {
	command -v dpkg-deb >/dev/null || skip "no dpkg-deb to build the fixture archive"
	fake_registry
	fake_alloc "$BATS_TEST_TMPDIR/archive" bookworm 1.0-1 1.0
	MEMREPRO_RELEASES=$BATS_TEST_TMPDIR/archive run -2 mrf run showenv --axis allocator=fakealloc@9.9
	[[ "$output" == *"--axis allocator: fakealloc@9.9: "*"bookworm 1.0"* ]] || false
	[ ! -e "$BATS_TEST_TMPDIR/out" ]
}

@test "allocator specs: a library that needs a newer glibc than the config's is skipped, naming the libc that runs it" {
	command -v dpkg-deb >/dev/null || skip "no dpkg-deb to build the fixture archive"
	command -v perl >/dev/null || skip "no perl to rewrite the fixture's version need"
	fake_registry
	fake_alloc "$BATS_TEST_TMPDIR/archive" sid 3.0-1 2.0 2.99
	fake_libc "$BATS_TEST_TMPDIR/archive" 2.99
	MEMREPRO_RELEASES=$BATS_TEST_TMPDIR/archive run -0 mrf run showenv --repeat 1 \
		--axis allocator=glibc,fakealloc@3.0 --axis "libc=$HOST,2.99"
	runs=$BATS_TEST_TMPDIR/out/runs.tsv
	run -0 tsv_col "$runs" outcome '$(idx["config"]) ~ /fakealloc/'
	[ "$output" = "skipped
skipped" ]
	run -0 tsv_col "$runs" detail '$(idx["config"]) ~ /fakealloc@3.0,libc='"$HOST"'/'
	[ "$output" = "fakealloc@3.0 (libfakealloc1 3.0-1 of sid) needs glibc 2.99 (GLIBC_2.99), this config's is $HOST: run it with --axis libc=2.99" ]
	run -0 grep -x $'allocator.fakealloc@3.0.glibc_need\t2.99' "$BATS_TEST_TMPDIR/out/env.tsv"
	# the fixture 2.99 is the host's glibc in disguise: the library does
	# not load there, which the loader would only warn about
	run -0 tsv_col "$runs" detail '$(idx["config"]) ~ /fakealloc@3.0,libc=2.99/'
	[[ "$output" == "fakealloc@3.0 does not load under glibc 2.99: "*"GLIBC_2.99"* ]] || false
	run -0 tsv_col "$runs" outcome '$(idx["config"]) ~ /allocator=glibc/'
	[ "$output" = "ok
ok" ]
}

@test "--profile versions: every release's allocator and glibc, each allocator under its own release's glibc, glibc under each" {
	command -v dpkg-deb >/dev/null || skip "no dpkg-deb to build the fixture archive"
	export XDG_CONFIG_HOME=$BATS_TEST_TMPDIR/config
	mkdir -p "$XDG_CONFIG_HOME/memrepro"
	printf '%s\n' '[fakealloc]' 'library = libfakealloc.so.1' 'package = libfakealloc1' \
		'options = none' 'default = yes' > "$XDG_CONFIG_HOME/memrepro/allocators"
	a=$BATS_TEST_TMPDIR/archive
	fake_alloc "$a" bookworm 1.0-1 1.0
	fake_alloc "$a" trixie 2.0-1 2.0
	fake_alloc "$a" sid 2.0-2 2.0
	fake_libc "$a" 2.98 trixie
	fake_libc "$a" 2.99 sid
	MEMREPRO_RELEASES=$a run -0 mrf run showenv --repeat 1 --profile versions
	run -0 tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" config
	# glibc under the host's and both releases' glibcs; fakealloc 1.0
	# (bookworm, no libc6 in this archive) under the host's, 2.0 (trixie's
	# and sid's, the oldest release first) under trixie's 2.98; the
	# jemalloc, tcmalloc and mimalloc of the default axis are in no
	# release here: they add nothing
	[ "$output" = "allocator=glibc,libc=$HOST,thp=never
allocator=glibc,libc=2.98,thp=never
allocator=glibc,libc=2.99,thp=never
allocator=fakealloc@1.0,libc=$HOST,thp=never
allocator=fakealloc@2.0,libc=2.98,thp=never" ]
	run -0 tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" outcome
	[ "$(echo "$output" | sort -u)" = ok ]
	run -0 grep -x $'profile\tversions' "$BATS_TEST_TMPDIR/out/env.tsv"
	# an axis given on the command line is kept: only the libc axis is added
	MEMREPRO_RELEASES=$a run -0 timeout -k 5 120 "$MR" run --cases "$FIX" --out "$BATS_TEST_TMPDIR/out2" \
		showenv --repeat 1 --profile versions --axis allocator=glibc
	run -0 tsv_col "$BATS_TEST_TMPDIR/out2/runs.tsv" config
	[ "$output" = "allocator=glibc,libc=$HOST,thp=never
allocator=glibc,libc=2.98,thp=never
allocator=glibc,libc=2.99,thp=never" ]
}

@test "--profile versions with no release's index: exit 2 saying so, nothing run" {
	mkdir -p "$BATS_TEST_TMPDIR/empty"
	MEMREPRO_RELEASES=$BATS_TEST_TMPDIR/empty run -2 mrf run showenv --profile versions
	[[ "$output" == *"--profile versions: "* ]] || false
	[ ! -e "$BATS_TEST_TMPDIR/out/runs.tsv" ]
}

@test "--profile versions, then check: the claim's row across the fixture's versions" {
	command -v dpkg-deb >/dev/null || skip "no dpkg-deb to build the fixture archive"
	export XDG_CONFIG_HOME=$BATS_TEST_TMPDIR/config
	mkdir -p "$XDG_CONFIG_HOME/memrepro" "$BATS_TEST_TMPDIR/expected"
	printf '%s\n' '[fakealloc]' 'library = libfakealloc.so.1' 'package = libfakealloc1' \
		'options = none' 'default = yes' > "$XDG_CONFIG_HOME/memrepro/allocators"
	a=$BATS_TEST_TMPDIR/archive
	fake_alloc "$a" bookworm 1.0-1 1.0
	fake_alloc "$a" trixie 2.0-1 2.0
	printf '%s\n' 'ran holds maxrss_kb[allocator=fakealloc] > 0 "every version ran"' \
		'since-two reported since fakealloc@2.0 maxrss_kb[allocator=fakealloc] > 0 "gone since 2.0"' \
		> "$BATS_TEST_TMPDIR/expected/showenv.claims"
	MEMREPRO_RELEASES=$a run -0 timeout -k 5 120 "$MR" check --cases "$FIX" --out "$BATS_TEST_TMPDIR/out" \
		--expected "$BATS_TEST_TMPDIR/expected" showenv --repeat 1 --profile versions
	# the upgrade table: a column per version, the claim's cell in each
	[[ "$output" == *"versions  claim"*"fakealloc@1.0"*"fakealloc@2.0"* ]] || false
	row=$(grep -E '^ +ran +' <<<"$output")
	[ "$(wc -w <<<"$row")" -ge 3 ] || false
	[[ "$row" == *"held"*"held"* ]] || false
	# reported since 2.0, yet 2.0 reproduces: news
	[[ "$output" == *"NEWS: "*"reproduces on fakealloc@2.0"* ]] || false
}

# bats test_tags=network
@test "network: jemalloc 5.2.1 and 5.3.0 of two releases in one run, a claim's row across them" {
	needs_network
	export XDG_CACHE_HOME=${MEMREPRO_TEST_CACHE:-$XDG_CACHE_HOME}
	printf '%s\n' 'ran holds maxrss_kb[allocator=jemalloc] > 0 "every version ran"' > "$BATS_TEST_TMPDIR/showenv.claims"
	mkdir -p "$BATS_TEST_TMPDIR/expected" && mv "$BATS_TEST_TMPDIR/showenv.claims" "$BATS_TEST_TMPDIR/expected/"
	run timeout -k 5 300 "$MR" check --cases "$FIX" --out "$BATS_TEST_TMPDIR/out" \
		--expected "$BATS_TEST_TMPDIR/expected" showenv --repeat 1 \
		--axis allocator=jemalloc@5.2.1,jemalloc@5.3.0
	if [ "$status" = 2 ] && [[ "$output" == *"cannot be had"* || "$output" == *"no network"* ]]; then
		skip "the archive cannot be reached: ${output##*$'\n'}"
	fi
	if grep -q '^allocator.jemalloc@5.2.1.missing' "$BATS_TEST_TMPDIR/out/env.tsv"; then
		skip "$(grep '^allocator.jemalloc@5.2.1.missing' "$BATS_TEST_TMPDIR/out/env.tsv" | cut -f2)"
	fi
	[ "$status" = 0 ] || { echo "$output"; false; }
	run -0 grep -x $'allocator.jemalloc@5.2.1.release\tbullseye' "$BATS_TEST_TMPDIR/out/env.tsv"
	run -0 grep -x $'allocator.jemalloc@5.3.0.release\tbookworm' "$BATS_TEST_TMPDIR/out/env.tsv"
	run -0 grep "^allocator.jemalloc@5.2.1.version" "$BATS_TEST_TMPDIR/out/env.tsv"
	[[ "$output" == *5.2.1* ]] || false
	run -0 timeout 60 "$MR" check --from "$BATS_TEST_TMPDIR/out" --expected "$BATS_TEST_TMPDIR/expected"
	row=$(grep -E '^ +ran +' <<<"$output")
	[[ "$row" == *"held"*"held"* ]] || false
}

@test "libc axis: a command's summary sets glibc under another libc against the first libc's" {
	fake_libc "$BATS_TEST_TMPDIR/archive" 2.99
	export FAKELD_LOG=$BATS_TEST_TMPDIR/ld.log
	MEMREPRO_RELEASES=$BATS_TEST_TMPDIR/archive run -0 timeout -k 5 120 "$MR" run \
		--out "$BATS_TEST_TMPDIR/out" --repeat 1 --axis allocator=glibc --axis "libc=$HOST,2.99" \
		-- "$BATS_TEST_DIRNAME/fixtures/command/alloc.sh" 4
	[[ "$output" == *"against glibc, and glibc against libc=$HOST, beyond noise"* ]] || false
	# one run a side: the comparison is made, and says it cannot call one
	[[ "$output" == *"none can be called: too few ok runs per config"* ]] || false
	[[ "$output" != *"nothing to compare"* ]] || false
	# a script: its interpreter went through the loader, as the kernel
	# would have started it (the loader takes ELF programs only)
	run -0 cat "$FAKELD_LOG"
	[[ "$output" == *"--argv0 /bin/bash /bin/bash $BATS_TEST_DIRNAME/fixtures/command/alloc.sh 4" ]] || false
}

@test "libc axis: a #!/usr/bin/env script's interpreter is the program env would start" {
	fake_libc "$BATS_TEST_TMPDIR/archive" 2.99
	export FAKELD_LOG=$BATS_TEST_TMPDIR/ld.log
	printf '#!/usr/bin/env bash\necho ok\n' > "$BATS_TEST_TMPDIR/envsh"
	chmod +x "$BATS_TEST_TMPDIR/envsh"
	bash=$(command -v bash)
	MEMREPRO_RELEASES=$BATS_TEST_TMPDIR/archive run -0 timeout -k 5 120 "$MR" run \
		--out "$BATS_TEST_TMPDIR/out" --repeat 1 --axis allocator=glibc --axis libc=2.99 \
		-- "$BATS_TEST_TMPDIR/envsh"
	run -0 cat "$FAKELD_LOG"
	[[ "$output" == "--library-path "* ]] || false
	[[ "$output" == *"--argv0 $bash $bash $BATS_TEST_TMPDIR/envsh" ]] || false
}
