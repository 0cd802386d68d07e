#!/usr/bin/env bats
# The java runtime kind (matrix/rtjava.c) through memrepro fetch and
# versions: openjdk-N-jre-headless from .debs built here
# (MEMREPRO_RELEASES, no apt, no network), N from default-jre-headless, the
# host's java found in PATH.  One real fetch is skipped when the archive
# cannot be reached.

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

# fixture_java DIR RELEASE N DEBVER META [LIBJVM]: the metapackage
# default-jre-headless at META and openjdk-N-jre-headless at DEBVER into
# DIR/RELEASE: its home's bin/java a script printing its arguments and the
# jvm.cfg it reads through lib/jvm.cfg, lib/server/libjvm.so a copy of
# LIBJVM (the fixture allocator), lib/jvm.cfg an absolute link to
# /etc/java-N-openjdk/jvm-amd64.cfg, which the package ships, as Debian's.
fixture_java() {
	local dir=$1 rel=$2 n=$3 ver=$4 meta=$5 jvm=${6:-$FAKEALLOC/1.0/libfakealloc.so.1} t home
	t=$(mktemp -d "$BATS_TEST_TMPDIR/deb.XXXXXX")
	deb_of "$dir" "$rel" default-jre-headless "$meta" "$t"
	home=$t/usr/lib/jvm/java-$n-openjdk-amd64
	mkdir -p "$home/bin" "$home/lib/server" "$t/etc/java-$n-openjdk"
	# shellcheck disable=SC2016
	printf '#!/bin/sh\necho "fake java %s: $*"\necho "cfg $(cat "$(dirname "$0")/../lib/jvm.cfg")"\n' \
		"$n" > "$home/bin/java"
	chmod +x "$home/bin/java"
	cp "$jvm" "$home/lib/server/libjvm.so"
	echo "-server KNOWN $n" > "$t/etc/java-$n-openjdk/jvm-amd64.cfg"
	ln -s "/etc/java-$n-openjdk/jvm-amd64.cfg" "$home/lib/jvm.cfg"
	deb_of "$dir" "$rel" "openjdk-$n-jre-headless" "$ver" "$t"
}

# The fixture archive: bullseye 11, bookworm 17, trixie 21 whose libjvm
# needs GLIBC_2.995 (a host library's GLIBC_2.2.5 rewritten) and trixie's
# libc6 2.995, sid 25.
java_env() {
	command -v dpkg-deb > /dev/null || skip "dpkg-deb not installed"
	REL=$BATS_TEST_TMPDIR/archive
	export MEMREPRO_RELEASES=$REL
	needy=$BATS_TEST_TMPDIR/needy
	perl -pe 's/GLIBC_2\.2\.5/GLIBC_2.995/g' "$FAKEALLOC/1.0/libfakealloc.so.1" > "$needy"
	fixture_java "$REL" bullseye 11 11.0.24+8-2~deb11u1 2:1.11-72
	fixture_java "$REL" bookworm 17 17.0.19+10-1~deb12u2 2:1.17-74
	fixture_java "$REL" trixie 21 21.0.13+9-1~deb13u2 2:1.21-76 "$needy"
	fixture_libc "$REL" trixie 2.995-1
	fixture_java "$REL" sid 25 25.0.5.0.3+1-1 2:1.25-77
}

@test "java@N: openjdk-N-jre-headless of the release whose default java is N; its links into /etc made its own; again: cached" {
	java_env
	run -0 --separate-stderr mr fetch java@17
	[[ "$output" == *"java@17: java 17.0.19 (fetched)"* ]] || false
	[[ "$output" == *"where   bookworm openjdk-17-jre-headless 17.0.19+10-1~deb12u2"* ]] || false
	root=$CACHE/pkgs/openjdk-17-jre-headless_17.0.19+10-1~deb12u2
	home=$root/usr/lib/jvm/java-17-openjdk-amd64
	[[ "$output" == *"exe     $home/bin/java"* ]] || false
	[[ "$output" == *"sha256  $(sha "$home/bin/java")"* ]] || false
	[[ "$output" == *"lib_sha256 $(sha "$home/lib/server/libjvm.so")"* ]] || false
	# the absolute link now points into the package's own etc
	[ "$(readlink "$home/lib/jvm.cfg")" = "../../../../../etc/java-17-openjdk/jvm-amd64.cfg" ]
	[ -f "$root/.memrepro-manifest" ]
	command_of "$output"
	[ "${ARGV[*]}" = "$home/bin/java" ]
	[ "${#ENVS[@]}" -eq 0 ]
	run -0 "${ARGV[@]}" Prog.java
	[ "${lines[0]}" = "fake java 17: Prog.java" ]
	[ "${lines[1]}" = "cfg -server KNOWN 17" ]
	run -0 --separate-stderr mr fetch java@17
	[[ "$output" == *"java@17: java 17.0.19 (cached)"* ]] || false
}

