#!/usr/bin/env bats
# memrepro versions and memrepro fetch: packages of other releases in the
# per-user cache.  A fixture archive (tests/release_helper.bash: .debs of
# the fixture allocator built here) through MEMREPRO_RELEASES drives the
# whole path without network; one test fetches for real from the host's
# mirror, skipped when it cannot be reached.

load test_helper
load release_helper

setup() {
	command -v dpkg-deb >/dev/null || skip "dpkg-deb not installed"
	release_env
}

# The sha256 of a file.
sha() {
	sha256sum "$1" | awk '{ print $1 }'
}

@test "fetch NAME@VERSION: the .deb's sha256, the unpacked library; again: from the cache" {
	run -0 --separate-stderr timeout -k 5 60 "$MR" fetch fakealloc@1.0
	[[ "$output" == *"fakealloc@1.0: bookworm libfakealloc1 1.0-1 (fetched)"* ]] || false
	[[ "$output" == *"sha256  $(sha "$REL/bookworm/libfakealloc1_1.0-1_amd64.deb")"* ]] || false
	lib=$CACHE/pkgs/libfakealloc1_1.0-1/usr/lib/x86_64-linux-gnu/libfakealloc.so.1
	[[ "$output" == *"library $lib"* ]] || false
	cmp "$lib" "$FAKEALLOC/1.0/libfakealloc.so.1"
	cmp "$CACHE/debs/bookworm/libfakealloc1_1.0-1_amd64.deb" "$REL/bookworm/libfakealloc1_1.0-1_amd64.deb"
	grep -q "^file	$(sha "$lib")	usr/lib/x86_64-linux-gnu/libfakealloc.so.1$" \
		"$CACHE/pkgs/libfakealloc1_1.0-1/.memrepro-manifest"
	# nothing half-made is left beside the entry
	run -0 find "$CACHE" -name '*.tmp-*' -o -name '*.old-*'
	[ -z "$output" ]
	run -0 --separate-stderr timeout -k 5 60 "$MR" fetch fakealloc@1.0
	[[ "$output" == *"bookworm libfakealloc1 1.0-1 (cached)"* ]] || false
}

@test "NAME@VERSION takes the oldest release with that upstream version, NAME@RELEASE that release's" {
	# trixie 2.0-1 and sid 1:2.0+ds-2 are both upstream 2.0
	run -0 --separate-stderr timeout -k 5 60 "$MR" fetch fakealloc@2.0
	[[ "$output" == *"fakealloc@2.0: trixie libfakealloc1 2.0-1 (fetched)"* ]] || false
	run -0 --separate-stderr timeout -k 5 60 "$MR" fetch fakealloc@sid
	[[ "$output" == *"fakealloc@2.0: sid libfakealloc1 1:2.0+ds-2 (fetched)"* ]] || false
	# the epoch's ':' is %3a in the entry's name (it goes into library paths)
	[ -f "$CACHE/pkgs/libfakealloc1_1%3a2.0+ds-2/usr/lib/x86_64-linux-gnu/libfakealloc.so.1" ]
	cmp "$CACHE/pkgs/libfakealloc1_1%3a2.0+ds-2/usr/lib/x86_64-linux-gnu/libfakealloc.so.1" \
		"$FAKEALLOC/2.0/libfakealloc.so.1"
	# a full Debian version names that one
	run -0 --separate-stderr timeout -k 5 60 "$MR" fetch fakealloc@2.0-1
	[[ "$output" == *"trixie libfakealloc1 2.0-1 (cached)"* ]] || false
}

@test "the unpacked allocator interposes malloc and reports its version" {
	run -0 --separate-stderr timeout -k 5 60 "$MR" fetch fakealloc@trixie
	lib=$CACHE/pkgs/libfakealloc1_2.0-1/usr/lib/x86_64-linux-gnu/libfakealloc.so.1
	run -0 nm -D --defined-only "$lib"
	[[ "$output" == *" T malloc"* ]] || false
	[[ "$output" == *" T fakealloc_version"* ]] || false
	# a host program runs with it preloaded
	run -0 env LD_PRELOAD="$lib" /bin/true
}

