#!/usr/bin/env bats
# The go runtime kind (matrix/rtgo.c, rtgobuild.c) and lib/memrepro.go:
# golang-X.Y-go and golang-X.Y-src from .debs built here (MEMREPRO_RELEASES,
# no apt, no network) whose `go` is a script that "builds" by writing a
# program that prints its arguments, so that the GOROOT, the build's
# environment and the cache's keys can be checked; the helper's protocol
# and one real fetch, build and run as network tests.

load test_helper
load release_helper

setup() {
	export XDG_CACHE_HOME=$BATS_TEST_TMPDIR/cache
	export XDG_CONFIG_HOME=$BATS_TEST_TMPDIR/config
	CACHE=$XDG_CACHE_HOME/memrepro
}

# fixture_go DIR RELEASE X.Y DEBVER META: the metapackage golang-go at
# META, golang-X.Y-go (bin/go the fake toolchain, pkg, VERSION, the
# generated src/runtime/zversion.go) and golang-X.Y-src (the rest of src)
# at DEBVER into DIR/RELEASE.  The fake go logs each call into
# $GOCACHE/../fakego.log, fails unless GOROOT/src holds both packages'
# files and main.go, memrepro.go, go.mod are in its directory, fails on a
# main.go that says "syntax error", and writes for -o OUT a program
# printing "fake go X.Y program: ARGS".
fixture_go() {
	local dir=$1 rel=$2 xy=$3 ver=$4 meta=$5 t g
	t=$(mktemp -d "$BATS_TEST_TMPDIR/deb.XXXXXX")
	deb_of "$dir" "$rel" golang-go "$meta" "$t"
	g=$t/usr/lib/go-$xy
	mkdir -p "$g/bin" "$g/pkg/tool/linux_amd64" "$t/usr/share/go-$xy/src/runtime"
	echo "go$ver" > "$g/VERSION"
	echo "package runtime // generated" > "$t/usr/share/go-$xy/src/runtime/zversion.go"
	ln -s "../../share/go-$xy/src" "$g/src"
	# shellcheck disable=SC2016
	cat > "$g/bin/go" <<FAKE
#!/bin/sh
mkdir -p "\$GOCACHE"
echo "go \$* | \$(basename "\$PWD") GOROOT=\$GOROOT CGO_ENABLED=\$CGO_ENABLED GOPROXY=\$GOPROXY GOFLAGS=\$GOFLAGS GOTOOLCHAIN=\$GOTOOLCHAIN HOME=\$HOME PATH=\$PATH" >> "\$GOCACHE/../fakego.log"
[ -f "\$GOROOT/src/runtime/zversion.go" ] && [ -f "\$GOROOT/src/runtime/malloc.go" ] || { echo "GOROOT/src is not whole" >&2; exit 1; }
[ -f main.go ] && [ -f memrepro.go ] && [ -f go.mod ] || { echo "no main.go, memrepro.go, go.mod" >&2; exit 1; }
if grep -q "syntax error" main.go; then echo "./main.go:3:1: syntax error: fake" >&2; exit 1; fi
printf '#!/bin/sh\necho "fake go $xy program: \$*"\n' > "\$4"
chmod +x "\$4"
FAKE
	chmod +x "$g/bin/go"
	deb_of "$dir" "$rel" "golang-$xy-go" "$ver" "$t"
	mkdir -p "$t/usr/share/go-$xy/src/runtime"
	echo "package runtime" > "$t/usr/share/go-$xy/src/runtime/malloc.go"
	deb_of "$dir" "$rel" "golang-$xy-src" "$ver" "$t"
}

# The fixture archive: bullseye 1.15, bookworm 1.19, trixie 1.24, sid 1.27
# (the metapackage's versions as Debian writes them).
go_env() {
	command -v dpkg-deb > /dev/null || skip "dpkg-deb not installed"
	REL=$BATS_TEST_TMPDIR/archive
	export MEMREPRO_RELEASES=$REL
	fixture_go "$REL" bullseye 1.15 1.15.15-1~deb11u4 2:1.15~1
	fixture_go "$REL" bookworm 1.19 1.19.8-2 2:1.19~1
	fixture_go "$REL" trixie 1.24 1.24.4-1 2:1.24~2
	fixture_go "$REL" sid 1.27 1.27.3-1 2:1.27~1
}

