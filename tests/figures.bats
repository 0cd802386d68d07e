#!/usr/bin/env bats
# "The report and here": the chart of a case's report figures
# (expected/<case>.figures) beside ours, and its derived TSV.

load test_helper

# The hand-made results of tests/data (fixture-stacks, 2 allocators x 2
# madvise modes, 3 repeats, created/cleared twice each) with an empty
# series, so that report draws from them; an expected dir with its claims.
setup() {
	DATA=$BATS_TEST_DIRNAME/data
	R=$BATS_TEST_TMPDIR/results
	E=$BATS_TEST_TMPDIR/expected
	cp -R "$DATA/results-held" "$R"
	printf 'case\tconfig\trepeat\tt_ms\trss_kb\n' > "$R/series.tsv"
	mkdir -p "$E"
	cp "$DATA/expected/fixture-stacks.claims" "$E/"
	TSV=$R/plots/fixture-stacks.figures.tsv
}

# The text of the chart's SVG, on one line.
svg_text() {
	sed 's/<[^>]*>//g' "$R/plots/fixture-stacks.figures.svg" | tr -s '\n\t ' '   '
}

report() {
	run -0 timeout -k 5 120 "$MR" report --cases "$DATA/cases" --expected "$E" "$R"
}

# The median of checkpoints.tsv's METRIC at the last occurrence of
# CHECKPOINT over the repeats of CONFIG, from the file itself.
median_at() {
	awk -F'\t' -v cfg="$1" -v ck="$2" -v m="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$2 == cfg && $4 == ck && $5 >= seq[$3] { seq[$3] = $5; v[$3] = $col[m] }
		END {
			n = 0
			for (r in v) a[++n] = v[r]
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
				if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			print (n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2)
		}' "$R/checkpoints.tsv"
}

# Field NAME of the TSV rows whose side is SIDE and whose at is AT and
# config CONFIG.
fig_field() {
	awk -F'\t' -v side="$1" -v at="$2" -v cfg="$3" -v f="$4" '
		/^#/ { next }
		!h { for (i = 1; i <= NF; i++) col[$i] = i; h = 1; next }
		$col["side"] == side && $col["at"] == at && $col["config"] == cfg { print $col[f] }' "$TSV"
}

@test "the chart is drawn with the report's figures and our medians in its TSV" {
	cat > "$E/fixture-stacks.figures" <<'EOF'
source seeds/000_42f33d63eb876075.txt "a made-up report"
key rss_kb@cleared lower
note "how the report's labels map"
figure created allocator=glibc,madvise=dontneed rss_kb 151.63 MB "FREE_STACKS=8"
figure cleared allocator=glibc,madvise=dontneed rss_kb 73.63 MB "FREE_STACKS=8"
figure - allocator=glibc,madvise=dontneed sys_ms 463.22 ms "FREE_STACKS=8"
EOF
	report
	[ -s "$R/plots/fixture-stacks.figures.png" ]
	[ -s "$R/plots/fixture-stacks.figures.svg" ]
	cfg=allocator=glibc,madvise=dontneed
	# the report's side: the figures as printed
	[ "$(fig_field report created "$cfg" value)" = 151.63 ]
	[ "$(fig_field report cleared "$cfg" value)" = 73.63 ]
	[ "$(fig_field report cleared "$cfg" unit)" = MB ]
	# drawn in our unit: 73.63 MB is 70.22 MiB
	y=$(fig_field report cleared "$cfg" y)
	awk -v y="$y" 'BEGIN { exit !(y > 70.21 && y < 70.23) }' || { echo "y $y, want 70.22 (MiB)"; false; }
	[ "$(fig_field report sys_ms "$cfg" value)" = 463.22 ]
	# ours: the median of the matching config's repeats, in KiB and MiB
	ours=allocator=glibc,fibers=1000,madvise=dontneed
	want=$(median_at "$ours" cleared rss_kb)
	[ "$(fig_field here cleared "$cfg" value)" = "$want" ]
	[ "$(fig_field here cleared "$cfg" drawn)" = "$ours" ]
	[ "$(fig_field here cleared "$cfg" n)" = 3 ]
	y=$(fig_field here cleared "$cfg" y)
	awk -v y="$y" -v w="$want" 'BEGIN { exit !(y - w / 1024 < 1e-6 && w / 1024 - y < 1e-6) }'
	# sys_ms of the whole run, median of runs.tsv's 300/311/293 ms, in s
	[ "$(fig_field here sys_ms "$cfg" value)" = 300 ]
	[ "$(fig_field here sys_ms "$cfg" y)" = 0.3 ]
	# the SVG says what the chart is
	grep -q "fixture-stacks: the report" "$R/plots/fixture-stacks.figures.svg"
	grep -q "a made-up report" "$R/plots/fixture-stacks.figures.svg"
	grep -q "how the report" "$R/plots/fixture-stacks.figures.svg"
}

