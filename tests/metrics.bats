#!/usr/bin/env bats
# The mapping count (maps: lines of /proc/PID/maps), the memory in
# transparent huge pages (anon_huge_kb: AnonHugePages of smaps_rollup) at
# each checkpoint, and vm.max_map_count in env.tsv: measured, judged by
# claims, named in words and charts; results without them still load.

load test_helper

out() { echo "$BATS_TEST_TMPDIR/out"; }

# at CHECKPOINT METRIC [CONFIG_REGEX]: the metric at the checkpoint.
at() {
	tsv_col "$(out)/checkpoints.tsv" "$2" "\$4 == \"$1\" && \$2 ~ /${3:-.}/"
}

@test "maps: N one-page mappings with holes between them add N to the count at their checkpoint" {
	run -0 mrf run maps --axis allocator=glibc --axis n=500,3000 --repeat 1
	local n before after
	for n in 500 3000; do
		before=$(at before maps "n=$n\$")
		after=$(at mapped maps "n=$n\$")
		echo "n=$n: $before -> $after"
		[ "$before" -gt 0 ]
		# N-1 when the first page merged with a neighbour of its kind
		[ $((after - before)) -ge $((n - 1)) ] && [ $((after - before)) -le $((n + 1)) ]
	done
	# the machine's limit, once in env.tsv, as the kernel has it
	[ "$(tsv_col "$(out)/env.tsv" value '$1 == "max_map_count"')" = "$(cat /proc/sys/vm/max_map_count)" ]
}

@test "anon_huge_kb: a 4 MiB region advised MADV_HUGEPAGE and written is counted in huge pages" {
	local mode
	mode=$(sed 's/.*\[\(.*\)\].*/\1/' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo none)
	if [ "$mode" = never ] || [ "$mode" = none ]; then
		skip "THP is \"$mode\" on this machine: no page can be huge"
	fi
	run -0 mrf run thp --axis allocator=glibc --axis mb=4 --repeat 1
	if [ "$(tsv_col "$(out)/runs.tsv" outcome)" = skipped ]; then
		skip "$(tsv_col "$(out)/runs.tsv" detail)"
	fi
	[ "$(tsv_col "$(out)/env.tsv" value '$1 == "thp"')" = "$mode" ]
	huge=$(at touched anon_huge_kb)
	anon=$(at touched anon_kb)
	echo "THP $mode: anon_huge_kb $huge of anon_kb $anon"
	# at least one 2 MiB page, and no more than the anonymous memory
	[ "$huge" -ge 2048 ] && [ "$huge" -le "$anon" ]
}

@test "claims, their words and the report's chart speak of mappings and huge pages" {
	run -0 mrf run maps --axis allocator=glibc --axis n=1000 --repeat 1
	E=$BATS_TEST_TMPDIR/expected
	mkdir -p "$E"
	cat > "$E/maps.claims" <<'CLAIMS'
adds-maps holds maps@mapped > maps@before + 990 "fixture: 1000 mappings added"
thp-share holds anon_huge_kb@mapped < 0.5 * rss_kb@mapped "fixture: one-page mappings are never huge"
CLAIMS
	cat > "$E/maps.figures" <<'FIGS'
source seeds/000_42f33d63eb876075.txt "a made-up report"
figure before allocator=glibc maps 20 -
figure mapped allocator=glibc maps 1020 -
FIGS
	run -0 timeout -k 5 60 "$MR" check --from "$(out)" --expected "$E" --cases "$FIX"
	[[ "$output" == *"adds-maps  held  mappings 1 0"*" at mapped vs "*" at before"* ]] || false
	[[ "$output" == *"thp-share  held  AnonHugePages "*" vs RSS "*" MiB at mapped"* ]] || false
	run -0 timeout -k 5 60 "$MR" check --from "$(out)" --expected "$E" --cases "$FIX" --format json
	[[ "$output" == *'"adds-maps"'* ]] || false
	run -0 timeout -k 5 120 "$MR" report --cases "$FIX" --expected "$E" "$(out)"
	sed 's/<[^>]*>//g' "$(out)/plots/maps.figures.svg" | grep -q 'mappings (count)'
	[ "$(awk -F'\t' '$2 == "here" && $5 == "mapped" { print $6 }' "$(out)/plots/maps.figures.tsv")" = maps ]
}

@test "results without the maps and anon_huge_kb columns still load: their claims are not measured, the rest judged" {
	E=$BATS_TEST_TMPDIR/expected
	mkdir -p "$E"
	head -1 "$ROOT/tests/data/results-held/checkpoints.tsv" | grep -qv -e maps -e anon_huge_kb
	cat > "$E/fixture-stacks.claims" <<'CLAIMS'
dontneed-returns holds rss_kb@cleared[madvise=dontneed] < 0.6 * rss_kb@cleared[madvise=free] "fixture: 73.63 MB vs 150.82 MB"
few-maps holds maps@cleared < 100000 "fixture: a mapping count"
thp-share holds anon_huge_kb@cleared < 0.1 * rss_kb@cleared "fixture: little THP"
CLAIMS
	run -0 timeout -k 5 60 "$MR" check --from "$ROOT/tests/data/results-held" --expected "$E" --cases "$ROOT/tests/data/cases"
	[[ "$output" == *"dontneed-returns  held"* ]] || false
	[[ "$output" == *"few-maps          skipped (no data for "*"(maps not measured at checkpoint cleared)"* ]] || false
	[[ "$output" == *"(anon_huge_kb not measured at checkpoint cleared)"* ]] || false
}

@test "the mapping count's reader: newlines at every chunk boundary, a last line without one, its bound" {
	run -0 timeout -k 5 $((60 * SLOW)) "$ROOT/${MEMREPRO_BUILD:-build}/unit/lines" "$BATS_TEST_TMPDIR"
	echo "$output"
	[[ "$output" == *"edges: "*" checks"* ]] || false
	[[ "$output" == *"bounds: 9 checks"* ]] || false
}

@test "the one /proc/PID/stat reader: a command name with spaces and ')', the fields it refuses, its own process" {
	run -0 timeout -k 5 $((60 * SLOW)) "$ROOT/${MEMREPRO_BUILD:-build}/unit/pstat"
	echo "$output"
	[[ "$output" == *"parses: 21 checks"* ]] || false
	[[ "$output" == *"refuses: 8 checks"* ]] || false
	[[ "$output" == *"reads: 3 checks"* ]] || false
}