@test "java@N whose libjvm needs a newer glibc than the host's: through that release's loader" {
	java_env
	run -0 --separate-stderr mr fetch java@21
	[[ "$output" == *"where   trixie openjdk-21-jre-headless 21.0.13+9-1~deb13u2"* ]] || false
	[[ "$output" == *"glibc   2.995 needed, the loader's: 2.995"* ]] || false
	exe=$CACHE/pkgs/openjdk-21-jre-headless_21.0.13+9-1~deb13u2/usr/lib/jvm/java-21-openjdk-amd64/bin/java
	ld=$CACHE/pkgs/libc6_2.995-1/usr/lib/x86_64-linux-gnu
	command_of "$output"
	[ "${ARGV[*]}" = "$ld/ld-linux-x86-64.so.2 --library-path $ld --argv0 $exe $exe" ]
}

@test "java@VERSION, @DEBIAN-VERSION, @RELEASE; one no release has: exit 2, the versions each release has named" {
	java_env
	run -0 --separate-stderr mr fetch java@11.0.24 java@sid java@25.0.5.0.3+1-1 java@bookworm
	[[ "$output" == *"java@11.0.24: java 11.0.24 (fetched)"*"where   bullseye openjdk-11-jre-headless 11.0.24+8-2~deb11u1"* ]] || false
	[[ "$output" == *"java@sid: java 25.0.5.0.3 (fetched)"* ]] || false
	[[ "$output" == *"java@25.0.5.0.3+1-1: java 25.0.5.0.3 (cached)"* ]] || false
	[[ "$output" == *"java@bookworm: java 17.0.19"* ]] || false
	run -2 --separate-stderr mr fetch java@8
	[[ "$stderr" == *"java@8: no release has java 8 (bullseye 11, bookworm 17, trixie 21, sid 25)"* ]] || false
	run -2 --separate-stderr mr fetch java@17.0.99
	[[ "$stderr" == *"java@17.0.99: no release has version 17.0.99 (bookworm 17.0.19)"* ]] || false
	rm "$REL"/bullseye/default-jre-headless_*.deb
	run -2 --separate-stderr mr fetch java@bullseye
	[[ "$stderr" == *"java@bullseye: bullseye has no java"* ]] || false
}

@test "a package without bin/java or with a dangling jvm.cfg: cannot be had, the file named" {
	java_env
	t=$(mktemp -d "$BATS_TEST_TMPDIR/deb.XXXXXX")
	mkdir -p "$t/usr/lib/jvm/java-17-openjdk-amd64/lib/server"
	cp "$FAKEALLOC/1.0/libfakealloc.so.1" "$t/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so"
	deb_of "$REL" bookworm openjdk-17-jre-headless 17.0.19+10-1~deb12u2 "$t"
	run -1 --separate-stderr mr fetch java@17
	[[ "$stderr" == *"java@17: openjdk-17-jre-headless 17.0.19+10-1~deb12u2 (bookworm) has no "*"/java-17-openjdk-amd64/bin/java"* ]] || false
	t=$(mktemp -d "$BATS_TEST_TMPDIR/deb.XXXXXX")
	mkdir -p "$t/usr/lib/jvm/java-11-openjdk-amd64/bin" "$t/usr/lib/jvm/java-11-openjdk-amd64/lib/server"
	printf '#!/bin/sh\n' > "$t/usr/lib/jvm/java-11-openjdk-amd64/bin/java"
	chmod +x "$t/usr/lib/jvm/java-11-openjdk-amd64/bin/java"
	cp "$FAKEALLOC/1.0/libfakealloc.so.1" "$t/usr/lib/jvm/java-11-openjdk-amd64/lib/server/libjvm.so"
	ln -s /etc/java-11-openjdk/not-shipped.cfg "$t/usr/lib/jvm/java-11-openjdk-amd64/lib/jvm.cfg"
	deb_of "$REL" bullseye openjdk-11-jre-headless 11.0.24+8-2~deb11u1 "$t"
	run -1 --separate-stderr mr fetch java@11
	[[ "$stderr" == *"java@11: openjdk-11-jre-headless 11.0.24+8-2~deb11u1 (bullseye): "*"/lib/jvm.cfg cannot be read"* ]] || false
}

