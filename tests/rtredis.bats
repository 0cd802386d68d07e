#!/usr/bin/env bats
# The redis runtime kind (matrix/rtredis.c) and the redis-frag original's
# driver (cases/redis-frag.redis): redis-server and redis-tools from .debs
# built here (MEMREPRO_RELEASES, no apt, no network), the server a fake
# (tests/fixtures/fakeredis.py) speaking enough of Redis's protocol.  One
# real fetch and run is a network test.

load test_helper
load release_helper

setup() {
	export XDG_CACHE_HOME=$BATS_TEST_TMPDIR/cache
	export XDG_CONFIG_HOME=$BATS_TEST_TMPDIR/config
	CACHE=$XDG_CACHE_HOME/memrepro
	PY=$(realpath "$(python3 -c 'import sys; print(sys.executable)')")
}

# The env lines of a fetch's output into ENVS.
envs_of() {
	mapfile -t ENVS < <(sed -n 's/^  env     //p' <<< "$1")
}

# fixture_redis DIR RELEASE DEBVER [EXE]: redis-server (the metapackage
# whose version gives X.Y; usr/bin/redis-server a link) and redis-tools
# (usr/bin/redis-check-rdb: EXE, or the fake server) at DEBVER.
fixture_redis() {
	local dir=$1 rel=$2 ver=$3 exe=${4:-} t
	t=$(mktemp -d "$BATS_TEST_TMPDIR/deb.XXXXXX")
	mkdir -p "$t/usr/bin" "$t/usr/share/doc/redis-server"
	ln -s redis-check-rdb "$t/usr/bin/redis-server"
	echo "fixture" > "$t/usr/share/doc/redis-server/copyright"
	deb_of "$dir" "$rel" redis-server "$ver" "$t"
	mkdir -p "$t/usr/bin"
	if [ -n "$exe" ]; then
		cp "$exe" "$t/usr/bin/redis-check-rdb"
	else
		{ echo "#!$PY"; cat "$ROOT/tests/fixtures/fakeredis.py"; } > "$t/usr/bin/redis-check-rdb"
	fi
	chmod +x "$t/usr/bin/redis-check-rdb"
	deb_of "$dir" "$rel" redis-tools "$ver" "$t"
}

# fixture_lib DIR RELEASE PACKAGE SONAME: PACKAGE holding a library file
# SONAME (the fixture allocator's bytes).
fixture_lib() {
	local t
	t=$(mktemp -d "$BATS_TEST_TMPDIR/deb.XXXXXX")
	mkdir -p "$t/usr/lib/x86_64-linux-gnu"
	cp "$FAKEALLOC/1.0/libfakealloc.so.1" "$t/usr/lib/x86_64-linux-gnu/$4"
	deb_of "$1" "$2" "$3" 1.0-1 "$t"
}

# The archive: bullseye 6.0.16, bookworm 7.0.15 whose binary needs
# liblzf.so.1 (a program linked to the fixture allocator, its DT_NEEDED
# renamed), with liblzf1 and liblua5.1-0 (which it does not need); trixie
# 8.0.2, sid 8.0.6.
redis_env() {
	command -v dpkg-deb > /dev/null || skip "dpkg-deb not installed"
	command -v cc > /dev/null || skip "no cc"
	REL=$BATS_TEST_TMPDIR/archive
	export MEMREPRO_RELEASES=$REL
	needy=$BATS_TEST_TMPDIR/needy
	printf 'int main(void) { return 0; }\n' > "$BATS_TEST_TMPDIR/m.c"
	cc -o "$needy.0" "$BATS_TEST_TMPDIR/m.c" -Wl,--no-as-needed "$FAKEALLOC/1.0/libfakealloc.so.1"
	perl -pe 's/libfakealloc\.so\.1/liblzf.so.1\0\0\0\0\0\0/g' "$needy.0" > "$needy"
	fixture_redis "$REL" bullseye 5:6.0.16-1+deb11u2
	fixture_redis "$REL" bookworm 5:7.0.15-1~deb12u7 "$needy"
	fixture_lib "$REL" bookworm liblzf1 liblzf.so.1
	fixture_lib "$REL" bookworm liblua5.1-0 liblua5.1.so.0
	fixture_redis "$REL" trixie 5:8.0.2-3+deb13u3
	fixture_redis "$REL" sid 5:8.0.6-3
}

