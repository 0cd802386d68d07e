#!/usr/bin/env bats
# python-worker-arenas (goauthentik/authentik#25683): the arenas glibc gives
# the pool threads, counted by glibc itself (the case prints malloc_info's
# count), and the claims judged on a model whose requests leave nothing
# behind: without survivors the freed requests are trimmed from each
# arena's top, and the report's retention must not hold.

load test_helper

# glibc's arena count the case prints; GLIBC_TUNABLES $1
arenas() {
	GLIBC_TUNABLES=$1 timeout -k 5 60 "$CASES/python-worker-arenas" --param request_mb=1 \
		--param idle_ms=0 | sed -n 's/.*glibc arenas (malloc_info) \([0-9-]*\)$/\1/p'
}

# memrepro check, quick, one repeat, of the model alone (RT=c,python: the
# original too); extra args: axes
check_model() {
	timeout -k 5 120 "$MR" check --profile quick --repeat 1 --axis allocator=glibc \
		--axis runtime="${RT:-c}" --expected "$ROOT/expected" --out "$BATS_TEST_TMPDIR/out" "$@" \
		python-worker-arenas
}

@test "python-worker-arenas: 8 pool threads take 8 arenas beside the main one; MALLOC_ARENA_MAX=2 leaves 2" {
	# 9 where glibc allows 8 x CPUs >= 9 arenas; 8 on one CPU (the 8th
	# thread shares)
	n=$(arenas '')
	echo "arenas: $n"
	[[ $n -ge 8 && $n -le 9 ]] || false
	[ "$(arenas glibc.malloc.arena_max=2)" = 2 ]
}

@test "python-worker-arenas: each thread's arena keeps its request; the cap shares them (claims hold)" {
	run -0 check_model
	echo "$output"
	[[ "$output" =~ claim\ +idle-keeps-per-thread\ +held ]] || false
	[[ "$output" =~ claim\ +arena-cap-cuts\ +held ]] || false
	[[ "$output" == *"4 claims held, 0 reproduces, 0 regressed"* ]] || false
}

@test "python-worker-arenas: with no survivors the arenas are trimmed, and the retention claim fails" {
	run -1 check_model --axis survivor_b=0
	echo "$output"
	[[ "$output" =~ claim\ +idle-keeps-per-thread\ +regressed ]] || false
}

@test "python-worker-arenas: the Python original beside the model (the host's python3), quick, glibc: every claim holds" {
	command -v python3 >/dev/null || skip "no python3 in PATH"
	RT=c,python run -0 check_model
	echo "$output"
	[[ "$output" == *"python-worker-arenas: 6 claims held, 0 reproduces, 0 regressed"* ]] || false
	# the original printed its figures, as by hand
	d=$BATS_TEST_TMPDIR/out
	log=$(tsv_col "$d/runs.tsv" log '$2 ~ /runtime=python/ && $2 !~ /glibc.malloc/')
	grep -q "^idle: 16 requests served by 8 threads, 1024 survivors of 1024 bytes kept, VmRSS " "$d/$log"
}