@test "compare growth subtracts each series' first point on both sides" {
	cat > "$E/fixture-stacks.figures" <<'EOF'
source seeds/000_42f33d63eb876075.txt "a made-up report"
compare growth
figure created allocator=jemalloc,madvise=free rss_kb 150 MiB
figure cleared allocator=jemalloc,madvise=free rss_kb 140.5 MiB
EOF
	report
	cfg=allocator=jemalloc,madvise=free
	[ "$(fig_field report created "$cfg" y)" = 0 ]
	[ "$(fig_field report cleared "$cfg" y)" = -9.5 ]
	# the value stays as printed
	[ "$(fig_field report cleared "$cfg" value)" = 140.5 ]
	ours=allocator=jemalloc,fibers=1000,madvise=free
	first=$(median_at "$ours" created rss_kb)
	last=$(median_at "$ours" cleared rss_kb)
	[ "$(fig_field here created "$cfg" y)" = 0 ]
	y=$(fig_field here cleared "$cfg" y)
	awk -v y="$y" -v a="$first" -v b="$last" \
		'BEGIN { d = (b - a) / 1024; exit !(y - d < 1e-6 && d - y < 1e-6) }'
	grep -q "compare growth" "$R/plots/fixture-stacks.figures.svg"
}

@test "a report config several of ours match is drawn with the one of fewest pairs, the others named; one none match is said" {
	# madvise=free alone: allocator=glibc and allocator=jemalloc match
	cat > "$E/fixture-stacks.figures" <<'EOF'
source seeds/000_42f33d63eb876075.txt "a made-up report"
figure cleared madvise=free rss_kb 150 MiB
figure cleared madvise=dontneed,allocator=tcmalloc rss_kb 70 MiB
EOF
	run -2 timeout -k 5 120 "$MR" report --cases "$DATA/cases" --expected "$E" "$R"
	[[ "$output" == *"fixture-stacks.figures:3:"* ]] || false
	cat > "$E/fixture-stacks.figures" <<'EOF'
source seeds/000_42f33d63eb876075.txt "a made-up report"
figure cleared madvise=free rss_kb 150 MiB
figure cleared allocator=tcmalloc,madvise=dontneed rss_kb 70 MiB
figure cleared allocator=mimalloc,madvise=free rss_kb 80 MiB
EOF
	# a config with a tunable beside glibc's, first in the results: not
	# the one drawn
	for f in runs checkpoints; do
		awk -F'\t' -v OFS='\t' '
			NR == 1 { print; next }
			$2 == "allocator=glibc,fibers=1000,madvise=free" {
				t = $0; $2 = "allocator=glibc,fibers=1000,glibc.malloc.mmap_threshold=131072,madvise=free"
				print; keep[++n] = t; next }
			{ keep[++n] = $0 }
			END { for (i = 1; i <= n; i++) print keep[i] }' "$R/$f.tsv" > "$R/$f.new"
		mv "$R/$f.new" "$R/$f.tsv"
	done
	report
	[ "$(fig_field here cleared madvise=free drawn)" = allocator=glibc,fibers=1000,madvise=free ]
	also=$(svg_text | grep -Eo "not drawn: [^(]*\\(beside madvise=free\\)")
	[[ "$also" == *"allocator=jemalloc"* ]] || false
	[[ "$also" == *"glibc.malloc.mmap_threshold=131072"* ]] || false
	# a skipped config is not "measured"
	run ! grep -q "allocator=tcmalloc (beside" <(svg_text)
	# tcmalloc was skipped in these results: the report's side only
	[ "$(fig_field report cleared allocator=tcmalloc,madvise=dontneed value)" = 70 ]
	[ -z "$(fig_field here cleared allocator=tcmalloc,madvise=dontneed value)" ]
	svg_text | grep -q "here, allocator=tcmalloc,madvise=dontneed: skipped: "
	# no config of ours has mimalloc: said so, and its figure drawn alone
	svg_text | grep -q "not measured here: allocator=mimalloc,madvise=free (no config of these results has all its pairs)"
	[ "$(fig_field report cleared allocator=mimalloc,madvise=free value)" = 80 ]
	[ -z "$(fig_field here cleared allocator=mimalloc,madvise=free value)" ]
}