@test "java alone: the host's java from PATH, its version from java --version" {
	printf '#!/bin/sh\n[ "$1" = --version ] && echo "openjdk 21.0.2 2024-01-16" && echo "OpenJDK Runtime Environment"\n' > "$BIN/java"
	chmod +x "$BIN/java"
	run -0 --separate-stderr env PATH="$BIN:$PATH" "$MR" fetch java
	[[ "$output" == *"java: java 21.0.2 (host)"* ]] || false
	[[ "$output" == *"where   host $BIN/java"* ]] || false
	[[ "$output" == *"argv    $BIN/java"* ]] || false
	# a .0 release says "openjdk 25 2025-09-16"
	printf '#!/bin/sh\necho "openjdk 25 2025-09-16"\n' > "$BIN/java"
	run -0 --separate-stderr env PATH="$BIN:$PATH" "$MR" fetch java
	[[ "$output" == *"java: java 25 (host)"* ]] || false
	rm "$BIN/java"
	run -1 --separate-stderr env PATH="$BIN" "$MR" fetch java
	[[ "$stderr" == *"java: no java in PATH (install it, or name a version: java@17)"* ]] || false
}

@test "a malformed java spec: exit 2, the spec named, before anything is fetched" {
	for spec in java@ 'java@17;x' java@17@x java@v17 java@1234; do
		run -2 --separate-stderr mr fetch "$spec"
		[[ "$stderr" == *"runtime '$spec': want"* ]] || false
	done
	[ ! -e "$CACHE/pkgs" ]
}

@test "versions java: each release's openjdk-N-jre-headless, N from default-jre-headless; nothing fetched" {
	java_env
	run -0 --separate-stderr mr versions java
	[ "$(awk '$1 == "java" && $2 == "bullseye" { print $3, $4, $6 }' <<< "$output")" = "openjdk-11-jre-headless 11.0.24+8-2~deb11u1 no" ]
	[ "$(awk '$1 == "java" && $2 == "sid" { print $3, $5 }' <<< "$output")" = "openjdk-25-jre-headless 25.0.5.0.3" ]
	[ ! -e "$CACHE/pkgs" ]
}

# bats test_tags=network
@test "network: java@11 from the host's mirror (37 MB); it runs a single-file program with the JRE alone, and an original under the runner" {
	needs_network
	command -v apt-get > /dev/null || skip "no apt-get"
	command -v dpkg-deb > /dev/null || skip "dpkg-deb not installed"
	export XDG_CACHE_HOME=$BATS_RUN_TMPDIR/real-cache
	run --separate-stderr timeout -k 5 900 "$MR" fetch java@11
	if [ "$status" -eq 1 ] && [[ "$stderr" == *"cannot be had: "*"no network"* ]]; then
		skip "the archive is unreachable: $stderr"
	fi
	[ "$status" -eq 0 ]
	[[ "$output" == *"java@11: java 11."*"where   bullseye openjdk-11-jre-headless 11."* ]] || false
	command_of "$output"
	printf 'public class Hi { public static void main(String[] a) { System.out.println("hi " + Runtime.version().feature()); } }\n' > "$BATS_TEST_TMPDIR/Hi.java"
	run -0 timeout 120 env "${ENVS[@]}" "${ARGV[@]}" "$BATS_TEST_TMPDIR/Hi.java"
	[ "$output" = "hi 11" ]
	# an original under the runner on it, its checkpoint measured
	[ -f "$ROOT/build/lib/Memrepro.class" ] || skip "build/lib/Memrepro.class not built: no javac when make ran"
	D=$BATS_TEST_TMPDIR/cases
	mkdir -p "$D" "$BATS_TEST_TMPDIR/lib"
	cp "$FIX/touch" "$D/"
	cp "$ROOT/tests/data/originals/touch.java" "$D/touch.java"
	cp "$ROOT/build/lib/Memrepro.class" "$BATS_TEST_TMPDIR/lib/"
	run -0 timeout -k 5 300 "$MR" run --cases "$D" --out "$BATS_TEST_TMPDIR/out" --repeat 1 \
		--axis allocator=glibc --axis runtime=java@11 --axis mb=40 touch
	[ "$(tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" outcome '$2 ~ /runtime=java@11/')" = ok ]
	rss=$(tsv_col "$BATS_TEST_TMPDIR/out/checkpoints.tsv" rss_kb '$2 ~ /runtime=java@11/')
	(( rss > 40 * 1024 )) || false
	grep -q "^runtime.java@11.version	11\." "$BATS_TEST_TMPDIR/out/env.tsv"
}
