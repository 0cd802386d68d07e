#!/usr/bin/env bats
# The checkpoint channel under load: a case that takes many checkpoints
# is measured at each, and a timeout says whose time ran out.

load test_helper

out() { echo "$BATS_TEST_TMPDIR/out"; }

@test "a timeout of a case that waited on the runner's measurements names the runner's share" {
	export XDG_CACHE_HOME="$BATS_TEST_TMPDIR/cache"
	# a million checkpoints back to back: nearly all its time is the
	# runner's, measuring it at each
	run -1 mrf run many --axis allocator=glibc --axis n=1000000 --repeat 1 --timeout 1
	d=$(out)
	[ "$(tsv_col "$d/runs.tsv" outcome)" = timeout ]
	detail=$(tsv_col "$d/runs.tsv" detail)
	rows=$(($(wc -l <"$d/checkpoints.tsv") - 1))
	echo "detail: $detail; rows: $rows"
	[[ $detail =~ ^"timeout after 1 s: the case spent "([0-9]+\.[0-9])" s of it waiting for the runner to measure "([0-9]+)" checkpoints"$ ]] || false
	# the checkpoints it names are those measured, the wait within the run
	[ "${BASH_REMATCH[2]}" -eq "$rows" ]
	awk -v s="${BASH_REMATCH[1]}" 'BEGIN { exit !(s >= 0.1 && s <= 1.1) }'
}

@test "a timeout of the case's own work after a checkpoint stays the case's" {
	export XDG_CACHE_HOME="$BATS_TEST_TMPDIR/cache"
	run -1 mrf run hang --axis allocator=glibc --repeat 1 --timeout 2
	d=$(out)
	[ "$(tsv_col "$d/checkpoints.tsv" checkpoint)" = forked ]
	[ "$(tsv_col "$d/runs.tsv" detail)" = "timeout after 2 s" ]
}

@test "many checkpoints are all measured, in order, one row each" {
	export XDG_CACHE_HOME="$BATS_TEST_TMPDIR/cache"
	run -0 mrf run many --axis allocator=glibc --axis n=3000 --repeat 1 --timeout $((60 * SLOW))
	d=$(out)
	[ "$(tsv_col "$d/runs.tsv" outcome)" = ok ]
	[ "$(tsv_col "$d/checkpoints.tsv" seq | awk '$1 != NR { bad++ } END { print NR, bad + 0 }')" = "3000 0" ]
	# the runner's own figures are read at each
	[ "$(tsv_col "$d/checkpoints.tsv" pss_kb | awk '$1 > 0 { n++ } END { print n }')" = 3000 ]
}

# user_cpu_ms N: the runner's own user CPU (ms) for a run of n=N
# checkpoints, the least of three runs: bash's `time` of each, less the
# case's user_ms.  The least, because another program's load only adds.
user_cpu_ms() {
	local d t case_ms i best=
	for i in 1 2 3; do
		d=$BATS_TEST_TMPDIR/n$1.$i
		t=$( { TIMEFORMAT=%3U; time timeout -k 5 120 "$MR" run -q --cases "$FIX" --out "$d" many \
			--axis allocator=glibc --axis "n=$1" --repeat 1 --timeout 100 >/dev/null 2>&1; } 2>&1)
		[ "$(tsv_col "$d/runs.tsv" outcome)" = ok ] || { echo "n=$1: $(tsv_col "$d/runs.tsv" detail)" >&2; return 1; }
		case_ms=$(tsv_col "$d/runs.tsv" user_ms)
		best=$(awk -v t="$t" -v c="$case_ms" -v b="$best" \
			'BEGIN { v = int(t * 1000 - c); print (b == "" || v < b) ? v : b }')
	done
	echo "$best"
}

@test "the runner's work a record does not grow with the records before it" {
	export XDG_CACHE_HOME="$BATS_TEST_TMPDIR/cache"
	# user CPU, not wall time, the least of three: steady on a busy
	# machine; less a run of one record's (the start and the end).  Each
	# record's seq was checked by a scan of every row before it: 40,000
	# records took 91 times the CPU of 2,500 (4.0 s against 44 ms, at load
	# 17); with a count per name, 25 times at that load (2026-12-06).
	base=$(user_cpu_ms 1)
	small=$(user_cpu_ms 2500)
	large=$(user_cpu_ms 40000)
	echo "runner user CPU: 1 record $base ms, 2500 $small ms, 40000 $large ms"
	[ $((large - base)) -lt $(((small - base) * 40)) ]
}