@test "a checkpoint a config's figures name again is its next occurrence" {
	cat > "$E/fixture-stacks.figures" <<'EOF'
source seeds/000_42f33d63eb876075.txt "a made-up report"
figure created allocator=glibc,madvise=free rss_kb 150 MiB
figure created allocator=glibc,madvise=free rss_kb 151 MiB
EOF
	report
	cfg=allocator=glibc,madvise=free
	[ "$(fig_field report 'created#1' "$cfg" value)" = 150 ]
	[ "$(fig_field report 'created#2' "$cfg" value)" = 151 ]
	[ "$(fig_field here 'created#2' "$cfg" value)" = \
	  "$(median_at allocator=glibc,fibers=1000,madvise=free created rss_kb)" ]
	# the first occurrence, by hand: repeat 1, 2, 3's seq 1
	want=$(awk -F'\t' '$2 == "allocator=glibc,fibers=1000,madvise=free" && $4 == "created" && $5 == 1 { print $7 }' \
		"$R/checkpoints.tsv" | sort -n | sed -n 2p)
	[ "$(fig_field here 'created#1' "$cfg" value)" = "$want" ]
}

@test "no figures file: no chart, and an earlier one is removed" {
	mkdir -p "$R/plots"
	echo stale > "$R/plots/fixture-stacks.figures.png"
	echo stale > "$R/plots/fixture-stacks.figures.tsv"
	report
	[ -s "$R/plots/fixture-stacks.series.png" ]
	[ ! -e "$R/plots/fixture-stacks.figures.png" ]
	[ ! -e "$R/plots/fixture-stacks.figures.svg" ]
	[ ! -e "$TSV" ]
}

@test "a figure at a checkpoint name no case can declare is an error naming the rule (lib/mr_schema.h)" {
	cat > "$E/fixture-stacks.figures" <<'EOF2'
source seeds/000_42f33d63eb876075.txt "a made-up report"
figure Cleared madvise=free rss_kb 150 MiB
EOF2
	run -2 timeout -k 5 120 "$MR" report --cases "$DATA/cases" --expected "$E" "$R"
	[[ "$output" == *"fixture-stacks.figures:2:8: Cleared is not a checkpoint name ([a-z0-9_-]{1,63}, NAME#N for its Nth occurrence, or - for a whole run)"* ]] || false
}

@test "the report's runtime may be node@, ruby@, python@, go@, redis@ or java@ a version; another is an error naming file, line and column" {
	for rt in node@10.7.0 ruby@3.3 python@3.13 go@1.19 redis@6 java@17; do
		printf 'source seeds/000_42f33d63eb876075.txt "a made-up report"\nruntime %s\nfigure cleared madvise=free rss_kb 150 MiB\n' \
			"$rt" > "$E/fixture-stacks.figures"
		report
	done
	for rt in perl@5.36 python@3.x python@ java@; do
		printf 'source seeds/000_42f33d63eb876075.txt "a made-up report"\nruntime %s\n' "$rt" > "$E/fixture-stacks.figures"
		run -2 timeout -k 5 120 "$MR" report --cases "$DATA/cases" --expected "$E" "$R"
		[[ "$output" == *"fixture-stacks.figures:2:9: $rt: want node@VERSION, ruby@VERSION, python@VERSION, go@VERSION, redis@VERSION or java@VERSION (the report's runtime)"* ]] || false
	done
}

@test "a figure naming an axis the runs did not have (an allocator's option, a tunable, libc) is not measured; an unknown parameter is an error" {
	cat > "$E/fixture-stacks.figures" <<'EOF2'
source seeds/000_42f33d63eb876075.txt "a made-up report"
figure cleared allocator=glibc,glibc.malloc.arena_max=2,madvise=free rss_kb 150 MiB
figure cleared allocator=mimalloc,madvise=free,mimalloc.arena_eager_commit=0 rss_kb 150 MiB
figure cleared allocator=glibc,libc=2.41,madvise=free rss_kb 150 MiB
EOF2
	report
	printf 'source seeds/000_42f33d63eb876075.txt "a made-up report"\nfigure cleared allocator=glibc,madvize=free rss_kb 150 MiB\n' \
		> "$E/fixture-stacks.figures"
	run -2 timeout -k 5 120 "$MR" report --cases "$DATA/cases" --expected "$E" "$R"
	[[ "$output" == *'fixture-stacks.figures:2:16: unknown parameter "madvize" (no run of this case has it)'* ]] || false
}