@test "versions: a row per release, what the cache holds marked; --format json for scripts" {
	run -0 --separate-stderr timeout -k 5 60 "$MR" versions fakealloc
	[[ "${lines[0]}" == "NAME "*"RELEASE "*"PACKAGE "*"VERSION "*"UPSTREAM "*"CACHED" ]] || false
	[ "$(echo "$output" | awk '$1 == "fakealloc" && $2 == "bullseye" { print $3, $4, $6 }')" = "libfakealloc1 - -" ]
	[ "$(echo "$output" | awk '$2 == "bookworm" { print $4, $5, $6 }')" = "1.0-1 1.0 no" ]
	[ "$(echo "$output" | awk '$2 == "sid" { print $4, $5, $6 }')" = "1:2.0+ds-2 2.0 no" ]
	run -0 --separate-stderr timeout -k 5 60 "$MR" fetch fakealloc@1.0
	run -0 --separate-stderr timeout -k 5 60 "$MR" versions fakealloc
	[ "$(echo "$output" | awk '$2 == "bookworm" { print $6 }')" = yes ]
	[ "$(echo "$output" | awk '$2 == "trixie" { print $6 }')" = no ]
	run -0 --separate-stderr timeout -k 5 60 "$MR" versions --format json fakealloc
	[ "$(echo "$output" | jq -r '.[] | select(.release == "bookworm") | .cached')" = yes ]
	[ "$(echo "$output" | jq -r '.[] | select(.release == "trixie") | .upstream')" = 2.0 ]
	[ "$(echo "$output" | jq -r '.[] | select(.release == "bullseye") | .version')" = null ]
	run -2 --separate-stderr timeout -k 5 60 "$MR" versions --format tap fakealloc
	[[ "$stderr" == *"want human or json"* ]] || false
}

@test "versions without names: libc and every allocator of the registry with a package" {
	run -0 --separate-stderr timeout -k 5 60 env MEMREPRO_RELEASES="$BATS_TEST_TMPDIR/empty" "$MR" versions
	for n in libc jemalloc tcmalloc mimalloc fakealloc; do
		[ "$(echo "$output" | awk -v n="$n" '$1 == n' | wc -l)" -eq 4 ] || false
	done
	[ "$(echo "$output" | awk '$1 == "libc" && $2 == "trixie" { print $3 }')" = libc6 ]
	# the registry's per-release package names
	[ "$(echo "$output" | awk '$1 == "tcmalloc" && $2 == "trixie" { print $3 }')" = libtcmalloc-minimal4t64 ]
	[ "$(echo "$output" | awk '$1 == "glibc"' | wc -l)" -eq 0 ]
}

@test "version words: epoch, revision, +ds, +dfsg, +really and ~ suffixes are not the upstream version" {
	words=$BATS_TEST_TMPDIR/words
	fixture_deb "$words" bullseye 5.2.1-3
	fixture_deb "$words" bookworm 2.0.9+ds-2
	fixture_deb "$words" trixie 1:1.3.dfsg+really1.3.1-1
	fixture_deb "$words" sid 2.36-9+deb12u14~rc1
	run -0 --separate-stderr timeout -k 5 60 env MEMREPRO_RELEASES="$words" "$MR" versions fakealloc
	[ "$(echo "$output" | awk '$1 == "fakealloc" { printf "%s ", $5 }')" = "5.2.1 2.0.9 1.3.1 2.36 " ]
	run -0 --separate-stderr timeout -k 5 60 env MEMREPRO_RELEASES="$words" "$MR" fetch fakealloc@1.3.1
	[[ "$output" == *"trixie libfakealloc1 1:1.3.dfsg+really1.3.1-1 (fetched)"* ]] || false
}