# A case dir: the fixture model touch, a Go original beside it, the helper
# in ../lib.
go_case() {
	D=$BATS_TEST_TMPDIR/cases
	mkdir -p "$D" "$BATS_TEST_TMPDIR/lib"
	cp "$FIX/touch" "$D/"
	printf '// memrepro: params mb\npackage main\n\nfunc main() { Checkpoint("touched") }\n' > "$D/touch.go"
	cp "$ROOT/lib/memrepro.go" "$BATS_TEST_TMPDIR/lib/"
}

# go_run RUNTIMES: touch at mb=8 under those, the results in $OUT.
go_run() {
	OUT=$BATS_TEST_TMPDIR/out.$RANDOM
	run -0 timeout -k 5 120 "$MR" run --cases "$D" --out "$OUT" --repeat 1 \
		--axis allocator=glibc --axis mb=8 --axis runtime="$1" touch
}

@test "go@X.Y: golang-X.Y-go and golang-X.Y-src of the release that has it, joined in one GOROOT in the cache; again: cached" {
	go_env
	run -0 --separate-stderr mr fetch go@1.19
	[[ "$output" == *"go@1.19: go 1.19.8 (fetched)"* ]] || false
	[[ "$output" == *"where   bookworm golang-1.19-go 1.19.8-2"* ]] || false
	g=$CACHE/goroot/golang-1.19-go_1.19.8-2
	[[ "$output" == *"exe     $g/bin/go"* ]] || false
	[[ "$output" == *"sha256  $(sha256sum "$CACHE/pkgs/golang-1.19-go_1.19.8-2/usr/lib/go-1.19/bin/go" | cut -d' ' -f1)"* ]] || false
	# src: both packages' files
	[ -f "$g/src/runtime/zversion.go" ] && [ -f "$g/src/runtime/malloc.go" ]
	[ "$(cat "$g/VERSION")" = go1.19.8-2 ]
	run -0 --separate-stderr mr fetch go@1.19
	[[ "$output" == *"go@1.19: go 1.19.8 (cached)"* ]] || false
}

@test "go@VERSION, @RELEASE; a version no release has: exit 2, what each release has named" {
	go_env
	run -0 --separate-stderr mr fetch go@1.15.15 go@sid go@trixie
	[[ "$output" == *"go@1.15.15: go 1.15.15 (fetched)"*"where   bullseye golang-1.15-go 1.15.15-1~deb11u4"* ]] || false
	[[ "$output" == *"go@sid: go 1.27.3"* ]] || false
	[[ "$output" == *"go@trixie: go 1.24.4"* ]] || false
	run -2 --separate-stderr mr fetch go@1.21
	[[ "$stderr" == *"go@1.21: no release has go 1.21 (bullseye 1.15, bookworm 1.19, trixie 1.24, sid 1.27)"* ]] || false
	go_case
	run -2 --separate-stderr mr run --cases "$D" --axis runtime=go@1.21 touch
	[[ "$stderr" == *"go@1.21: no release has go 1.21"* ]] || false
	for spec in go@ go@1 'go@1.19;x' go@v1.19; do
		run -2 --separate-stderr mr fetch "$spec"
		[[ "$stderr" == *"runtime '$spec': want"* ]] || false
	done
}

