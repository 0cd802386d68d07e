#!/usr/bin/env bats
# The machine's settings read before and after every run, and its other
# CPU load: a run during which the machine changed, or that saw other than
# env.tsv says, is not judged; a run's times on a busy machine are not
# figures (proc/machine.h, check/values.c).
load test_helper

setup() {
	EXP=$BATS_TEST_TMPDIR/expected
	mkdir -p "$EXP"
	# A claim that fails wherever it is judged: nap's RSS is never 0.
	printf '%s\n' 'never holds rss_kb@rested[mode=a] < 0 "a claim that cannot hold"' \
		> "$EXP/nap.claims"
	ROOT_FAKE=$BATS_TEST_TMPDIR/root
	THPF=$ROOT_FAKE/sys/kernel/mm/transparent_hugepage/enabled
	mkdir -p "$(dirname "$THPF")"
	echo 'always [madvise] never' > "$THPF"
}

teardown() {
	[ -z "${BUSY:-}" ] || kill $BUSY 2>/dev/null || true
}

# when_started FILE TEXT: in the background, once the first run of nap
# has started (its log has its pid), TEXT and a newline into FILE.
when_started() {
	(
		for _ in $(seq 200); do
			grep -qs '^pid' "$BATS_TEST_TMPDIR"/r/logs/nap/*.1.log && break
			sleep 0.05
		done
		printf '%s\n' "$2" > "$1"
	) &
}

# check nap (one config) with the machine's settings read from ROOT_FAKE,
# $1 repeats of $2 ms each; extra arguments follow.
check_nap() {
	local rep=$1 ms=$2
	shift 2
	MEMREPRO_MACHINE_ROOT=$ROOT_FAKE timeout -k 5 120 "$MR" check --cases "$FIX" \
		--expected "$EXP" --out "$BATS_TEST_TMPDIR/r" --axis allocator=glibc \
		--axis mode=a --axis ms="$ms" --repeat "$rep" "$@" nap
}

@test "an unchanged machine: every run judged, env.tsv has the settings, runs.tsv the other CPU" {
	run -1 check_nap 1 50
	[[ "$output" == *"never"*"regressed"* ]] || false
	[[ "$output" != *"machine changed"* ]] || false
	grep -qx 'thp	madvise' "$BATS_TEST_TMPDIR/r/env.tsv"
	grep -q '^khugepaged_defrag	' "$BATS_TEST_TMPDIR/r/env.tsv"
	grep -q '^cgroup_memory_max	' "$BATS_TEST_TMPDIR/r/env.tsv"
	grep -qx "machine_root	$ROOT_FAKE" "$BATS_TEST_TMPDIR/r/env.tsv"
	[ "$(tsv_col "$BATS_TEST_TMPDIR/r/runs.tsv" machine)" = - ]
	[[ "$(tsv_col "$BATS_TEST_TMPDIR/r/runs.tsv" other_cpu_ms)" =~ ^[0-9]+$ ]] || false
}

@test "THP switched during a run: that run and those after it are not judged, said once at the top" {
	when_started "$THPF" '[always] madvise never'
	run -0 check_nap 2 1500
	wait
	local m
	m=$(tsv_col "$BATS_TEST_TMPDIR/r/runs.tsv" machine)
	[ "$m" = "thp madvise -> always during the run
thp madvise -> always before the run" ] || { echo "$m"; false; }
	[ "$(printf '%s\n' "$output" | grep -c '^the machine changed')" -eq 2 ]
	printf '%s\n' "$output" | grep -m1 '^the machine changed' | grep -q 'thp madvise -> always during the run (1 run not judged'
	# The claim that fails wherever it is judged is skipped, with the reason.
	[[ "$output" == *"never  skipped"*"not judged: the machine changed: thp madvise -> always"* ]] || false
	# The progress line says it too.
	[[ "$output" == *"[not judged: thp madvise -> always during the run]"* ]] || false
	# Every format carries it.
	run -0 mr check --from "$BATS_TEST_TMPDIR/r" --expected "$EXP" --format tap
	printf '%s\n' "$output" | grep -q '^# the machine changed: thp madvise -> always during the run'
	run -0 mr check --from "$BATS_TEST_TMPDIR/r" --expected "$EXP" --format json
	printf '%s\n' "$output" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert len(d["machine_changed"]) == 2, d["machine_changed"]'
	run -0 mr check --from "$BATS_TEST_TMPDIR/r" --expected "$EXP" --format junit
	[[ "$output" == *'<property name="machine_changed" value="the machine changed: thp'* ]] || false
}

# settings_fake: every memory-relevant setting the runner reads, with a
# value of its own, in the fake root.
settings_fake() {
	local f
	mkdir -p "$ROOT_FAKE/proc/sys/vm" "$ROOT_FAKE/proc/sys/kernel" \
		"$ROOT_FAKE/sys/module/zswap/parameters" "$ROOT_FAKE/sys/kernel/mm/ksm" \
		"$ROOT_FAKE/sys/devices/system/cpu" "$ROOT_FAKE/sys/kernel/mm/transparent_hugepage/khugepaged"
	echo 'always madvise [never]' > "$ROOT_FAKE/sys/kernel/mm/transparent_hugepage/defrag"
	for f in defrag:0 max_ptes_none:17 pages_to_scan:333 scan_sleep_millisecs:4321; do
		echo "${f#*:}" > "$ROOT_FAKE/sys/kernel/mm/transparent_hugepage/khugepaged/${f%%:*}"
	done
	echo 2 > "$ROOT_FAKE/proc/sys/vm/overcommit_memory"
	echo 77 > "$ROOT_FAKE/proc/sys/vm/overcommit_ratio"
	echo 12345 > "$ROOT_FAKE/proc/sys/vm/max_map_count"
	echo 7 > "$ROOT_FAKE/proc/sys/vm/swappiness"
	printf 'MemTotal:       1000 kB\nSwapTotal:       4096 kB\nSwapFree:        4096 kB\n' > "$ROOT_FAKE/proc/meminfo"
	echo Y > "$ROOT_FAKE/sys/module/zswap/parameters/enabled"
	echo 1 > "$ROOT_FAKE/sys/kernel/mm/ksm/run"
	echo 2 > "$ROOT_FAKE/proc/sys/kernel/numa_balancing"
	echo 0-5 > "$ROOT_FAKE/sys/devices/system/cpu/online"
}

@test "every setting is read from its file into env.tsv, and any one changed during a run is named" {
	settings_fake
	when_started "$ROOT_FAKE/proc/sys/vm/overcommit_memory" 1
	run -0 check_nap 2 1500
	wait
	local k
	for k in 'thp	madvise' 'thp_defrag	never' 'khugepaged_defrag	0' \
		'khugepaged_max_ptes_none	17' 'khugepaged_pages_to_scan	333' \
		'khugepaged_scan_sleep_ms	4321' 'overcommit	2' 'overcommit_ratio	77' \
		'max_map_count	12345' 'swappiness	7' 'swap_kb	4096' 'zswap	Y' 'ksm	1' \
		'numa_balancing	2' 'cpus_online	0-5'; do
		grep -qxF "$k" "$BATS_TEST_TMPDIR/r/env.tsv" || { echo "env.tsv lacks: $k"; false; }
	done
	[ "$(tsv_col "$BATS_TEST_TMPDIR/r/runs.tsv" machine)" = "overcommit 2 -> 1 during the run
overcommit 2 -> 1 before the run" ]
	printf '%s\n' "$output" | grep -m1 '^the machine changed' |
		grep -q 'overcommit 2 -> 1 during the run (1 run not judged'
}

@test "a setting other than env.tsv says before the run: not judged" {
	run -1 check_nap 1 50
	# the same results read back with one run's machine column set by hand
	awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "machine") c = i; print; next }
		{ $c = "khugepaged_defrag 1 -> 0 before the run"; print }' \
		"$BATS_TEST_TMPDIR/r/runs.tsv" > "$BATS_TEST_TMPDIR/runs.tsv"
	mv "$BATS_TEST_TMPDIR/runs.tsv" "$BATS_TEST_TMPDIR/r/runs.tsv"
	run -0 mr check --from "$BATS_TEST_TMPDIR/r" --expected "$EXP"
	[[ "$output" == "the machine changed: khugepaged_defrag 1 -> 0 before the run"* ]] || false
}

# vmstat_grows: once the first run has started, the fake root's direct
# reclaims grow (7 -> 11), as a guest's kernel's do when its memory runs
# short.
vmstat_grows() {
	mkdir -p "$ROOT_FAKE/proc"
	printf 'nr_free_pages 1000\nallocstall_normal 5\nallocstall_movable 2\npgfault 9\n' > "$ROOT_FAKE/proc/vmstat"
	when_started "$ROOT_FAKE/proc/vmstat" $'nr_free_pages 10\nallocstall_normal 9\nallocstall_movable 2\npgfault 99'
}

@test "in a kernel guest, direct reclaim during a run (its memory ran short): not judged; on the host not looked at" {
	vmstat_grows
	MEMREPRO_GUEST=1 run -0 check_nap 1 1500
	wait
	[ "$(tsv_col "$BATS_TEST_TMPDIR/r/runs.tsv" machine)" = \
		"allocstall 7 -> 11 (the guest's memory ran short) during the run" ] || { echo "$output"; false; }
	[[ "$output" == *"never  skipped"*"not judged: the machine changed: allocstall 7 -> 11 (the guest's memory ran short)"* ]] || false
	rm -rf "$BATS_TEST_TMPDIR/r"
	vmstat_grows
	run -1 check_nap 1 1500
	wait
	[ "$(tsv_col "$BATS_TEST_TMPDIR/r/runs.tsv" machine)" = - ]
	[[ "$output" == *"never"*"regressed"* ]] || false
}

@test "results without the machine columns (older runners) are read as before" {
	run -1 check_nap 1 50
	awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "machine" || $i == "other_cpu_ms") drop[i] = 1 }
		{ s = ""; for (i = 1; i <= NF; i++) if (!drop[i]) s = s (s == "" ? "" : OFS) $i; print s }' \
		"$BATS_TEST_TMPDIR/r/runs.tsv" > "$BATS_TEST_TMPDIR/runs.tsv"
	mv "$BATS_TEST_TMPDIR/runs.tsv" "$BATS_TEST_TMPDIR/r/runs.tsv"
	run ! grep -q machine "$BATS_TEST_TMPDIR/r/runs.tsv"
	run -1 mr check --from "$BATS_TEST_TMPDIR/r" --expected "$EXP"
	[[ "$output" == *"never"*"regressed"* ]] || false
}

# A time claim that fails wherever it is judged, in place of nap's claims.
time_claim() {
	printf '%s\n' 'slow holds wall_ms[mode=a] < 0 "a time claim that cannot hold"' \
		> "$EXP/nap.claims"
}

# Skip the test when the rest of the machine is busy (over a quarter of a
# CPU for half a second): it asserts what an idle machine reads.
idle_or_skip() {
	local a b
	a=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat)
	sleep 0.5
	b=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat)
	# clock ticks of 10 ms: a quarter of a CPU over 0.5 s is 12.5
	[ $((b - a)) -le 12 ] || skip "the machine is busy: $(((b - a) * 10)) ms of CPU in 500 ms"
}

# Keep every CPU busy with programs that are not the run's (teardown
# stops them).
busy_cpus() {
	local n
	BUSY=
	for n in $(seq "$(nproc)"); do
		sh -c 'while :; do :; done' &
		BUSY="$BUSY $!"
	done
}

@test "a busy machine: other programs' CPU is recorded and the run's times are not judged" {
	time_claim
	# Both CPUs kept busy by programs that are not the run's.
	busy_cpus
	run -0 timeout -k 5 120 "$MR" check --cases "$FIX" --expected "$EXP" \
		--out "$BATS_TEST_TMPDIR/r" --axis allocator=glibc --axis mode=a --axis ms=400 \
		--repeat 1 nap
	kill $BUSY
	BUSY=
	local other
	other=$(tsv_col "$BATS_TEST_TMPDIR/r/runs.tsv" other_cpu_ms)
	echo "other_cpu_ms $other"
	[ "$other" -gt 200 ]
	[[ "$output" == *"wall_ms measured on a busy machine (other programs used "*" ms of CPU in the "*" ms the run was watched)"* ]] || false
	[[ "$output" == *"the machine was busy during 1 run"* ]] || false
	[[ "$output" == *"claim  slow  skipped"* ]] || false
}

# Set column $2 of runs.tsv of results $1 to $3 in every run that has it.
set_col() {
	awk -F'\t' -v OFS='\t' -v k="$2" -v v="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i; print; next }
		{ if ($c != "-") $c = v; print }' "$1/runs.tsv" > "$1/runs.tsv.new"
	mv "$1/runs.tsv.new" "$1/runs.tsv"
}

# touch under allocator $1 (a list) and jemalloc options $2 ("" none), $3
# repeats, blessed idle (other_cpu_ms 0) into $EXP; skips without jemalloc.
touch_blessed() {
	rm -f "$EXP/nap.claims"
	run -0 timeout -k 5 120 "$MR" run --cases "$FIX" --out "$BATS_TEST_TMPDIR/r" \
		--axis allocator="$1" ${2:+--axis "$2"} --repeat "$3" touch
	grep -q 'allocator=jemalloc.*	ok	' "$BATS_TEST_TMPDIR/r/runs.tsv" ||
		skip "jemalloc is not installed (Debian package libjemalloc2)"
	set_col "$BATS_TEST_TMPDIR/r" other_cpu_ms 0
	run -0 mr bless --from "$BATS_TEST_TMPDIR/r" --expected "$EXP" --yes
	grep -q '^allocator=jemalloc,[^	]*	-	minflt	' "$EXP"/*/touch.tsv
}

@test "a busy machine: jemalloc's figures, which its decay clock moves, are not pinned; glibc's are judged" {
	touch_blessed glibc,jemalloc "" 1
	set_col "$BATS_TEST_TMPDIR/r" other_cpu_ms 1000000
	run -0 mr check --from "$BATS_TEST_TMPDIR/r" --expected "$EXP" --verbose
	echo "$output"
	[ "$(printf '%s\n' "$output" | grep -c 'minflt  *held')" -eq 1 ]
	[ "$(printf '%s\n' "$output" | grep -c 'maxrss_kb  *held')" -eq 1 ]
	[ "$(printf '%s\n' "$output" | grep -c "follows the allocator's clock (its purge after a delay), measured on a busy machine: not pinned")" -eq 10 ]
	[[ "$output" == *"allocator=glibc     10 held"* ]] || false
}

@test "a busy machine: jemalloc with its decay stopped (dirty_decay_ms=-1) is judged" {
	touch_blessed jemalloc jemalloc.dirty_decay_ms=-1 1
	set_col "$BATS_TEST_TMPDIR/r" other_cpu_ms 1000000
	run -0 mr check --from "$BATS_TEST_TMPDIR/r" --expected "$EXP" --verbose
	echo "$output"
	[[ "$output" == *"10 held"* ]] || false
	[[ "$output" != *"not pinned"* ]] || false
}

@test "runs that each read under a quarter of a CPU busy, but over it together: every run had a busy machine" {
	# 20 runs of 600 ms (12 s in all), each with 170 ms of other CPU:
	# alone under 600 / 4 + 30, together 28 % of a CPU
	touch_blessed glibc,jemalloc "" 10
	set_col "$BATS_TEST_TMPDIR/r" wall_ms 600
	set_col "$BATS_TEST_TMPDIR/r" pause_ms 0
	set_col "$BATS_TEST_TMPDIR/r" other_cpu_ms 170
	run -0 mr check --from "$BATS_TEST_TMPDIR/r" --expected "$EXP"
	echo "$output"
	[[ "$output" == *"the machine was busy: other programs used 28 % of a CPU over the runs"* ]] || false
	[[ "$output" == *"allocator=jemalloc  0 held, 10 not measured"* ]] || false
	# 9 s of runs is too few to say
	set_col "$BATS_TEST_TMPDIR/r" wall_ms 450
	set_col "$BATS_TEST_TMPDIR/r" pause_ms 0
	set_col "$BATS_TEST_TMPDIR/r" other_cpu_ms 125
	run -0 mr check --from "$BATS_TEST_TMPDIR/r" --expected "$EXP"
	[[ "$output" != *"busy"* ]] || false
}

# The other_cpu_ms of every run of results $1, one per line.
other_cpus() {
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "other_cpu_ms") c = i; next } { print $c }' "$1/runs.tsv"
}

