# Fixture releases for the tests of memrepro versions and fetch
# (tests/versions.bats): a directory of .deb files built here with
# dpkg-deb --build, read through MEMREPRO_RELEASES=DIR (no apt, no network).
# Load after test_helper.

# The fixture allocator, one build per version (the Makefile's
# FAKEALLOC_VERSIONS): build/fakealloc/<version>/libfakealloc.so.1.
FAKEALLOC="$ROOT/build/fakealloc"

# fixture_deb DIR RELEASE VERSION [LIB_VERSION] [PACKAGE]: a .deb of
# PACKAGE (libfakealloc1) at Debian version VERSION into DIR/RELEASE,
# holding usr/lib/x86_64-linux-gnu/libfakealloc.so.1 built as LIB_VERSION
# (1.0).  The file is named as apt names it (epoch ':' as %3a).
fixture_deb() {
	local dir=$1 rel=$2 ver=$3 lib=${4:-1.0} pkg=${5:-libfakealloc1} tree
	tree=$(mktemp -d "$BATS_TEST_TMPDIR/deb.XXXXXX")
	mkdir -p "$tree/DEBIAN" "$tree/usr/lib/x86_64-linux-gnu" "$dir/$rel"
	cp "$FAKEALLOC/$lib/libfakealloc.so.1" "$tree/usr/lib/x86_64-linux-gnu/"
	ln -s libfakealloc.so.1 "$tree/usr/lib/x86_64-linux-gnu/libfakealloc.so"
	cat > "$tree/DEBIAN/control" <<CONTROL
Package: $pkg
Version: $ver
Architecture: amd64
Maintainer: memrepro tests <tests@invalid>
Description: fixture allocator $lib for memrepro's release tests
CONTROL
	dpkg-deb --root-owner-group -Zgzip --build "$tree" \
		"$dir/$rel/${pkg}_${ver//:/%3a}_amd64.deb" >/dev/null
	rm -rf "$tree"
}

# fixture_release DIR: the fixture archive — bullseye has no fakealloc,
# bookworm 1.0-1, trixie 2.0-1, sid 1:2.0+ds-2 (upstream 2.0 as well).
fixture_release() {
	fixture_deb "$1" bookworm 1.0-1 1.0
	fixture_deb "$1" trixie 2.0-1 2.0
	fixture_deb "$1" sid 1:2.0+ds-2 2.0
}

# fixture_registry FILE: a registry entry for the fixture allocator.
fixture_registry() {
	mkdir -p "$(dirname "$1")"
	cat > "$1" <<'REG'
# the fixture allocator of tests/fixtures/alloc/fakealloc.c
[fakealloc]
library = libfakealloc.so.1
package = libfakealloc1
options = none
default = no
REG
}

# release_env: a fresh cache and user config under the test's tmpdir, the
# fixture archive in $REL as the source, the fixture registry entry in the
# user's registry file.
release_env() {
	REL=$BATS_TEST_TMPDIR/archive
	export XDG_CACHE_HOME=$BATS_TEST_TMPDIR/cache
	export XDG_CONFIG_HOME=$BATS_TEST_TMPDIR/config
	export MEMREPRO_RELEASES=$REL
	CACHE=$XDG_CACHE_HOME/memrepro
	fixture_release "$REL"
	fixture_registry "$XDG_CONFIG_HOME/memrepro/allocators"
}

# flip_byte FILE OFFSET: invert one byte of FILE in place.
flip_byte() {
	local b
	b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	printf '%b' "\\0$(printf '%o' $((255 - b)))" |
		dd of="$1" bs=1 seek="$2" count=1 conv=notrunc status=none
}

# --- runtimes from releases (runtimes.bats, rtpython.bats) ---------------

# deb_of DIR RELEASE PACKAGE VERSION TREE: TREE packed into
# DIR/RELEASE/PACKAGE_VERSION_amd64.deb (and removed).
deb_of() {
	local dir=$1 rel=$2 pkg=$3 ver=$4 tree=$5
	mkdir -p "$tree/DEBIAN" "$dir/$rel"
	cat > "$tree/DEBIAN/control" <<CONTROL
Package: $pkg
Version: $ver
Architecture: amd64
Maintainer: memrepro tests <tests@invalid>
Description: fixture $pkg for memrepro's runtime tests
CONTROL
	dpkg-deb --root-owner-group -Zgzip --build "$tree" \
		"$dir/$rel/${pkg}_${ver//:/%3a}_amd64.deb" > /dev/null
	rm -rf "$tree"
}

# fixture_libc DIR RELEASE DEBVER: a libc6 whose loader is a script
# printing its arguments.
fixture_libc() {
	local t
	t=$(mktemp -d "$BATS_TEST_TMPDIR/deb.XXXXXX")
	mkdir -p "$t/usr/lib/x86_64-linux-gnu"
	# shellcheck disable=SC2016
	printf '#!/bin/sh\necho "fake loader: $*"\necho "RUBYLIB=$RUBYLIB"\necho "PYTHONHOME=$PYTHONHOME"\n' > "$t/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"
	chmod +x "$t/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"
	echo libc > "$t/usr/lib/x86_64-linux-gnu/libc.so.6"
	deb_of "$1" "$2" libc6 "$3" "$t"
}