@test "redis@X: redis-tools of the oldest release with that major; the libraries the binary needs from its release, no others; the host's python3 drives it" {
	redis_env
	run -0 --separate-stderr mr fetch redis@7
	[[ "$output" == *"redis@7: redis 7.0.15 (fetched)"* ]] || false
	[[ "$output" == *"where   bookworm redis-tools 5:7.0.15-1~deb12u7"* ]] || false
	root=$CACHE/pkgs/redis-tools_5%3a7.0.15-1~deb12u7
	[[ "$output" == *"exe     $root/usr/bin/redis-check-rdb"* ]] || false
	[[ "$output" == *"argv    $PY -S"* ]] || false
	envs_of "$output"
	[ "${ENVS[0]}" = "MEMREPRO_REDIS_SERVER=$root/usr/bin/redis-check-rdb" ]
	[ "${ENVS[1]}" = "MEMREPRO_REDIS_LIBPATH=$CACHE/pkgs/liblzf1_1.0-1/usr/lib/x86_64-linux-gnu" ]
	[ "${#ENVS[@]}" -eq 2 ]
	[ ! -e "$CACHE/pkgs/liblua5.1-0_1.0-1" ]
	run -0 --separate-stderr mr fetch redis@7.0 redis@bookworm redis@7.0.15 redis@5:7.0.15-1~deb12u7
	[[ "$output" == *"redis@7.0: redis 7.0.15 (cached)"* ]] || false
	[[ "$output" == *"redis@bookworm: redis 7.0.15 (cached)"* ]] || false
	[[ "$output" == *"redis@7.0.15: redis 7.0.15 (cached)"* ]] || false
	[[ "$output" == *"redis@5:7.0.15-1~deb12u7: redis 7.0.15 (cached)"* ]] || false
	# 8: trixie's (the oldest with it), sid's by name
	run -0 --separate-stderr mr fetch redis@8 redis@sid
	[[ "$output" == *"redis@8: redis 8.0.2 (fetched)"*"where   trixie redis-tools"* ]] || false
	[[ "$output" == *"redis@sid: redis 8.0.6 (fetched)"* ]] || false
}

@test "redis@ a version no release has: exit 2, what each release has named; a release without its library: cannot be had" {
	redis_env
	run -2 --separate-stderr mr fetch redis@9
	[[ "$stderr" == *"redis@9: no release has redis 9 (bullseye 6.0, bookworm 7.0, trixie 8.0, sid 8.0)"* ]] || false
	run -2 --separate-stderr mr fetch redis@7.2
	[[ "$stderr" == *"redis@7.2: no release has redis 7.2 (bullseye 6.0, bookworm 7.0, trixie 8.0, sid 8.0)"* ]] || false
	run -2 --separate-stderr mr fetch redis@6.0.9
	[[ "$stderr" == *"redis@6.0.9: no release has version 6.0.9 (bullseye 6.0.16)"* ]] || false
	rm "$REL"/bookworm/liblzf1_*.deb
	run -1 --separate-stderr mr fetch redis@7
	[[ "$stderr" == *"redis@7 cannot be had: liblzf1 (bookworm): "* ]] || false
}

@test "a malformed redis spec: exit 2, the spec named, before anything is fetched" {
	for spec in redis@ 'redis@7;x' redis@v7 redis@123456789 redis@7.0@x; do
		run -2 --separate-stderr mr fetch "$spec"
		[[ "$stderr" == *"runtime '$spec': want"* ]] || false
	done
	[ ! -e "$CACHE/pkgs" ]
}

