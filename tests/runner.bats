#!/usr/bin/env bats
# The runner: spawning, sampling, checkpoints, outcomes, results files.

load test_helper

@test "a case touching 64 MiB is measured within a few percent at its checkpoint" {
	run -0 mrf run touch --axis allocator=glibc --axis mb=64 --repeat 1
	rss=$(tsv_col "$BATS_TEST_TMPDIR/out/checkpoints.tsv" rss_kb '$(idx["checkpoint"]) == "touched"')
	echo "rss_kb at touched: $rss"
	# 64 MiB = 65536 KiB, plus the small base of a C program (about 1-2 MiB)
	[ "$rss" -ge 65536 ]
	[ "$rss" -le $((65536 * 104 / 100)) ]
	pd=$(tsv_col "$BATS_TEST_TMPDIR/out/checkpoints.tsv" private_dirty_kb '$(idx["checkpoint"]) == "touched"')
	[ "$pd" -ge 65536 ]
}

@test "results hold env, runs, checkpoints and series with header rows" {
	run -0 mrf run touch --axis allocator=glibc --axis mb=8 --repeat 2
	d=$BATS_TEST_TMPDIR/out
	for f in env runs checkpoints series; do [ -s "$d/$f.tsv" ]; done
	head -n 1 "$d/runs.tsv" | grep -q $'^case\tconfig\trepeat\toutcome'
	[ "$(tsv_col "$d/runs.tsv" outcome | sort -u)" = ok ]
	[ "$(tsv_col "$d/runs.tsv" outcome | wc -l)" -eq 2 ]
	grep -q $'^platform\t' "$d/env.tsv"
	grep -q $'^kernel\t' "$d/env.tsv"
	# the series has samples and they grow to the touched size
	n=$(tsv_col "$d/series.tsv" rss_kb | wc -l)
	[ "$n" -ge 1 ]
}

@test "a crashing case is recorded as crashed: SIGSEGV and the other runs complete" {
	run -1 mrf run crash touch --axis allocator=glibc --axis mb=4 --repeat 1
	d=$BATS_TEST_TMPDIR/out
	[ "$(tsv_col "$d/runs.tsv" outcome '$1 == "crash"')" = crashed ]
	[[ "$(tsv_col "$d/runs.tsv" detail '$1 == "crash"')" == *SIGSEGV* ]] || false
	[ "$(tsv_col "$d/runs.tsv" outcome '$1 == "touch"')" = ok ]
	# the checkpoint taken before the crash is kept
	[ "$(tsv_col "$d/checkpoints.tsv" checkpoint '$1 == "crash"')" = before ]
}

@test "a case that hangs is killed at the timeout with its children and grandchildren" {
	run -1 mrf run hang touch --axis allocator=glibc --axis mb=4 --repeat 1 --timeout 0.3
	d=$BATS_TEST_TMPDIR/out
	[ "$(tsv_col "$d/runs.tsv" outcome '$1 == "hang"')" = timeout ]
	[ "$(tsv_col "$d/runs.tsv" outcome '$1 == "touch"')" = ok ]
	# hang writes the pids of its descendants to its log; none may be left
	log=$(tsv_col "$d/runs.tsv" log '$1 == "hang"')
	assert_log_pids_gone "$d/$log"
}

@test "malformed checkpoint records give bad-output and the other runs complete" {
	run -1 mrf run junk touch --axis allocator=glibc --axis mb=4 --repeat 1
	d=$BATS_TEST_TMPDIR/out
	[ "$(tsv_col "$d/runs.tsv" outcome '$1 == "junk"')" = bad-output ]
	[ "$(tsv_col "$d/runs.tsv" outcome '$1 == "touch"')" = ok ]
}

@test "a case exiting 1 is failed, one exiting 4 is skipped with its reason" {
	run -1 mrf run fail skip --axis allocator=glibc --repeat 1
	d=$BATS_TEST_TMPDIR/out
	[ "$(tsv_col "$d/runs.tsv" outcome '$1 == "fail"')" = failed ]
	[ "$(tsv_col "$d/runs.tsv" outcome '$1 == "skip"')" = skipped ]
	[[ "$(tsv_col "$d/runs.tsv" detail '$1 == "skip"')" == *"needs a feature"* ]] || false
}