@test "a cache entry that does not verify: unpacked again, or fetched again" {
	run -0 --separate-stderr timeout -k 5 60 "$MR" fetch fakealloc@1.0
	entry=$CACHE/pkgs/libfakealloc1_1.0-1
	lib=$entry/usr/lib/x86_64-linux-gnu/libfakealloc.so.1
	deb=$CACHE/debs/bookworm/libfakealloc1_1.0-1_amd64.deb
	# the manifest covers the unpacked files: a flipped byte in the
	# library is seen, and the entry unpacked again from its .deb
	flip_byte "$lib" 100
	! cmp -s "$lib" "$FAKEALLOC/1.0/libfakealloc.so.1" || false
	run -0 --separate-stderr timeout -k 5 60 "$MR" versions fakealloc
	[ "$(echo "$output" | awk '$2 == "bookworm" { print $6 }')" = corrupt ]
	run -0 --separate-stderr timeout -k 5 60 "$MR" fetch fakealloc@1.0
	[[ "$output" == *"(fetched)"* ]] || false
	cmp "$lib" "$FAKEALLOC/1.0/libfakealloc.so.1"
	# ... and the .deb: a flipped byte there, and it is fetched again
	flip_byte "$deb" 200
	run -0 --separate-stderr timeout -k 5 60 "$MR" fetch fakealloc@1.0
	[[ "$output" == *"(fetched)"* ]] || false
	cmp "$deb" "$REL/bookworm/libfakealloc1_1.0-1_amd64.deb"
	# a file missing from the tree is seen too
	rm "$lib"
	run -0 --separate-stderr timeout -k 5 60 "$MR" fetch fakealloc@1.0
	[[ "$output" == *"(fetched)"* ]] || false
	cmp "$lib" "$FAKEALLOC/1.0/libfakealloc.so.1"
}

@test "a cache entry that does not verify and cannot be fetched again: the error names the file" {
	run -0 --separate-stderr timeout -k 5 60 "$MR" fetch fakealloc@1.0
	deb=$CACHE/debs/bookworm/libfakealloc1_1.0-1_amd64.deb
	# the .deb's place taken by a directory: not verified, not replaced
	rm "$deb"
	mkdir -p "$deb/x"
	run -1 --separate-stderr timeout -k 5 60 "$MR" fetch fakealloc@1.0
	[[ "$stderr" == *"fakealloc@1.0 cannot be had: the cache entry does not verify ($deb: "*") and cannot be fetched again: rename "*"$deb"* ]] || false
}

@test "the archive's package changed under the same version: fetched again" {
	run -0 --separate-stderr timeout -k 5 60 "$MR" fetch fakealloc@1.0
	# the same package and version, other contents (another library)
	fixture_deb "$REL" bookworm 1.0-1 2.0
	run -0 --separate-stderr timeout -k 5 60 "$MR" fetch fakealloc@1.0
	[[ "$output" == *"(fetched)"* ]] || false
	cmp "$CACHE/pkgs/libfakealloc1_1.0-1/usr/lib/x86_64-linux-gnu/libfakealloc.so.1" \
		"$FAKEALLOC/2.0/libfakealloc.so.1"
}

@test "unknown version: exit 2 naming the versions of each release; unknown name, bad spec: exit 2" {
	run -2 --separate-stderr timeout -k 5 60 "$MR" fetch fakealloc@9.9
	[[ "$stderr" == *"fakealloc@9.9: no release has version 9.9 (bookworm 1.0, trixie 2.0, sid 2.0)"* ]] || false
	[ ! -d "$CACHE/pkgs" ] || [ -z "$(ls "$CACHE/pkgs")" ]
	run -2 --separate-stderr timeout -k 5 60 "$MR" fetch fakealloc@bullseye
	[[ "$stderr" == *"bullseye has none (bookworm 1.0, trixie 2.0, sid 2.0)"* ]] || false
	run -2 --separate-stderr timeout -k 5 60 "$MR" fetch fakealoc@1.0
	[[ "$stderr" == *"unknown allocator 'fakealoc'; did you mean 'fakealloc'?"* ]] || false
	run -2 --separate-stderr timeout -k 5 60 "$MR" fetch fakealloc
	[[ "$stderr" == *"fetch 'fakealloc': want NAME@VERSION or NAME@RELEASE"* ]] || false
	run -2 --separate-stderr timeout -k 5 60 "$MR" versions nosuch
	[[ "$stderr" == *"unknown allocator 'nosuch'"* ]] || false
	# a bad spec stops everything before any fetch
	run -2 --separate-stderr timeout -k 5 60 "$MR" fetch fakealloc@1.0 nosuch@1
	[ ! -d "$CACHE/pkgs" ] || [ -z "$(ls "$CACHE/pkgs")" ]
}

