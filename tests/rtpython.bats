#!/usr/bin/env bats
# The python runtime kind (matrix/rtpython.c) through memrepro fetch and
# versions: pythonX.Y-minimal and libpythonX.Y-minimal from .debs built
# here (MEMREPRO_RELEASES, no apt, no network), the host's python3 found in
# PATH.  One real fetch is skipped when the archive cannot be reached.

load test_helper
load release_helper

setup() {
	export XDG_CACHE_HOME=$BATS_TEST_TMPDIR/cache
	export XDG_CONFIG_HOME=$BATS_TEST_TMPDIR/config
	CACHE=$XDG_CACHE_HOME/memrepro
	BIN=$BATS_TEST_TMPDIR/bin
	mkdir -p "$BIN"
}

sha() {
	sha256sum "$1" | awk '{ print $1 }'
}

# The argv line and the env lines of a fetch's output into ARGV and ENVS.
command_of() {
	read -ra ARGV <<< "$(sed -n 's/^  argv    //p' <<< "$1")"
	mapfile -t ENVS < <(sed -n 's/^  env     //p' <<< "$1")
}

# fixture_python DIR RELEASE X.Y DEBVER META [EXEFILE]: the metapackage
# python3 at META, pythonX.Y-minimal (its interpreter a script printing its
# arguments and PYTHONHOME, or a copy of EXEFILE) and libpythonX.Y-minimal
# (usr/lib/pythonX.Y/os.py) at DEBVER into DIR/RELEASE.
fixture_python() {
	local dir=$1 rel=$2 xy=$3 ver=$4 meta=$5 exe=${6:-} t
	t=$(mktemp -d "$BATS_TEST_TMPDIR/deb.XXXXXX")
	deb_of "$dir" "$rel" python3 "$meta" "$t"
	mkdir -p "$t/usr/bin" "$t/usr/share/binfmts"
	if [ -n "$exe" ]; then
		cp "$exe" "$t/usr/bin/python$xy"
	else
		# shellcheck disable=SC2016
		printf '#!/bin/sh\necho "fake python %s: $*"\necho "PYTHONHOME=$PYTHONHOME"\n' \
			"$xy" > "$t/usr/bin/python$xy"
	fi
	chmod +x "$t/usr/bin/python$xy"
	# Debian's package has a binfmt file of the same name: not the interpreter
	echo "package python$xy" > "$t/usr/share/binfmts/python$xy"
	deb_of "$dir" "$rel" "python$xy-minimal" "$ver" "$t"
	mkdir -p "$t/usr/lib/python$xy/encodings"
	echo "# os" > "$t/usr/lib/python$xy/os.py"
	deb_of "$dir" "$rel" "libpython$xy-minimal" "$ver" "$t"
}

# The fixture archive: bullseye 3.9, bookworm 3.11, trixie 3.13 whose
# interpreter needs GLIBC_2.995 (a host library's GLIBC_2.2.5 rewritten)
# and trixie's libc6 2.995, sid 3.14.
python_env() {
	command -v dpkg-deb > /dev/null || skip "dpkg-deb not installed"
	REL=$BATS_TEST_TMPDIR/archive
	export MEMREPRO_RELEASES=$REL
	needy=$BATS_TEST_TMPDIR/needy
	perl -pe 's/GLIBC_2\.2\.5/GLIBC_2.995/g' "$FAKEALLOC/1.0/libfakealloc.so.1" > "$needy"
	fixture_python "$REL" bullseye 3.9 3.9.2-1 3.9.2-3
	fixture_python "$REL" bookworm 3.11 3.11.2-6+deb12u8 3.11.2-1+b1
	fixture_python "$REL" trixie 3.13 3.13.5-2 3.13.5-1 "$needy"
	fixture_libc "$REL" trixie 2.995-1
	fixture_python "$REL" sid 3.14 3.14.10-1 3.14.8-1
}