@test "side by side (-j 2) on an idle machine: a run does not count the session's other runs as the machine's" {
	[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs: $(nproc) here"
	idle_or_skip
	# Two configs that each keep a CPU busy for 600 ms, side by side:
	# each run's other_cpu_ms used to be the other's whole CPU.
	rm "$EXP/nap.claims"
	run -0 timeout -k 5 120 "$MR" run --cases "$FIX" --out "$BATS_TEST_TMPDIR/r" \
		--axis allocator=glibc --axis mode=a,b --axis ms=600 --repeat 2 -j 2 burn
	local overlapped
	overlapped=$(tsv_col "$BATS_TEST_TMPDIR/r/runs.tsv" overlap | grep -cv '^0$' || true)
	[ "$overlapped" -ge 2 ] || skip "the runs did not overlap (a loaded machine)"
	other_cpus "$BATS_TEST_TMPDIR/r"
	# a quarter of a run's 600 ms would make it "busy"
	[ "$(other_cpus "$BATS_TEST_TMPDIR/r" | awk '$1 > 150' | wc -l)" -eq 0 ]
}

@test "side by side (-j 2) beside a busy CPU: every run still sees the machine busy" {
	[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs: $(nproc) here"
	rm "$EXP/nap.claims"
	sh -c 'while :; do :; done' &
	BUSY=$!
	run -0 timeout -k 5 120 "$MR" run --cases "$FIX" --out "$BATS_TEST_TMPDIR/r" \
		--axis allocator=glibc --axis mode=a,b --axis ms=600 --repeat 2 -j 2 burn
	kill $BUSY
	BUSY=
	other_cpus "$BATS_TEST_TMPDIR/r"
	# the loop's share of a CPU over each 600 ms run, whatever the board
	# takes off
	[ "$(other_cpus "$BATS_TEST_TMPDIR/r" | awk '$1 <= 180' | wc -l)" -eq 0 ]
}

@test "a short timed run beside busy CPUs is watched long enough to be judged busy" {
	# on a 5 ms run: over 5 ms /proc/stat's ticks could not tell a busy
	# machine from an idle one
	time_claim
	busy_cpus
	run -0 timeout -k 5 120 "$MR" check --cases "$FIX" --expected "$EXP" \
		--out "$BATS_TEST_TMPDIR/r" --axis allocator=glibc --axis mode=a --axis ms=5 \
		--repeat 3 nap
	kill $BUSY
	BUSY=
	other_cpus "$BATS_TEST_TMPDIR/r"
	[[ "$output" == *"the machine was busy during 3 runs"* ]] || false
	[[ "$output" == *"claim  slow  skipped"* ]] || false
	# watched for 150 ms at least: longer only where the load itself
	# stretched the 5 ms run past that (seen beside a guest under TCG)
	[[ "$output" =~ in\ the\ ([0-9]+)\ ms\ the\ run\ was\ watched ]] || false
	[ "${BASH_REMATCH[1]}" -ge 150 ]
}

@test "a short timed run on an idle machine is judged" {
	idle_or_skip
	time_claim
	run -1 timeout -k 5 120 "$MR" check --cases "$FIX" --expected "$EXP" \
		--out "$BATS_TEST_TMPDIR/r" --axis allocator=glibc --axis mode=a --axis ms=5 \
		--repeat 3 nap
	other_cpus "$BATS_TEST_TMPDIR/r"
	[[ "$output" == *"slow"*"regressed"* ]] || false
	[[ "$output" != *"busy"* ]] || false
}

@test "bless on a busy machine keeps jemalloc's old rows (not pinned from stretched runs) and re-blesses glibc's" {
	touch_blessed glibc,jemalloc "" 1
	local before
	before=$(grep '^allocator=jemalloc' "$EXP"/*/touch.tsv)
	[ -n "$before" ]
	# the same runs, their figures moved and the machine busy
	set_col "$BATS_TEST_TMPDIR/r" other_cpu_ms 1000000
	set_col "$BATS_TEST_TMPDIR/r" maxrss_kb 999999
	run -0 mr bless --from "$BATS_TEST_TMPDIR/r" --expected "$EXP" --yes
	[ "$(grep '^allocator=jemalloc' "$EXP"/*/touch.tsv)" = "$before" ]
	grep -q '^allocator=glibc,[^	]*	-	maxrss_kb	999999	' "$EXP"/*/touch.tsv
}

@test "older results (no other_cpu board in env.tsv): a run beside others is not taken for a busy machine's" {
	touch_blessed glibc,jemalloc "" 10
	set_col "$BATS_TEST_TMPDIR/r" wall_ms 600
	set_col "$BATS_TEST_TMPDIR/r" pause_ms 0
	# each run beside another, which an older runner counted as "other"
	set_col "$BATS_TEST_TMPDIR/r" overlap 1
	set_col "$BATS_TEST_TMPDIR/r" other_cpu_ms 590
	run -0 mr check --from "$BATS_TEST_TMPDIR/r" --expected "$EXP"
	[[ "$output" == *"the machine was busy: other programs used 98 % of a CPU"* ]] || false
	sed -i '/^other_cpu	/d' "$BATS_TEST_TMPDIR/r/env.tsv"
	run -0 mr check --from "$BATS_TEST_TMPDIR/r" --expected "$EXP"
	echo "$output"
	[[ "$output" != *"busy"* ]] || false
}