@test "redis alone: the host's redis-server from PATH, its version from --version" {
	BIN=$BATS_TEST_TMPDIR/bin
	mkdir -p "$BIN"
	printf '#!/bin/sh\necho "Redis server v=7.2.4 sha=00000000:0 malloc=jemalloc-5.3.0 bits=64"\n' > "$BIN/redis-server"
	chmod +x "$BIN/redis-server"
	run -0 --separate-stderr env PATH="$BIN:$PATH" "$MR" fetch redis
	[[ "$output" == *"redis: redis 7.2.4 (host)"* ]] || false
	[[ "$output" == *"env     MEMREPRO_REDIS_SERVER=$BIN/redis-server"* ]] || false
	rm "$BIN/redis-server"
	run -1 --separate-stderr env PATH="$BIN:$PATH" "$MR" fetch redis
	[[ "$stderr" == *"redis: no redis-server in PATH (install it, or name a version: redis@7)"* ]] || false
}

@test "the driver against a fake server: started on a unix socket, no library path when it needs none, every checkpoint measured with the server in the tree" {
	redis_env
	log=$BATS_TEST_TMPDIR/fake.log
	run -0 env FAKEREDIS_LOG="$log" timeout -k 5 120 "$MR" run --out "$BATS_TEST_TMPDIR/out" \
		--profile quick --axis allocator=glibc --axis runtime=redis@6 --axis keys=2000 redis-frag
	d=$BATS_TEST_TMPDIR/out
	cfg='$2 == "allocator=glibc,churn=10,keys=2000,rounds=4,runtime=redis@6,value_max=1024"'
	[ "$(tsv_col "$d/runs.tsv" outcome "$cfg")" = ok ]
	[ "$(tsv_col "$d/checkpoints.tsv" checkpoint "$cfg" | tr '\n' ' ')" = "start loaded churned purged " ]
	[ "$(tsv_col "$d/checkpoints.tsv" tree_nproc "$cfg" | sort -u)" = 2 ]
	grep -q "^pid=[0-9]* argv0=redis-check-rdb LD_LIBRARY_PATH=$" "$log"
	l=$(tsv_col "$d/runs.tsv" log "$cfg")
	grep -q "^server pid=[0-9]* mapped=" "$d/$l"
	grep -q "^loaded mem_allocator=fake-1.0 used_memory=[0-9]* allocator_frag_ratio=1.00$" "$d/$l"
	grep -q "^purge OK$" "$d/$l"
	grep -q "^runtime.redis@6.where	bullseye redis-tools 5:6.0.16-1+deb11u2$" "$d/env.tsv"
}