@test "a parameter combination the case refuses (exit 2) is usage-error, not failed, with its message" {
	run -1 mrf run usage --axis allocator=glibc --axis lo=1,3 --axis hi=2 --repeat 1
	d=$BATS_TEST_TMPDIR/out
	[ "$(tsv_col "$d/runs.tsv" outcome '$2 ~ /lo=3/')" = usage-error ]
	[ "$(tsv_col "$d/runs.tsv" detail '$2 ~ /lo=3/')" = "usage: lo=3 is more than hi=2" ]
	[ "$(tsv_col "$d/runs.tsv" outcome '$2 ~ /lo=1/')" = ok ]
	# read back: a run that did not run is a failure of check, word and all
	run -1 mr check --cases "$FIX" --expected "$NO_EXPECTED" --from "$d" -v
	[[ "$output" == *usage-error* ]] || false
	[[ "$output" == *"lo=3 is more than hi=2"* ]] || false
}

@test "a case exiting 127 (its program could not be executed) is exec-failed, not failed" {
	mkdir -p "$BATS_TEST_TMPDIR/cases"
	# A shell script case whose program is missing: the shell exits 127.
	cat > "$BATS_TEST_TMPDIR/cases/noexec" <<'SH'
#!/bin/sh
if [ "$1" = --describe ]; then
	printf 'memrepro-case\t1\nname\tnoexec\ntitle\tFixture: its program is missing\n'
	printf 'source\ttests/runner.bats\ntimeout\t0\n'
	exit 0
fi
exec "$0.missing-program"
SH
	chmod +x "$BATS_TEST_TMPDIR/cases/noexec"
	run -1 timeout -k 5 120 "$MR" run --cases "$BATS_TEST_TMPDIR/cases" --out "$BATS_TEST_TMPDIR/out" \
		--axis allocator=glibc --repeat 1 noexec
	d=$BATS_TEST_TMPDIR/out
	[ "$(tsv_col "$d/runs.tsv" outcome)" = exec-failed ]
	[[ "$(tsv_col "$d/runs.tsv" detail)" == "exit 127: "*missing-program* ]] || false
}

@test "an unknown case is exit 2 naming it" {
	run -2 mrf run no-such-case
	[[ "$output" == *no-such-case* ]] || false
}

@test "an unknown axis is exit 2 naming it" {
	run -2 mrf run ok --axis colour=red
	[[ "$output" == *colour* ]] || false
}

@test "an axis value the case does not allow is exit 2 naming it and the allowed ones" {
	run -2 mrf run ok --axis mode=zzz
	[[ "$output" == *zzz* ]] || false
	[[ "$output" == *"a|b|c"* ]] || false
}

@test "an unknown allocator is exit 2; a missing one makes its configs skipped, never passed" {
	run -2 mrf run ok --axis allocator=hoard
	[[ "$output" == *hoard* ]] || false
	run -0 mrf run ok --axis allocator=glibc,jemalloc --axis mode=a --repeat 1 \
		--alloc jemalloc=libmemrepro-no-such-allocator.so.9
	d=$BATS_TEST_TMPDIR/out
	[ "$(tsv_col "$d/runs.tsv" outcome '$2 ~ /allocator=jemalloc/')" = skipped ]
	[[ "$(tsv_col "$d/runs.tsv" detail '$2 ~ /allocator=jemalloc/')" == *libmemrepro-no-such-allocator.so.9* ]] || false
	[ "$(tsv_col "$d/runs.tsv" outcome '$2 ~ /allocator=glibc/')" = ok ]
}

@test "an installed allocator is preloaded and its version recorded" {
	run -0 mrf run ok --axis allocator=jemalloc --axis mode=a --repeat 1
	d=$BATS_TEST_TMPDIR/out
	grep -q $'^allocator.jemalloc.version\t[0-9]' "$d/env.tsv"
	[ "$(tsv_col "$d/runs.tsv" outcome)" = ok ]
}

@test "list names every case with its axes" {
	run -0 mr list --cases "$FIX"
	[[ "$output" == *ok* ]] || false
	[[ "$output" == *mode* ]] || false
}

@test "a case with junk --describe output is an input error naming it, not a crash" {
	mkdir -p "$BATS_TEST_TMPDIR/cases"
	printf '#!/bin/sh\necho "this is not a description"\n' > "$BATS_TEST_TMPDIR/cases/junkdesc"
	chmod +x "$BATS_TEST_TMPDIR/cases/junkdesc"
	run -2 mr run --cases "$BATS_TEST_TMPDIR/cases" --out "$BATS_TEST_TMPDIR/out" junkdesc
	[[ "$output" == *junkdesc* ]] || false
}

@test "allocator options the cases inherit (MALLOC_CONF, ...) are recorded in env.tsv" {
	MALLOC_CONF=dirty_decay_ms:-1 run -0 mrf run ok --axis allocator=jemalloc --axis mode=a --repeat 1
	grep -q $'^env.MALLOC_CONF\tdirty_decay_ms:-1$' "$BATS_TEST_TMPDIR/out/env.tsv"
}