@test "an allocator of --allocators FILE: listed and fetched" {
	mv "$XDG_CONFIG_HOME/memrepro/allocators" "$BATS_TEST_TMPDIR/mine"
	run -2 --separate-stderr timeout -k 5 60 "$MR" fetch fakealloc@1.0
	[[ "$stderr" == *"unknown allocator 'fakealloc'"* ]] || false
	run -0 --separate-stderr timeout -k 5 60 "$MR" versions --allocators "$BATS_TEST_TMPDIR/mine" fakealloc
	[ "$(echo "$output" | awk '$2 == "trixie" { print $3, $4 }')" = "libfakealloc1 2.0-1" ]
	run -0 --separate-stderr timeout -k 5 60 "$MR" fetch --allocators "$BATS_TEST_TMPDIR/mine" fakealloc@trixie
	[[ "$output" == *"fakealloc@2.0: trixie libfakealloc1 2.0-1 (fetched)"* ]] || false
}

@test "no such package in any release: cannot be had, exit 1" {
	cat >> "$XDG_CONFIG_HOME/memrepro/allocators" <<'REG'
[ghost]
library = libghost.so.1
package = libghost1
options = none
default = no
REG
	run -1 --separate-stderr timeout -k 5 60 "$MR" fetch ghost@1.0
	[[ "$stderr" == *"ghost@1.0 cannot be had: no release has the package (bullseye libghost1, bookworm libghost1, trixie libghost1, sid libghost1)"* ]] || false
}

@test "offline (the mirror unreachable): cannot be had with the reason, exit 1" {
	unset MEMREPRO_RELEASES
	# nothing listens on the discard port of this host
	export MEMREPRO_MIRROR=http://127.0.0.1:9/debian/
	run -1 --separate-stderr timeout -k 5 120 "$MR" fetch fakealloc@1.0
	[[ "$stderr" == *"fakealloc@1.0 cannot be had: bullseye: no network: apt-get update failed: "* ]] || false
	[[ "$stderr" == *"127.0.0.1"* ]] || false
	run -1 --separate-stderr timeout -k 5 120 "$MR" versions fakealloc
	[[ "$output" == *"(cannot be had: no network: apt-get update failed: "* ]] || false
	# the private apt tree: the host's configuration is not read
	grep -q 'Dir::Etc::parts "apt.conf.d"' "$CACHE/apt/sid/apt.conf"
	grep -q '^deb \[signed-by=/usr/share/keyrings/debian-archive-keyring.gpg valid-until-min=7776000\] http://127.0.0.1:9/debian/ sid main$' \
		"$CACHE/apt/sid/etc/sources.list"
}

@test "a helper that hangs is killed after its timeout: cannot be had, nothing left running" {
	bin=$BATS_TEST_TMPDIR/bin
	mkdir -p "$bin"
	printf '#!/bin/sh\necho $$ > %s/hung.pid\nexec sleep 60\n' "$BATS_TEST_TMPDIR" > "$bin/dpkg-deb"
	chmod +x "$bin/dpkg-deb"
	SECONDS=0
	run -1 --separate-stderr timeout -k 5 60 env PATH="$bin:$PATH" MEMREPRO_HELPER_TIMEOUT=1 "$MR" fetch fakealloc@1.0
	[ "$SECONDS" -lt 30 ]
	[[ "$stderr" == *"cannot be had: "*"dpkg-deb: timed out after 1 s (killed)"* ]] || false
	pid_gone "$(cat "$BATS_TEST_TMPDIR/hung.pid")"
}