@test "the driver killed mid-run: its server is reaped with the run, a redis-server outside the run is left alone" {
	redis_env
	log=$BATS_TEST_TMPDIR/fake.log
	# outside the run: a process of the same name
	cp "$(command -v sleep)" "$BATS_TEST_TMPDIR/redis-server"
	"$BATS_TEST_TMPDIR/redis-server" 300 &
	outside=$!
	# the fake server clears its parent-death signal and kills the driver
	mkdir "$BATS_TEST_TMPDIR/tmp"
	run -1 env TMPDIR="$BATS_TEST_TMPDIR/tmp" FAKEREDIS_LOG="$log" FAKEREDIS_ORPHAN=1 timeout -k 5 120 "$MR" run \
		--out "$BATS_TEST_TMPDIR/out" --profile quick --axis allocator=glibc \
		--axis runtime=redis@6 --axis keys=2000 redis-frag
	# killed at MEMORY PURGE, after the server answered (with a TMPDIR
	# this long, the socket's whole path once did not fit: the driver
	# failed to connect and the rest passed without a kill)
	[ "$(tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" detail)" = "SIGKILL; killed 1 leftover process" ] || { cat "$BATS_TEST_TMPDIR/out/runs.tsv"; false; }
	grep -q '^server pid=' "$BATS_TEST_TMPDIR"/out/logs/redis-frag/*.log
	pid=$(sed -n 's/^pid=\([0-9]*\) .*/\1/p' "$log")
	[ -n "$pid" ]
	for _ in $(seq 50); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
	run ! kill -0 "$pid"
	kill -0 "$outside"
	kill "$outside"
	# the killed driver's socket directory went with the run's TMPDIR
	[ -z "$(ls -A "$BATS_TEST_TMPDIR/tmp")" ] || { ls -laR "$BATS_TEST_TMPDIR/tmp"; return 1; }
	# and the driver's own way: its server dies with it (PR_SET_PDEATHSIG)
	: > "$log"
	root=$CACHE/pkgs/redis-tools_5%3a6.0.16-1+deb11u2
	env TMPDIR="$BATS_TEST_TMPDIR" FAKEREDIS_LOG="$log" MEMREPRO_REDIS_SERVER="$root/usr/bin/redis-check-rdb" \
		"$PY" -S "$ROOT/cases/redis-frag.redis" --param keys=100000000 > /dev/null &
	driver=$!
	for _ in $(seq 100); do [ -s "$log" ] && break; sleep 0.1; done
	pid=$(sed -n 's/^pid=\([0-9]*\) .*/\1/p' "$log")
	[ -n "$pid" ]
	kill -9 "$driver"
	for _ in $(seq 50); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
	run ! kill -0 "$pid"
}

@test "--profile originals runs redis-frag's original on redis@6, redis@7 and redis@8 beside its model" {
	redis_env
	run timeout -k 5 300 "$MR" run --out "$BATS_TEST_TMPDIR/out" --profile originals --repeat 1 \
		--axis allocator=glibc --axis keys=2000 redis-frag
	[ "$(tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" config | sort -u | tr '\n' ' ')" = \
		"allocator=glibc,churn=10,keys=2000,rounds=4,runtime=redis@6,value_max=1024 allocator=glibc,churn=10,keys=2000,rounds=4,runtime=redis@7,value_max=1024 allocator=glibc,churn=10,keys=2000,rounds=4,runtime=redis@8,value_max=1024 allocator=glibc,churn=10,keys=2000,rounds=4,value_max=1024 " ]
}

# bats test_tags=network
@test "network: redis@7 from the host's mirror; redis-frag's original runs on it, quick, and its claims hold" {
	needs_network
	command -v apt-get > /dev/null || skip "no apt-get"
	command -v dpkg-deb > /dev/null || skip "dpkg-deb not installed"
	export XDG_CACHE_HOME=$BATS_RUN_TMPDIR/real-cache
	run --separate-stderr timeout -k 5 600 "$MR" fetch redis@7
	if [ "$status" -eq 1 ] && [[ "$stderr" == *"cannot be had: "*"no network"* ]]; then
		skip "the archive is unreachable: $stderr"
	fi
	[ "$status" -eq 0 ]
	[[ "$output" == *"redis@7: redis 7.0."*"where   bookworm redis-tools 5:7.0."* ]] || false
	[[ "$output" == *"MEMREPRO_REDIS_LIBPATH="*"/libjemalloc2_"* ]] || false
	run -0 timeout -k 5 300 "$MR" check --profile quick --axis allocator=glibc \
		--axis runtime=redis@7 --out "$BATS_TEST_TMPDIR/out" redis-frag
	d=$BATS_TEST_TMPDIR/out
	l=$(tsv_col "$d/runs.tsv" log '$2 ~ /runtime=redis@7/')
	grep -q "^churned mem_allocator=jemalloc-5\." "$d/$l"
	[ -z "$(pgrep -f "$XDG_CACHE_HOME/memrepro/pkgs/redis-tools" || true)" ]
}
