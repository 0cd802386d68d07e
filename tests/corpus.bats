#!/usr/bin/env bats
# corpus: the corpus table from results directories and the reports'
# figures (expected/<case>.figures), and the table of docs/corpus.md is what the
# command writes from the committed corpus results (docs/corpus/).

load test_helper

setup_file() {
	local mr="$BATS_TEST_DIRNAME/../build/memrepro" fix="$BATS_TEST_DIRNAME/../build/fixtures"

	timeout -k 5 120 "$mr" run --cases "$fix" --out "$BATS_FILE_TMPDIR/r" \
		--axis allocator=glibc,jemalloc --repeat 3 --quiet ok >/dev/null
}

setup() {
	R=$BATS_FILE_TMPDIR/r
	EXP=$BATS_TEST_TMPDIR/expected
	mkdir -p "$EXP"
	printf '%s\n' 'more-is-more holds rss_kb@done[mode=a] < rss_kb@done[mode=c] "fixture: 8 MiB < 32 MiB"' \
		'less-is-more reported rss_kb@done[mode=c] < rss_kb@done[mode=a] "fixture: contradicted here"' \
		> "$EXP/ok.claims"
	cat > "$EXP/ok.figures" <<'FIG'
source seeds/000_fixture.txt "the fixture's report"
key rss_kb@done lower
figure done allocator=glibc,mode=a rss_kb 8.5 MB "ps"
figure done mode=c rss_kb 33 MiB
figure - allocator=jemalloc,mode=a peak_rss_kb 9000 KiB
FIG
}

# The median of the numbers on stdin (odd count), in MiB as the table
# writes it: 2 decimals below 10 MiB, 1 from there.
median_mib() {
	sort -n | awk '{ v[NR] = $1 } END { m = v[(NR + 1) / 2] / 1024; printf (m < 10 ? "%.2f" : "%.1f"), m }'
}

