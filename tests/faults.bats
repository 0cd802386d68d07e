#!/usr/bin/env bats
# Cases that misbehave: each gets its verdict, nothing it started outlives
# its run, and every other run completes.  (Crash by SIGSEGV, hang, exit 1
# and malformed records are in runner.bats.)

load test_helper

out() { echo "$BATS_TEST_TMPDIR/out"; }

@test "a case that aborts is crashed: SIGABRT and the other runs complete" {
	run -1 mrf run crash touch --axis allocator=glibc --axis how=abort --axis mb=4 --repeat 1
	d=$(out)
	[ "$(tsv_col "$d/runs.tsv" outcome '$1 == "crash"')" = crashed ]
	[ "$(tsv_col "$d/runs.tsv" detail '$1 == "crash"')" = SIGABRT ]
	[ "$(tsv_col "$d/runs.tsv" outcome '$1 == "touch"')" = ok ]
	[ "$(tsv_col "$d/checkpoints.tsv" checkpoint '$1 == "crash"')" = before ]
	assert_no_run_cgroups "$d"
}

@test "descendants that outlive the case are killed, said in the detail, and the run is ok" {
	run -0 mrf run orphan touch --axis allocator=glibc --axis mb=4 --repeat 1
	d=$(out)
	[ "$(tsv_col "$d/runs.tsv" outcome '$1 == "orphan"')" = ok ]
	[ "$(tsv_col "$d/runs.tsv" detail '$1 == "orphan"')" = "killed 2 leftover processes" ]
	[ "$(tsv_col "$d/runs.tsv" outcome '$1 == "touch"')" = ok ]
	# the child and the daemonised grandchild (own session) are gone
	assert_log_pids_gone "$d/$(tsv_col "$d/runs.tsv" log '$1 == "orphan"')"
	assert_no_run_cgroups "$d"
}

@test "a hung tree is gone after its timeout, cgroup included" {
	run -1 mrf run hang --axis allocator=glibc --repeat 1 --timeout 0.3
	d=$(out)
	[ "$(tsv_col "$d/runs.tsv" detail)" = "timeout after 0.3 s" ]
	assert_log_pids_gone "$d/$(tsv_col "$d/runs.tsv" log)"
	assert_no_run_cgroups "$d"
}

@test "a case flooding its output never blocks, and its log stops at 16 MiB with a note" {
	run -0 mrf run spew --axis allocator=glibc --axis mb=64 --repeat 1 --timeout $((20 * SLOW))
	d=$(out)
	[ "$(tsv_col "$d/runs.tsv" outcome)" = ok ]
	# it got to its checkpoint after writing everything
	[ "$(tsv_col "$d/checkpoints.tsv" checkpoint)" = written ]
	log=$d/$(tsv_col "$d/runs.tsv" log)
	size=$(stat -c %s "$log")
	echo "log size $size"
	[ "$size" -le $((16 * 1024 * 1024 + 200)) ]
	tail -n 1 "$log" | grep -q 'the log stops at 16 MiB: 50331648 more bytes of output were dropped'
}

@test "a case that never reads its acks neither stalls the runner nor loses a record" {
	run -0 mrf run noack --axis allocator=glibc --axis records=6000 --repeat 1 --timeout $((30 * SLOW))
	d=$(out)
	[ "$(tsv_col "$d/runs.tsv" outcome)" = ok ]
	[ "$(tsv_col "$d/checkpoints.tsv" checkpoint | wc -l)" -eq 6000 ]
	[ "$(tsv_col "$d/checkpoints.tsv" seq | tail -n 1)" -eq 6000 ]
}

@test "--mem-cap: a case over it is memory-cap, in its own cgroup, and the others complete" {
	run -1 mrf run hog touch --axis allocator=glibc --axis mb=64 --axis procs=1,4 --repeat 1 --mem-cap 32
	d=$(out)
	grep -q $'^mem_cap_mib\t32$' "$d/env.tsv"
	if grep -q $'^memory_cgroup\tnone$' "$d/env.tsv"; then
		skip "no memory cgroup here: $(grep memory_cgroup.why "$d/env.tsv")"
	fi
	# (before the next runner: it would sweep what this one left)
	assert_no_run_cgroups "$d"
	[ "$(tsv_col "$d/runs.tsv" outcome '$1 == "hog"' | sort -u)" = memory-cap ]
	[ "$(tsv_col "$d/runs.tsv" detail '$1 == "hog"' | sort -u)" = "exceeded memory cap (32 MiB)" ]
	# the cgroup held it at the cap, children included
	for peak in $(tsv_col "$d/runs.tsv" cgroup_peak_kb '$1 == "hog"'); do
		[ "$peak" -le 32768 ]
	done
	# touch writes 64 MiB too: over the cap, it fails the same way; a
	# smaller one passes
	run -0 timeout -k 5 60 "$MR" run --cases "$FIX" --out "$BATS_TEST_TMPDIR/small" touch \
		--axis allocator=glibc --axis mb=8 --repeat 1 --mem-cap 32
	[ "$(tsv_col "$BATS_TEST_TMPDIR/small/runs.tsv" outcome)" = ok ]
	assert_no_run_cgroups "$BATS_TEST_TMPDIR/small"
}

