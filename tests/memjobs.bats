#!/usr/bin/env bats
# -j N plans side-by-side runs by their expected peak memory too: a run
# starts beside others only when their expected peaks and its own fit in
# the memory available (MEMREPRO_MEM_AVAILABLE_KB stands in for
# MemAvailable here, less the same tenth), and runs.tsv's waited column
# says why one waited.

load test_helper

setup() {
	EXP=$BATS_TEST_TMPDIR/expected
	mkdir -p "$EXP"
}

# peaks KB: bless nap (modes a and b, 150 ms) and keep only its maxrss_kb
# rows, their max set to KB: the expected peak of each config.
peaks() {
	run -0 timeout -k 5 120 "$MR" bless --cases "$FIX" --expected "$EXP" --out "$BATS_TEST_TMPDIR/b" \
		--axis allocator=glibc --axis ms=150 --axis mode=a,b --repeat 1 -q nap
	f=$(ls "$EXP"/*/nap.tsv)
	awk -F'\t' -v OFS='\t' -v kb="$1" '
		/^#/ || /^config\t/ { print; next }
		$2 == "-" && $3 == "maxrss_kb" { $4 = $5 = $6 = kb; print }' "$f" > "$f.new"
	mv "$f.new" "$f"
	[ "$(grep -c $'\tmaxrss_kb\t' "$f")" -eq 2 ]
}

# jnap DIR [OPTIONS]: nap's modes a and b, 2 repeats each, -j 2.
jnap() {
	timeout -k 5 120 "$MR" run --cases "$FIX" --expected "$EXP" --axis allocator=glibc \
		--axis ms=150 --axis mode=a,b --repeat 2 -q -j 2 --out "$1" "${@:2}" nap
}

@test "two runs whose peaks do not fit together never overlap, and say why they waited" {
	peaks 400000
	d=$BATS_TEST_TMPDIR/big
	MEMREPRO_MEM_AVAILABLE_KB=700000 run -0 jnap "$d"
	[ "$(tsv_col "$d/runs.tsv" outcome | sort -u)" = ok ]
	[ "$(tsv_col "$d/runs.tsv" outcome | wc -l)" -eq 4 ]
	# 2 x 400000 kB > 630000 (700000 less a tenth): one at a time
	[ "$(tsv_col "$d/runs.tsv" overlap | sort -u)" = 0 ]
	# every run but the first waited for the one before it
	[ "$(tsv_col "$d/runs.tsv" waited '$(idx["waited"]) != "-"' | wc -l)" -eq 3 ]
	[ "$(tsv_col "$d/runs.tsv" waited 'NR == 2')" = - ]
	tsv_col "$d/runs.tsv" waited '$(idx["waited"]) != "-"' | sort -u |
		grep -qx 'memory: expected 390.6 MiB beside 390.6 MiB running, 615.2 MiB available'
	# the figures of runs that waited still reach their verdicts
	run -0 timeout -k 5 60 "$MR" check --from "$d" --expected "$EXP"
}

@test "two runs whose peaks fit together overlap, and did not wait" {
	peaks 200000
	d=$BATS_TEST_TMPDIR/small
	MEMREPRO_MEM_AVAILABLE_KB=700000 run -0 jnap "$d"
	[ "$(tsv_col "$d/runs.tsv" outcome | sort -u)" = ok ]
	beside=$(tsv_col "$d/runs.tsv" overlap | awk '$1 > 0' | wc -l)
	echo "runs with company: $beside"
	[ "$beside" -ge 3 ]
	[ "$(tsv_col "$d/runs.tsv" waited | sort -u)" = - ]
}

@test "with no baseline the first repeat's peak plans the next ones" {
	d=$BATS_TEST_TMPDIR/learn
	# touch of 64 and 72 MiB: together more than 90000 kB once measured
	MEMREPRO_MEM_AVAILABLE_KB=100000 run -0 timeout -k 5 120 "$MR" run --cases "$FIX" \
		--expected "$EXP" --axis allocator=glibc --axis mb=64,72 --repeat 4 -q -j 2 \
		--out "$d" touch
	[ "$(tsv_col "$d/runs.tsv" outcome | sort -u)" = ok ]
	# the first repeats had no figure to wait for
	[ "$(tsv_col "$d/runs.tsv" waited '$3 == 1' | sort -u)" = - ]
	tsv_col "$d/runs.tsv" waited '$3 > 1' | grep -q '^memory: expected [67][0-9].[0-9] MiB beside [67][0-9].[0-9] MiB running, 87.9 MiB available$'
}

@test "a run too big for the machine alone still runs, alone" {
	peaks 400000
	d=$BATS_TEST_TMPDIR/huge
	MEMREPRO_MEM_AVAILABLE_KB=100000 run -0 jnap "$d"
	[ "$(tsv_col "$d/runs.tsv" outcome | sort -u)" = ok ]
	[ "$(tsv_col "$d/runs.tsv" overlap | sort -u)" = 0 ]
}

@test "a bad MEMREPRO_MEM_AVAILABLE_KB is refused, naming it" {
	MEMREPRO_MEM_AVAILABLE_KB=lots run -2 jnap "$BATS_TEST_TMPDIR/bad"
	[[ "$output" == *"MEMREPRO_MEM_AVAILABLE_KB=lots: not a size in kB"* ]] || false
}

@test "results written before the waited column read fine" {
	d=$BATS_TEST_TMPDIR/old
	run -0 timeout -k 5 120 "$MR" run --cases "$FIX" --expected "$EXP" --axis allocator=glibc \
		--axis mb=8 --repeat 2 -q --out "$d" touch
	[ "$(head -1 "$d/runs.tsv" | tr '\t' '\n' | grep -c '^waited$')" -eq 1 ]
	awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "waited") w = i }
		{ s = ""; for (i = 1; i <= NF; i++) if (i != w) s = s (s == "" ? "" : OFS) $i; print s }' \
		"$d/runs.tsv" > "$d/runs.new"
	mv "$d/runs.new" "$d/runs.tsv"
	[ "$(head -1 "$d/runs.tsv" | tr '\t' '\n' | grep -c '^waited$')" -eq 0 ]
	run -0 timeout -k 5 60 "$MR" report "$d"
}