@test "a Go original: built once per toolchain and source (no cgo, no network, the cache's GOROOT), the program run in its place" {
	go_env
	go_case
	go_run c,go@1.19,go@1.24
	log=$CACHE/gobuild/fakego.log
	[ "$(wc -l < "$log")" -eq 2 ]
	grep -q "^go build -trimpath -o .* \. | .* GOROOT=$CACHE/goroot/golang-1.19-go_1.19.8-2 CGO_ENABLED=0 GOPROXY=off GOFLAGS=-mod=mod GOTOOLCHAIN=local HOME=$CACHE/gobuild/home PATH=/usr/bin:/bin$" "$log"
	[ "$(tsv_col "$OUT/runs.tsv" outcome '$2 == "allocator=glibc,mb=8,runtime=go@1.19"')" = ok ]
	l=$(tsv_col "$OUT/runs.tsv" log '$2 == "allocator=glibc,mb=8,runtime=go@1.24"')
	grep -qx "fake go 1.24 program: --param mb=8" "$OUT/$l"
	grep -q "^runtime.go@1.19.version	1.19.8$" "$OUT/env.tsv"
	# the same source and toolchains: nothing built again
	go_run go@1.19,go@1.24
	[ "$(wc -l < "$log")" -eq 2 ]
	# a changed source (or helper): built anew, the old binary kept
	echo "// changed" >> "$D/touch.go"
	go_run go@1.19
	[ "$(wc -l < "$log")" -eq 3 ]
	[ "$(find "$CACHE/gobuild" -name touch -type f | wc -l)" -eq 3 ]
	echo "// changed" >> "$BATS_TEST_TMPDIR/lib/memrepro.go"
	go_run go@1.19
	[ "$(wc -l < "$log")" -eq 4 ]
	# nothing of a build left behind
	[ -z "$(find "$CACHE/gobuild" -name '*.tmp.*')" ]
}

@test "a Go original that does not build: its runs skipped with the compiler's message; the model runs" {
	go_env
	go_case
	echo "// syntax error" >> "$D/touch.go"
	go_run c,go@1.19
	why=$(tsv_col "$OUT/runs.tsv" detail '$2 == "allocator=glibc,mb=8,runtime=go@1.19"')
	[[ "$why" == *"go@1.19: go build failed (exit 1): ./main.go:3:1: syntax error: fake"* ]] || false
	[ "$(tsv_col "$OUT/runs.tsv" outcome '$2 == "allocator=glibc,mb=8"')" = ok ]
}

@test "go alone: the host's go from PATH, its version from go version" {
	BIN=$BATS_TEST_TMPDIR/bin
	mkdir -p "$BIN"
	printf '#!/bin/sh\necho "go version go1.22.5 linux/amd64"\n' > "$BIN/go"
	chmod +x "$BIN/go"
	run -0 --separate-stderr env PATH="$BIN:$PATH" "$MR" fetch go
	[[ "$output" == *"go: go 1.22.5 (host)"* ]] || false
	[[ "$output" == *"where   host $BIN/go"* ]] || false
	run -1 --separate-stderr env PATH="$BATS_TEST_TMPDIR/none" "$MR" fetch go
	[[ "$stderr" == *"go: no go in PATH (install it, or name a version: go@1.19)"* ]] || false
}

# A real toolchain: the host's go, else go@1.19 fetched (network); its
# GOROOT into GOROOT_DIR, the go command into GO.
real_go() {
	GO=$(command -v go || true)
	GOROOT_DIR=
	if [ -z "$GO" ]; then
		needs_network
		export XDG_CACHE_HOME=$BATS_RUN_TMPDIR/real-cache
		run --separate-stderr timeout -k 5 900 "$MR" fetch go@1.19
		if [ "$status" -eq 1 ] && [[ "$stderr" == *"cannot be had: "* ]]; then
			skip "the archive is unreachable: $stderr"
		fi
		[ "$status" -eq 0 ]
		GO=$(sed -n 's/^  exe     //p' <<< "$output")
		GOROOT_DIR=${GO%/bin/go}
	fi
}