# bats test_tags=network
@test "network: jemalloc@5.2.1 and libc@2.41 from the host's mirror, sha256 as apt's index says" {
	needs_network
	unset MEMREPRO_RELEASES
	command -v apt-get >/dev/null || skip "no apt-get"
	mirror=$(apt-get indextargets --format '$(REPO_URI) $(ORIGIN)' 'Identifier: Packages' 2>/dev/null |
		awk '$2 == "Debian" { print $1; exit }')
	[ -n "$mirror" ] || skip "the host's apt configuration names no Debian mirror"
	run --separate-stderr timeout -k 5 300 "$MR" fetch jemalloc@5.2.1 libc@2.41
	if [ "$status" -eq 1 ] && [[ "$stderr" == *"cannot be had: no network"* ]]; then
		skip "the archive is unreachable: $stderr"
	fi
	[ "$status" -eq 0 ]
	[[ "$output" == *"jemalloc@5.2.1: bullseye libjemalloc2 5.2.1-3"* ]] || false
	[[ "$output" == *"libc@2.41: trixie libc6 2.41-"* ]] || false
	for spec in "bullseye libjemalloc2" "trixie libc6"; do
		set -- $spec
		ver=$(echo "$output" | awk -v p="$2" '$3 == p { print $4 }')
		apt_sha=$(APT_CONFIG=$CACHE/apt/$1/apt.conf apt-cache show "$2=$ver" | awk '/^SHA256:/ { print $2; exit }')
		deb=$(echo "$output" | awk -v f="/debs/$1/$2_" 'index($2, f) { print $2 }')
		[ -n "$apt_sha" ]
		[ "$(sha "$deb")" = "$apt_sha" ]
		[[ "$output" == *"sha256  $apt_sha"* ]] || false
	done
	# the release's loader runs (an absolute symlink in older trees is
	# resolved inside the tree)
	loader=$(echo "$output" | awk '$1 == "loader" { print $2 }')
	run -0 "$loader" --version
	[[ "$output" == *"version 2.41"* ]] || false
	lib=$(echo "$output" | awk '$1 == "library" { print $2 }')
	run -0 env LD_PRELOAD="$lib" /bin/true
}

@test "a fetch killed while unpacking leaves no entry that looks complete; the next one sweeps its leftovers" {
	bin=$BATS_TEST_TMPDIR/bin
	real=$(command -v dpkg-deb)
	mkdir -p "$bin"
	# dpkg-deb that hangs when it unpacks, after a first file is out
	cat > "$bin/dpkg-deb" <<SHIM
#!/bin/sh
if [ "\$1" = -x ]; then
	mkdir -p "\$3/usr/lib" && echo half > "\$3/usr/lib/libfakealloc.so.1"
	echo \$\$ > $BATS_TEST_TMPDIR/hung.pid
	exec sleep 60
fi
exec $real "\$@"
SHIM
	chmod +x "$bin/dpkg-deb"
	# the runner itself killed (not a timeout wrapper); its helper timeout
	# bounds it should the kill not come
	PATH="$bin:$PATH" MEMREPRO_HELPER_TIMEOUT=30 "$MR" fetch fakealloc@1.0 > /dev/null 2>&1 &
	mr=$!
	wait_for 20 test -s "$BATS_TEST_TMPDIR/hung.pid"
	kill -KILL "$mr"
	wait "$mr" || true
	kill "$(cat "$BATS_TEST_TMPDIR/hung.pid")"
	[ ! -e "$CACHE/pkgs/libfakealloc1_1.0-1" ]
	run -0 find "$CACHE/pkgs" -maxdepth 1 -name 'libfakealloc1_1.0-1.tmp-*'
	[ -n "$output" ]
	run -0 --separate-stderr timeout -k 5 60 "$MR" fetch fakealloc@1.0
	[[ "$output" == *"(fetched)"* ]] || false
	cmp "$CACHE/pkgs/libfakealloc1_1.0-1/usr/lib/x86_64-linux-gnu/libfakealloc.so.1" "$FAKEALLOC/1.0/libfakealloc.so.1"
	run -0 find "$CACHE" -name '*.tmp-*'
	[ -z "$output" ]
}