@test "python@X.Y: pythonX.Y-minimal and libpythonX.Y-minimal of the release that has it; PYTHONHOME, -S; again: cached" {
	python_env
	run -0 --separate-stderr mr fetch python@3.11
	[[ "$output" == *"python@3.11: python 3.11.2 (fetched)"* ]] || false
	[[ "$output" == *"where   bookworm python3.11-minimal 3.11.2-6+deb12u8"* ]] || false
	root=$CACHE/pkgs/python3.11-minimal_3.11.2-6+deb12u8
	lroot=$CACHE/pkgs/libpython3.11-minimal_3.11.2-6+deb12u8
	[[ "$output" == *"exe     $root/usr/bin/python3.11"* ]] || false
	[[ "$output" == *"sha256  $(sha "$root/usr/bin/python3.11")"* ]] || false
	[ -f "$root/.memrepro-manifest" ] && [ -f "$lroot/.memrepro-manifest" ]
	command_of "$output"
	[ "${ARGV[*]}" = "$root/usr/bin/python3.11 -S" ]
	[ "${ENVS[*]}" = "PYTHONHOME=$lroot/usr" ]
	run -0 env "${ENVS[@]}" "${ARGV[@]}" -c 1
	[ "${lines[0]}" = "fake python 3.11: -S -c 1" ]
	[ "${lines[1]}" = "PYTHONHOME=$lroot/usr" ]
	run -0 --separate-stderr mr fetch python@3.11
	[[ "$output" == *"python@3.11: python 3.11.2 (cached)"* ]] || false
}

@test "python@X.Y whose interpreter needs a newer glibc than the host's: through that release's loader" {
	python_env
	run -0 --separate-stderr mr fetch python@3.13
	[[ "$output" == *"where   trixie python3.13-minimal 3.13.5-2"* ]] || false
	[[ "$output" == *"glibc   2.995 needed, the loader's: 2.995"* ]] || false
	exe=$CACHE/pkgs/python3.13-minimal_3.13.5-2/usr/bin/python3.13
	ld=$CACHE/pkgs/libc6_2.995-1/usr/lib/x86_64-linux-gnu
	command_of "$output"
	[ "${ARGV[*]}" = "$ld/ld-linux-x86-64.so.2 --library-path $ld --argv0 $exe $exe -S" ]
	run -0 env "${ENVS[@]}" "${ARGV[@]}" -c 1
	[ "${lines[0]}" = "fake loader: --library-path $ld --argv0 $exe $exe -S -c 1" ]
	[ "${lines[2]}" = "PYTHONHOME=$CACHE/pkgs/libpython3.13-minimal_3.13.5-2/usr" ]
}

@test "python@VERSION, @DEBIAN-VERSION, @RELEASE; one no release has: exit 2, the versions each release has named" {
	python_env
	run -0 --separate-stderr mr fetch python@3.9.2 python@sid python@3.14.10-1 python@bookworm
	[[ "$output" == *"python@3.9.2: python 3.9.2 (fetched)"*"where   bullseye python3.9-minimal 3.9.2-1"* ]] || false
	[[ "$output" == *"python@sid: python 3.14.10 (fetched)"* ]] || false
	[[ "$output" == *"python@3.14.10-1: python 3.14.10 (cached)"* ]] || false
	[[ "$output" == *"python@bookworm: python 3.11.2"* ]] || false
	run -2 --separate-stderr mr fetch python@3.12
	[[ "$stderr" == *"python@3.12: no release has python 3.12 (bullseye 3.9, bookworm 3.11, trixie 3.13, sid 3.14)"* ]] || false
	run -2 --separate-stderr mr fetch python@3.11.9
	[[ "$stderr" == *"python@3.11.9: no release has version 3.11.9 (bookworm 3.11.2)"* ]] || false
	rm "$REL"/bullseye/python3_*.deb
	run -2 --separate-stderr mr fetch python@bullseye
	[[ "$stderr" == *"python@bullseye: bullseye has no python"* ]] || false
}

