#!/usr/bin/env bats
# go-scavenger and go-scavenger-delay (golang/go#42330, #16930): what their
# claims cannot say in the default matrix.  The memory pressure under
# which MADV_FREE'd heap is reclaimed (a memory cgroup per run), the
# minute at which sysmon's scavenger returns a heap freed late (the
# first reporter's "after about 10 minutes" in #8832), and bad parameters.

load test_helper

@test "go-scavenger: MADV_FREE'd heap is reclaimed in an 80 MiB memory cgroup, and the program goes on" {
	out=$BATS_TEST_TMPDIR/p
	run timeout -k 5 120 "$MR" check go-scavenger --profile quick --out "$out" --repeat 1 \
		--axis allocator=glibc --axis work_mb=64 --axis pressure=none,80
	if grep -q $'^memory_cgroup\tnone$' "$out/env.tsv"; then
		skip "no memory cgroup here: pressure configs are skipped"
	fi
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"free-reclaimed-under-pressure  held"* ]] || false
	[ "$(tsv_col "$out/runs.tsv" outcome | sort -u)" = ok ]
	free=$(tsv_col "$out/checkpoints.tsv" lazyfree_kb \
		'$(idx["checkpoint"]) == "worked" && $(idx["config"]) ~ /madvise=free,.*pressure=none/')
	pressed=$(tsv_col "$out/checkpoints.tsv" lazyfree_kb \
		'$(idx["checkpoint"]) == "worked" && $(idx["config"]) ~ /madvise=free,.*pressure=80/')
	echo "lazyfree at worked: $free without a limit, $pressed under 80 MiB"
	# the 48 MiB burst is all LazyFree without a limit
	[ "$free" -ge $((46 * 1024)) ]
	[ "$pressed" -lt $((free / 2)) ]
}

# rss_kb at checkpoint $2 of the delay run whose config matches $1
delay_rss() {
	tsv_col "$BATS_TEST_TMPDIR/d/checkpoints.tsv" rss_kb \
		'$(idx["checkpoint"]) == "'"$2"'" && $(idx["config"]) ~ /'"$1"'/'
}

@test "go-scavenger-delay: a heap freed 160 s after the start waits for sysmon's scavenge at 10 minutes" {
	run -0 timeout -k 5 120 "$MR" run go-scavenger-delay --out "$BATS_TEST_TMPDIR/d" --repeat 1 \
		--axis allocator=glibc --axis scavenger=sysmon,paced --axis freed_at_s=0,160 \
		--axis heap_mb=24 --axis kept_mb=4 --axis second_us=50
	[ "$(tsv_col "$BATS_TEST_TMPDIR/d/runs.tsv" outcome | sort -u)" = ok ]
	peak=$(delay_rss 'freed_at_s=0,.*scavenger=sysmon' min-0)
	echo "min-0: $peak KiB"
	[ "$peak" -ge $((24 * 1024)) ]
	# freed at once: kept to minute 7, returned at 7.5 minutes
	[ "$(delay_rss 'freed_at_s=0,.*scavenger=sysmon' min-7)" -ge $((peak * 95 / 100)) ]
	[ "$(delay_rss 'freed_at_s=0,.*scavenger=sysmon' min-8)" -lt $((peak / 2)) ]
	# freed at 160 s: 300 s old only at the scavenge of 450 s + 150
	[ "$(delay_rss 'freed_at_s=160,.*scavenger=sysmon' min-9)" -ge $((peak * 95 / 100)) ]
	[ "$(delay_rss 'freed_at_s=160,.*scavenger=sysmon' min-10)" -lt $((peak / 2)) ]
	# the paced scavenger follows the GC within the minute either way
	[ "$(delay_rss 'freed_at_s=0,.*scavenger=paced' min-1)" -lt $((peak / 2)) ]
	[ "$(delay_rss 'freed_at_s=160,.*scavenger=paced' min-2)" -ge $((peak * 95 / 100)) ]
	[ "$(delay_rss 'freed_at_s=160,.*scavenger=paced' min-4)" -lt $((peak / 2)) ]
}

@test "bad parameters of the two cases: exit 2, naming the parameter" {
	run -2 "$CASES/go-scavenger-delay" --param freed_at_s=3
	[ "$output" = "go-scavenger-delay: freed_at_s=3 must be a multiple of 5 below minutes=10 x 60" ]
	run -2 "$CASES/go-scavenger-delay" --param minutes=2 --param freed_at_s=120
	[ "$output" = "go-scavenger-delay: freed_at_s=120 must be a multiple of 5 below minutes=2 x 60" ]
	run -2 "$CASES/go-scavenger-delay" --param heap_mb=8 --param kept_mb=9
	[ "$output" = "go-scavenger-delay: kept_mb=9 is more than heap_mb=8" ]
	run -2 "$CASES/go-scavenger" --param object_kb=65537
	[[ "$output" == *"object_kb"* ]] || false
	run -2 "$CASES/go-scavenger" --param alloc_mb=1 --param object_kb=2048
	[ "$output" = "go-scavenger: alloc_mb=1 holds no object of object_kb=2048" ]
}