@test "corpus sets each printed figure beside the median measured for the configs that match" {
	run -0 "$MR" corpus --cases "$ROOT/build/fixtures" --expected "$EXP" "$R"
	echo "$output"
	[ "${lines[0]}" = "### Not filed under a mechanism" ]
	[ "${lines[1]}" = "| case (report) | figure | the report | its program, on the report's runtime | its program, today | the model | claims |" ]
	# one row per metric and checkpoint the report printed, in order
	[ "$(grep -c '^| ' <<< "$output")" -eq 3 ]
	row=$(grep -F '| RSS at done |' <<< "$output")
	[[ "$row" == "| **ok** ([seed 000](seeds/000_fixture.txt), the fixture's report) | RSS at done | glibc, mode=a 8.5 MB (ps); mode=c 33 MiB | no original | no original | "* ]] || false
	# ours: the median of the config the report-and-here chart draws: glibc
	# mode=a is one config; of mode=c's two (glibc and jemalloc, as many
	# pairs) the first in runs.tsv
	want=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == "ok" && $2 == "allocator=glibc,mode=a" && $4 == "done" { print $c["rss_kb"] }' \
		"$R/checkpoints.tsv" | median_mib)
	first=$(awk -F'\t' '$1 == "ok" && $2 ~ /mode=c/ { print $2; exit }' "$R/runs.tsv")
	wantc=$(awk -F'\t' -v cfg="$first" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == "ok" && $2 == cfg && $4 == "done" { print $c["rss_kb"] }' \
		"$R/checkpoints.tsv" | median_mib)
	[[ "$row" == *"| glibc, mode=a $want MiB; mode=c $wantc MiB |"* ]] || false
	[[ "$row" == *'| 1 held, 1 does not reproduce: `less-is-more` |' ]] || false
	row=$(grep -F '| sampled peak RSS |' <<< "$output")
	want=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == "ok" && $2 == "allocator=jemalloc,mode=a" { print $c["peak_rss_kb"] }' \
		"$R/runs.tsv" | median_mib)
	[[ "$row" == *"| jemalloc, mode=a 9000 KiB |  |  | jemalloc, mode=a $want MiB |"* ]] || false
	# what it was written from
	[[ "$output" == *"Written by \`memrepro corpus $R\` from results of "*"profile full, 3 repeats"* ]] || false
}

@test "corpus: with compare growth, each series from its first checkpoint, on both sides" {
	# a checkpoint "start" before "done" in every run, 8 MiB below it
	G=$BATS_TEST_TMPDIR/grown
	cp -R "$R" "$G"
	awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
		$4 == "done" { d = $0; $4 = "start"; $c["rss_kb"] -= 8192; print; print d; next }
		{ print }' "$R/checkpoints.tsv" > "$G/checkpoints.tsv"
	cat > "$EXP/ok.figures" <<'FIG'
source seeds/000_fixture.txt "the fixture's report"
compare growth
figure start allocator=glibc,mode=a rss_kb 2 MiB
figure done allocator=glibc,mode=a rss_kb 10500 KiB
FIG
	run -0 "$MR" corpus --expected "$EXP" "$G"
	echo "$output"
	# the first checkpoint is where growth starts: no row of its own
	[ "$(grep -c '^| ' <<< "$output")" -eq 2 ]
	# the report's in the later figure's unit (10500 - 2048 KiB), ours 8 MiB
	[[ "$output" == *"| RSS from start to done | glibc, mode=a +8,452 KiB | no original | no original | glibc, mode=a +8.00 MiB |"* ]] || false
}

@test "corpus: with compare growth, a row whose first figure starts a series of its own still shows the others" {
	G=$BATS_TEST_TMPDIR/grown
	cp -R "$R" "$G"
	awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
		$4 == "done" { d = $0; $4 = "start"; $c["rss_kb"] -= 8192; print; print d; next }
		{ print }' "$R/checkpoints.tsv" > "$G/checkpoints.tsv"
	# mode=c has one figure (at done: where its series starts), listed
	# before mode=a's done, which goes on from mode=a's start
	cat > "$EXP/ok.figures" <<'FIG'
source seeds/000_fixture.txt "the fixture's report"
compare growth
figure start allocator=glibc,mode=a rss_kb 2 MiB
figure done allocator=glibc,mode=c rss_kb 40 MiB
figure done allocator=glibc,mode=a rss_kb 10500 KiB
FIG
	run -0 "$MR" corpus --expected "$EXP" "$G"
	echo "$output"
	[[ "$output" == *"| RSS at done | glibc, mode=c 40 MiB; glibc, mode=a +8,452 KiB |"* ]] || false
}

@test "corpus: the report's program on the report's runtime and on today's, beside the model" {
	# the runs of glibc mode=a again, as an original's under two runtimes
	# (4 MiB more for the interpreter), in a second results directory
	O=$BATS_TEST_TMPDIR/orig
	cp -R "$R" "$O"
	for f in runs checkpoints; do
		awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
			$2 == "allocator=glibc,mode=a" {
				for (v = 0; v < 2; v++) {
					r = $0; split(r, x, "\t")
					x[2] = "allocator=glibc,mode=a,runtime=node@" (v ? "22" : "10.7.0")
					if ("rss_kb" in c && c["rss_kb"] <= length(x)) x[c["rss_kb"]] += 4096
					line = x[1]; for (i = 2; i <= length(x); i++) line = line OFS x[i]
					print line
				}
			}' "$R/$f.tsv" > "$O/$f.tsv"
	done
	printf 'runtime.node@10.7.0.version\t10.7.0\nruntime.node@22.version\t22.23.5\n' >> "$O/env.tsv"
	sed -i '1a runtime node@10.7.0' "$EXP/ok.figures"
	run -0 "$MR" corpus --expected "$EXP" "$R" "$O"
	echo "$output"
	want=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$2 == "allocator=glibc,mode=a" && $4 == "done" { print $c["rss_kb"] + 4096 }' \
		"$R/checkpoints.tsv" | median_mib)
	row=$(grep -F '| RSS at done |' <<< "$output")
	[[ "$row" == *"| node@10.7.0: glibc, mode=a $want MiB; mode=c not run | node@22 (22.23.5): glibc, mode=a $want MiB; mode=c not run | glibc, mode=a "* ]] || false
}

@test "corpus: a bad figures file is exit 2 naming it; no directory is exit 2" {
	echo 'figure done mode=a rss_kb 8 MB' > "$EXP/ok.figures"
	run -2 --separate-stderr "$MR" corpus --expected "$EXP" "$R"
	[[ "$stderr" == *"ok.figures:1:1: figure before any source line"* ]] || false
	run -2 "$MR" corpus
	[[ "$output" == *"corpus needs one results directory or more"* ]] || false
	run -2 "$MR" corpus "$BATS_TEST_TMPDIR/none"
	[[ "$output" == *"none"* ]] || false
}

@test "corpus: a tracker's thread cited as OWNER/REPO#N is linked; anything else but a seed or an address is exit 2" {
	sed -i '1s|.*|source jemalloc/jemalloc#1674 "a tracker\x27s thread"|' "$EXP/ok.figures"
	run -0 "$MR" corpus --cases "$ROOT/build/fixtures" --expected "$EXP" "$R"
	row=$(grep -F '| RSS at done |' <<< "$output")
	[[ "$row" == "| **ok** ([jemalloc/jemalloc#1674](https://github.com/jemalloc/jemalloc/issues/1674), a tracker's thread) | RSS at done |"* ]] || false
	sed -i '1s|.*|source https://sourceware.org/bugzilla/show_bug.cgi?id=11261 "a bug"|' "$EXP/ok.figures"
	run -0 "$MR" corpus --cases "$ROOT/build/fixtures" --expected "$EXP" "$R"
	[[ "$output" == *"| **ok** (<https://sourceware.org/bugzilla/show_bug.cgi?id=11261>, a bug) |"* ]] || false
	for bad in jemalloc#1674 jemalloc/jemalloc '../x/y#1' 'a/b#01' 'a/b#1x' 'x/..#2' '../a#1' 'seeds/../x' 'https://'; do
		sed -i "1s|.*|source $bad \"a report\"|" "$EXP/ok.figures"
		run -2 --separate-stderr "$MR" corpus --expected "$EXP" "$R"
		echo "$bad: $stderr"
		[[ "$stderr" == *"ok.figures:1:8: "*"a report is cited as seeds/FILE, OWNER/REPO#N (a GitHub issue or pull request) or an https:// address"* ]] || false
	done
}

@test "the corpus table of docs/corpus.md is what memrepro corpus writes from docs/corpus/" {
	run -0 env MEMREPRO="$MR" "$ROOT/tools/corpus-table.sh" --check
	# and the check can fail: a figure changed in a copy of the tree
	t=$BATS_TEST_TMPDIR/tree
	mkdir -p "$t/tools"
	cp -R "$ROOT/expected" "$ROOT/docs" "$t/"
	cp "$ROOT/tools/corpus-table.sh" "$t/tools/"
	sed -i 's/^figure cleared allocator=glibc,madvise=free rss_kb 150.82 MB/figure cleared allocator=glibc,madvise=free rss_kb 150.83 MB/' \
		"$t/expected/fiber-stacks.figures"
	run -1 env MEMREPRO="$MR" "$t/tools/corpus-table.sh" --check
	[[ "$output" == *"150.83 MB"* ]] || false
	[[ "$output" == *"not what memrepro corpus writes"* ]] || false
}

@test "corpus: a table per mechanism (the cases' --describe), a GitHub thread cited links to it" {
	w=$BATS_TEST_TMPDIR/cases
	mkdir -p "$w"
	# the fixture, filed under a mechanism by its description
	printf '#!/bin/sh\nif [ "$1" = --describe ]; then "%s" --describe; printf "mechanism\\tarenas\\n"; exit 0; fi\nexec "%s" "$@"\n' \
		"$ROOT/build/fixtures/ok" "$ROOT/build/fixtures/ok" > "$w/ok"
	chmod +x "$w/ok"
	sed -i 's|^source seeds/000_fixture.txt|source jemalloc/jemalloc#1127|' "$EXP/ok.figures"
	run -0 "$MR" corpus --cases "$w" --expected "$EXP" "$R"
	[ "${lines[0]}" = "### Arenas: a thread's own malloc arena, and what it keeps" ]
	[[ "$output" == *"| **ok** ([jemalloc/jemalloc#1127](https://github.com/jemalloc/jemalloc/issues/1127), the fixture's report) |"* ]] || false
	# no description at hand: the case is not filed under any
	run -0 "$MR" corpus --cases "$BATS_TEST_TMPDIR/none" --expected "$EXP" "$R"
	[ "${lines[0]}" = "### Not filed under a mechanism" ]
	# a mechanism not in the list is a bad description, named
	sed -i 's/tarenas/tarenaz/' "$w/ok"
	run -2 "$MR" describe --cases "$w" ok
	[[ "$output" == *"unknown mechanism 'arenaz' (want one of arenas|retention|purging|hugepages|reservations|zeroing)"* ]] || false
	# a source that is no seed, thread or address is exit 2 at its column
	sed -i 's|^source jemalloc/jemalloc#1127|source jemalloc#1127|' "$EXP/ok.figures"
	run -2 "$MR" corpus --cases "$BATS_TEST_TMPDIR/none" --expected "$EXP" "$R"
	[[ "$output" == *"ok.figures:1:8: jemalloc#1127: a report is cited as seeds/FILE, OWNER/REPO#N"* ]] || false
}

@test "corpus: a report that printed no figure as text has one row saying so, with its claims" {
	printf '%s\n' 'source jemalloc/jemalloc#46 "screenshots only"' 'note "curves in screenshots"' > "$EXP/ok.figures"
	run -0 "$MR" corpus --cases "$ROOT/build/fixtures" --expected "$EXP" "$R"
	[ "$(grep -c '^| \*\*ok\*\*' <<< "$output")" -eq 1 ]
	[[ "$output" == *"| **ok** ([jemalloc/jemalloc#46](https://github.com/jemalloc/jemalloc/issues/46), screenshots only) | none printed as text | see expected/ok.figures |  |  |  | 1 held, 1 does not reproduce: \`less-is-more\` |"* ]] || false
}