@test "--mem-cap without a memory cgroup: the sampler kills the tree past the cap" {
	MEMREPRO_CGROUP=0 run -1 mrf run hog --axis allocator=glibc --axis mb=256 --axis procs=1,4 --repeat 1 --mem-cap 32
	d=$(out)
	grep -q $'^memory_cgroup\tnone$' "$d/env.tsv"
	[ "$(tsv_col "$d/runs.tsv" outcome | sort -u)" = memory-cap ]
	[[ "$(tsv_col "$d/runs.tsv" detail | head -n 1)" == "exceeded memory cap (32 MiB; sampled tree RSS"* ]] || false
	# killed well before it wrote 256 MiB
	for peak in $(tsv_col "$d/runs.tsv" peak_tree_rss_kb); do
		[ "$peak" -lt $((256 * 1024)) ]
	done
	[ "$(tsv_col "$d/runs.tsv" cgroup_peak_kb | sort -u)" = - ]
}

@test "cgroup_kb counts the whole tree, as free would: 4 processes x 16 MiB" {
	run -0 mrf run hog --axis allocator=glibc --axis mb=64 --axis procs=4 --repeat 1
	d=$(out)
	if grep -q $'^memory_cgroup\tnone$' "$d/env.tsv"; then
		skip "no memory cgroup here"
	fi
	cg=$(tsv_col "$d/checkpoints.tsv" cgroup_kb)
	rss=$(tsv_col "$d/checkpoints.tsv" rss_kb)
	echo "cgroup_kb=$cg rss_kb(case alone)=$rss"
	[ "$cg" -ge $((64 * 1024)) ]
	[ "$rss" -lt $((20 * 1024)) ]
	[ "$(tsv_col "$d/runs.tsv" cgroup_peak_kb)" -ge "$cg" ]
}

@test "a disk that fills during a run: the log is cut short with a note, the run's row says so" {
	[ "$(id -u)" = 0 ] || skip "needs root to mount a small tmpfs"
	SMALL=$BATS_TEST_TMPDIR/small
	mkdir "$SMALL"
	mount -t tmpfs -o size=40m tmpfs "$SMALL" || skip "cannot mount a tmpfs here"
	d=$SMALL/out
	# (no `timeout` around it: $! must be the runner)
	"$MR" run --cases "$FIX" --out "$d" nap spew --axis allocator=glibc --axis mode=a --axis ms=1000 \
		--axis mb=32 --repeat 1 >"$BATS_TEST_TMPDIR/runner.out" 2>&1 &
	runner=$!
	wait_for 20 runs_begun "$d" 1
	# while nap sleeps: leave about 8 MiB, less than spew's 16 MiB of log
	dd if=/dev/zero of="$SMALL/filler" bs=1M count=32 2>/dev/null
	rc=0
	wait "$runner" || rc=$?
	[ "$rc" = 1 ]
	[[ "$(cat "$BATS_TEST_TMPDIR/runner.out")" == *"stopping, the runs that ended are in"* ]] || false
	[ "$(tsv_col "$d/runs.tsv" outcome '$1 == "spew"')" = ok ]
	[ "$(tsv_col "$d/runs.tsv" detail '$1 == "spew"')" = "the log is cut short: No space left on device" ]
	log=$d/$(tsv_col "$d/runs.tsv" log '$1 == "spew"')
	[ "$(tail -n 1 "$log")" = "[memrepro: the log is cut short here: write: No space left on device]" ]
	run -0 timeout 60 "$MR" check --from "$d" --expected "$NO_EXPECTED"
}

teardown() {
	if [ -n "${SMALL:-}" ] && mountpoint -q "$SMALL"; then
		umount "$SMALL"
	fi
}