@test "a release whose libpython is missing or has no standard library: cannot be had, the package named" {
	python_env
	rm "$REL"/bookworm/libpython3.11-minimal_*.deb
	run -1 --separate-stderr mr fetch python@3.11
	[[ "$stderr" == *"python@3.11 cannot be had: libpython3.11-minimal 3.11.2-6+deb12u8 (bookworm): "* ]] || false
	t=$(mktemp -d "$BATS_TEST_TMPDIR/deb.XXXXXX")
	mkdir -p "$t/usr/lib/python3.11"
	echo "# no os.py" > "$t/usr/lib/python3.11/abc.py"
	deb_of "$REL" bookworm libpython3.11-minimal 3.11.2-6+deb12u8 "$t"
	run -1 --separate-stderr mr fetch python@3.11
	[[ "$stderr" == *"python@3.11: libpython3.11-minimal 3.11.2-6+deb12u8 (bookworm) has no "*"/usr/lib/python3.11/os.py"* ]] || false
}

@test "python alone: the host's python3 from PATH, the interpreter it names (sys.executable) recorded" {
	# a wrapper (as a pyenv shim) that names the real interpreter
	printf '#!/bin/sh\necho "real python: $*"\n' > "$BIN/python3.12-real"
	printf '#!/bin/sh\nprintf "3.12.1\\t%s\\n"\n' "$BIN/python3.12-real" > "$BIN/python3"
	chmod +x "$BIN/python3" "$BIN/python3.12-real"
	run -0 --separate-stderr env PATH="$BIN:$PATH" "$MR" fetch python
	[[ "$output" == *"python: python 3.12.1 (host)"* ]] || false
	[[ "$output" == *"where   host $BIN/python3.12-real"* ]] || false
	[[ "$output" == *"sha256  $(sha "$BIN/python3.12-real")"* ]] || false
	[[ "$output" == *"argv    $BIN/python3.12-real -S"* ]] || false
	# none in PATH: the reason names a version to fetch
	rm "$BIN/python3"
	run -1 --separate-stderr env PATH="$BIN" "$MR" fetch python
	[[ "$stderr" == *"python: no python3 in PATH (install it, or name a version: python@3.11)"* ]] || false
}

@test "a malformed python spec: exit 2, the spec named, before anything is fetched" {
	for spec in python@ python@3 'python@3.11;x' python@3.11@x python@v3.11; do
		run -2 --separate-stderr mr fetch "$spec"
		[[ "$stderr" == *"runtime '$spec': want"* ]] || false
	done
	[ ! -e "$CACHE/pkgs" ]
}

@test "versions python: each release's pythonX.Y-minimal, X.Y from python3; nothing fetched" {
	python_env
	run -0 --separate-stderr mr versions python
	[ "$(awk '$1 == "python" && $2 == "bullseye" { print $3, $4, $6 }' <<< "$output")" = "python3.9-minimal 3.9.2-1 no" ]
	[ "$(awk '$1 == "python" && $2 == "sid" { print $3, $5 }' <<< "$output")" = "python3.14-minimal 3.14.10" ]
	[ ! -e "$CACHE/pkgs" ]
}

# bats test_tags=network
@test "network: python@3.11 from the host's mirror; it runs and finds its standard library" {
	needs_network
	command -v apt-get > /dev/null || skip "no apt-get"
	command -v dpkg-deb > /dev/null || skip "dpkg-deb not installed"
	export XDG_CACHE_HOME=$BATS_RUN_TMPDIR/real-cache
	run --separate-stderr timeout -k 5 600 "$MR" fetch python@3.11
	if [ "$status" -eq 1 ] && [[ "$stderr" == *"cannot be had: "*"no network"* ]]; then
		skip "the archive is unreachable: $stderr"
	fi
	[ "$status" -eq 0 ]
	[[ "$output" == *"python@3.11: python 3.11."*"where   bookworm python3.11-minimal 3.11."* ]] || false
	command_of "$output"
	run -0 env "${ENVS[@]}" "${ARGV[@]}" -c 'import sys, os, threading, subprocess; print(sys.version.split()[0], sys.prefix == os.environ["PYTHONHOME"])'
	[[ "$output" == '3.11.'*' True' ]] || false
}
