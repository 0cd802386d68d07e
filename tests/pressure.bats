#!/usr/bin/env bats
# The pressure axis: a memory cgroup limited to N MiB per run.  It checks
# the claim of fiber-stacks that matters most to its report: stacks freed
# with MADV_FREE stay in RSS until memory runs short, and are reclaimed
# then while the program goes on working.

load test_helper

setup_file() {
	export PR_OUT="$BATS_FILE_TMPDIR/pressure"
	# 10,000 fibers as the report; 2 iterations are enough to reuse stacks.
	timeout -k 5 180 "$MR" run fiber-stacks --out "$PR_OUT" --repeat 1 --axis runtime=c \
		--axis allocator=glibc --axis madvise=free,dontneed --axis work_mb=64 \
		--axis iterations=2 --axis pressure=none,160 >/dev/null
}

no_cgroup() {
	grep -q $'^memory_cgroup\tnone$' "$PR_OUT/env.tsv"
}

at_worked() {
	tsv_col "$PR_OUT/checkpoints.tsv" "$2" \
		'$(idx["checkpoint"]) == "worked" && $(idx["config"]) ~ /'"$1"'/'
}

@test "the pressure claim of fiber-stacks holds: LazyFree and RSS fall under a 160 MiB limit" {
	no_cgroup && skip "no memory cgroup here: pressure configs are skipped"
	# (other claims of the case are made for its full matrix: 10
	# iterations, no work after them; only this one is looked at here)
	run timeout 60 "$MR" check --from "$PR_OUT"
	[[ "$output" == *"free-reclaimed-under-pressure  held"* ]] || false
	# and every run worked to its end, the pressed ones too
	[ "$(tsv_col "$PR_OUT/runs.tsv" outcome | sort -u)" = ok ]
	free=$(at_worked 'madvise=free,pressure=none' lazyfree_kb)
	pressed=$(at_worked 'madvise=free,pressure=160' lazyfree_kb)
	echo "lazyfree at worked: $free without a limit, $pressed under 160 MiB"
	[ "$free" -ge $((70 * 1024)) ]
	[ "$pressed" -lt $((free / 2)) ]
	# the cgroup never went over its limit
	for peak in $(tsv_col "$PR_OUT/runs.tsv" cgroup_peak_kb '$2 ~ /pressure=160/'); do
		[ "$peak" -le $((160 * 1024)) ]
	done
}

@test "MADV_DONTNEED has nothing lazy to give back: the same RSS with and without the limit" {
	no_cgroup && skip "no memory cgroup here"
	a=$(at_worked 'madvise=dontneed,pressure=none' rss_kb)
	b=$(at_worked 'madvise=dontneed,pressure=160' rss_kb)
	echo "rss at worked: $a without, $b with the limit"
	# both figures there (an empty one would compare as 0)
	[[ "$a" =~ ^[0-9]+$ && "$b" =~ ^[0-9]+$ ]] || false
	[ "$a" -gt 0 ]
	[ $((a - b)) -lt 4096 ]
	[ $((b - a)) -lt 4096 ]
}

@test "not freeing at all cannot make room: OOM-killed under the limit, verdict memory-cap" {
	no_cgroup && skip "no memory cgroup here"
	run -1 timeout -k 5 120 "$MR" run fiber-stacks --out "$BATS_TEST_TMPDIR/none" --repeat 1 --axis runtime=c \
		--axis allocator=glibc --axis madvise=none --axis work_mb=64 --axis iterations=2 \
		--axis pressure=160
	d=$BATS_TEST_TMPDIR/none
	[ "$(tsv_col "$d/runs.tsv" outcome)" = memory-cap ]
	[ "$(tsv_col "$d/runs.tsv" detail)" = "exceeded memory cap (160 MiB, the pressure axis's limit)" ]
	assert_no_run_cgroups "$d"
}

@test "without a memory cgroup the pressure configs are skipped with the reason, the others run" {
	d=$BATS_TEST_TMPDIR/nocg
	MEMREPRO_CGROUP=0 run -0 timeout -k 5 120 "$MR" run --cases "$FIX" --out "$d" touch \
		--axis allocator=glibc --axis mb=8 --axis pressure=none,64 --repeat 1
	[ "$(tsv_col "$d/runs.tsv" outcome '$2 ~ /pressure=none/')" = ok ]
	[ "$(tsv_col "$d/runs.tsv" outcome '$2 ~ /pressure=64/')" = skipped ]
	[ "$(tsv_col "$d/runs.tsv" detail '$2 ~ /pressure=64/')" = \
		"pressure=64 needs a memory cgroup: disabled by MEMREPRO_CGROUP=0" ]
}

@test "the corpus check without the axis skips the pressure claim, naming the value, and does not fail on it" {
	d=$BATS_TEST_TMPDIR/plain
	run -0 timeout -k 5 120 "$MR" check fiber-stacks --out "$d" --repeat 1 --axis runtime=c --axis allocator=glibc \
		--axis madvise=free --axis fibers=500 --axis iterations=1
	[[ "$output" == *"free-reclaimed-under-pressure"*"skipped"*"pressure="* ]] || false
}