# bats test_tags=network
@test "memrepro.go under a runner: one record per checkpoint, measured while it waits; children see neither fds nor variables; bad names dropped" {
	command -v python3 > /dev/null || skip "no python3 (the mock runner)"
	real_go
	b=$BATS_TEST_TMPDIR/build
	mkdir -p "$b"
	cp "$ROOT/tests/data/gohelper/prog.go" "$b/main.go"
	cp "$ROOT/lib/memrepro.go" "$b/"
	printf 'module prog\n\ngo 1.15\n' > "$b/go.mod"
	(cd "$b" && env ${GOROOT_DIR:+GOROOT=$GOROOT_DIR} GOCACHE="$BATS_RUN_TMPDIR/gocache" CGO_ENABLED=0 \
		GOPROXY=off GOFLAGS=-mod=mod GOTOOLCHAIN=local HOME="$b" timeout 900 "$GO" build -o prog .)
	run -0 --separate-stderr timeout -k 5 60 python3 "$ROOT/tests/data/pyhelper/mock.py" ack "$b/prog" --param n=5 own --param=m=2
	[ "$(grep '^record ' <<< "$output" | awk '{ printf "%s%s ", $2, $3 }')" = "grow1 grow2 grow3 done1 " ]
	mapfile -t rss < <(awk '$1 == "record" && $2 == "grow" { print $4 }' <<< "$output")
	(( rss[1] - rss[0] > 15 * 1024 && rss[2] - rss[1] > 15 * 1024 )) || false
	[[ "$output" == *"child-env unset unset"* ]] || false
	[[ "$output" != *"child-has-fd"* ]] || false
	[[ "$output" == *"param n=5 argv own"* ]] || false
	[[ "$stderr" == *"checkpoint name is not [a-z0-9_-]{1,63}: Bad Name; dropped"* ]] || false
	[ "${lines[-1]}" = "exit 0" ]
	run -0 timeout -k 5 60 python3 "$ROOT/tests/data/pyhelper/mock.py" gone-mid "$b/prog"
	[ "$(grep -c '^record ' <<< "$output")" -eq 1 ]
	[ "${lines[-2]}" = end ]
	# by hand: nothing sent, bad variables one line each, the program runs on
	run -0 --separate-stderr env MEMREPRO_CKPT_FD=x MEMREPRO_ACK_FD=4 timeout 60 "$b/prog"
	[[ "$stderr" == "memrepro: MEMREPRO_CKPT_FD is not a file descriptor number: x; checkpoints are off"* ]] || false
	[ "${lines[-1]}" = end ]
	run -0 --separate-stderr env MEMREPRO_CKPT_FD=97 MEMREPRO_ACK_FD=98 timeout 60 "$b/prog"
	[[ "$stderr" == *"Bad Name; dropped" ]] || false
}

# bats test_tags=network
@test "network: go@1.19 fetched, go-scavenger.go built and run beside its model; its claims on go@1.19 hold" {
	needs_network
	command -v apt-get > /dev/null || skip "no apt-get"
	export XDG_CACHE_HOME=$BATS_RUN_TMPDIR/real-cache
	run --separate-stderr timeout -k 5 900 "$MR" fetch go@1.19
	if [ "$status" -eq 1 ] && [[ "$stderr" == *"cannot be had: "* ]]; then
		skip "the archive is unreachable: $stderr"
	fi
	[ "$status" -eq 0 ]
	run -0 timeout -k 5 900 "$MR" run --out "$BATS_TEST_TMPDIR/out" --repeat 1 --profile quick \
		--axis allocator=glibc --axis madvise=free,dontneed --axis runtime=c,go@1.19 go-scavenger
	d=$BATS_TEST_TMPDIR/out
	log=$(tsv_col "$d/runs.tsv" log '$2 ~ /madvise=free,/ && $2 ~ /runtime=go@1.19/')
	grep -q "^after FreeOSMemory .*(go1.19" "$d/$log"
	run -0 "$MR" check --from "$d" go-scavenger
	[[ "$output" == *"go-scavenger: "*" claims held, 0 reproduces, 0 regressed"* ]] || false
	[[ "$output" =~ orig-119-default-returns\ +held ]] || false
}
