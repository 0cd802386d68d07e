#!/usr/bin/env bats
# Claims over versions: an allocator's versions and the libc as axes of a
# claim, version ranges, "reported since", the upgrade table
# (docs/formats.md, "Versions in claims").  The results are made here by
# hand: case vcase, one checkpoint "done", rss_kb invented per config.

load test_helper

# make_results DIR: vcase under glibc, the host's jemalloc (5.3.0 in
# env.tsv), jemalloc@5.2.1 and jemalloc@5.3.1, each on the host's libc
# (2.36) and libc=2.41; 3 repeats.  rss_kb@done: glibc 50 000 (20 000 on
# 2.41), jemalloc 30 000, jemalloc@5.2.1 90 000, jemalloc@5.3.1 95 000,
# plus the repeat number.
make_results() {
	local d=$1 a l cfg r v
	mkdir -p "$d"
	printf 'key\tvalue\nplatform\tx86_64-glibc2.36-linux6.1-thp_madvise-cpu2\nlibc\t2.36\nthp\tmadvise\nallocator.glibc.version\t2.36\nallocator.jemalloc.version\t5.3.0-0-g54eaed1d8b56b1aa528be3bdd1877e59c56fa90c\n' > "$d/env.tsv"
	printf 'case\tconfig\trepeat\toutcome\tdetail\n' > "$d/runs.tsv"
	printf 'case\tconfig\trepeat\tcheckpoint\tseq\trss_kb\n' > "$d/checkpoints.tsv"
	printf 'case\tconfig\trepeat\tt_ms\trss_kb\tvsz_kb\ttree_rss_kb\ttree_nproc\tcgroup_kb\n' > "$d/series.tsv"
	for a in glibc:50000 jemalloc:30000 jemalloc@5.2.1:90000 jemalloc@5.3.1:95000; do
		for l in host 2.41; do
			cfg="allocator=${a%%:*}"
			v=${a##*:}
			if [ "$l" != host ]; then
				cfg="$cfg,libc=$l"
				[ "${a%%:*}" != glibc ] || v=20000
			fi
			for r in 1 2 3; do
				printf 'vcase\t%s\t%d\tok\t-\n' "$cfg" "$r" >> "$d/runs.tsv"
				printf 'vcase\t%s\t%d\tdone\t1\t%d\n' "$cfg" "$r" $((v + r)) >> "$d/checkpoints.tsv"
			done
		done
	done
}

setup() {
	R=$BATS_TEST_TMPDIR/r
	EXP=$BATS_TEST_TMPDIR/expected
	mkdir -p "$EXP"
	make_results "$R"
}

# claims LINE...: the claims file of vcase.
claims() {
	printf '%s\n' "$@" > "$EXP/vcase.claims"
}

vcheck() {
	timeout -k 5 60 "$MR" check --from "$R" --expected "$EXP" "$@"
}

@test "a claim naming no version ranges over every version of the allocator" {
	claims 'jem-small holds rss_kb@done[allocator=jemalloc] < 1.5 * rss_kb@done[allocator=glibc] "all versions"'
	run -1 vcheck --verbose
	# one combination per jemalloc version and libc, each at its figure
	[[ "$output" == *"libc unset,allocator=jemalloc: 30 002 < 1.5 * 50 002 (75 003)"* ]] || false
	[[ "$output" == *"libc unset,allocator=jemalloc@5.2.1: 90 002 < 1.5 * 50 002 (75 003) is false"* ]] || false
	[[ "$output" == *"libc=2.41,allocator=jemalloc@5.3.1: 95 002 < 1.5 * 20 002 (30 003) is false"* ]] || false
	[ "$(grep -c 'allocator=jemalloc[@:]' <<<"$output")" -ge 6 ] || false
	[ "$(grep -c '^ *libc[= ][^:]*,allocator=jemalloc[^:]*: ' <<<"$output")" -eq 6 ]
}

@test "a claim on one allocator is not evaluated once per version of another" {
	claims 'glibc-small holds rss_kb@done[allocator=glibc] < 60000 "glibc only"'
	run -0 vcheck --verbose
	[[ "$output" == *"glibc-small  held  libc unset: 50 002 < 60000; 2 of 2 combinations held"* ]] || false
}

@test "a version range selects the versions in it, compared as dpkg compares them" {
	claims 'jem-new holds rss_kb@done[allocator=jemalloc@>=5.3] < 1.5 * rss_kb@done[allocator=glibc] "a range"' \
		'libc-any holds rss_kb@done[allocator=glibc,libc>=2.9] < 60000 "2.36 and 2.41 are >= 2.9 (numbers, not strings)"' \
		'libc-new holds rss_kb@done[allocator=glibc, libc>2.36] < 30000 "only 2.41"' \
		'jem-old holds rss_kb@done[allocator=jemalloc@>=5.2, allocator=jemalloc@<5.3] > 60000 "5.2.1 only: 5.3.0 is not < 5.3"'
	run -1 vcheck --verbose
	# the host's 5.3.0 and 5.3.1 are in the range, 5.2.1 is not
	[[ "$output" == *"libc unset,allocator=jemalloc: 30 002 < "* ]] || false
	[[ "$output" == *"libc unset,allocator=jemalloc@5.3.1: 95 002 < "* ]] || false
	[[ "$output" != *"jem-new"*"allocator=jemalloc@5.2.1: 90 002 <"*"libc-any"* ]] || false
	[[ "$output" == *"claim  libc-any  held       libc unset: 50 002 < 60000; 2 of 2 combinations held"* ]] || false
	[[ "$output" == *"claim  libc-new  held       libc=2.41: 20 002 < 30000"$'\n'* ]] || false
	[[ "$output" == *"claim  jem-old   held       libc unset,allocator=jemalloc@5.2.1: 90 002 > 60000; 2 of 2 combinations held"* ]] || false
}

@test "a range no version is in skips the claim and says so" {
	claims 'none holds rss_kb@done[allocator=jemalloc@>=6] < 1 "no such version"' \
		'no-libc holds rss_kb@done[libc>=2.50] < 1 "no such libc"'
	run -0 vcheck
	[[ "$output" == *"none     skipped (no run has allocator=jemalloc@>=6)"* ]] || false
	[[ "$output" == *"no-libc  skipped (no run has libc>=2.50)"* ]] || false
}

@test "a pinned version takes that version, the host's when it is the one" {
	claims 'fixed holds rss_kb@done[allocator=jemalloc@5.3.0] < 0.5 * rss_kb@done[allocator=jemalloc@5.2.1] "5.3.0 keeps a third of 5.2.1"'
	run -0 vcheck
	[[ "$output" == *"fixed  held  libc unset: RSS jemalloc 29.3 MiB vs jemalloc@5.2.1 87.9 MiB at done: 0.33x (claim: below 0.5x) held for both libcs"* ]] || false
	run -0 vcheck --verbose
	[[ "$output" == *"fixed  held  libc unset: 30 002 < 0.5 * 90 002 (45 001); 2 of 2 combinations held"* ]] || false
}

@test "reported since: reproducing before is as reported, reproducing after is news" {
	claims 'retains reported since jemalloc@5.3.0 rss_kb@done[allocator=jemalloc] > 1.5 * rss_kb@done[allocator=glibc] "fixed in 5.3.0"'
	run -0 vcheck
	[[ "$output" == *"since jemalloc@5.3.0: NEWS: reproduces on jemalloc@5.2.1 (before 5.3.0), as reported; does not reproduce on jemalloc (host 5.3.0), as reported since 5.3.0; reproduces on jemalloc@5.3.1: news, reported gone since 5.3.0"* ]] || false
	run -0 vcheck --format json
	[[ "$output" == *'"since": {"spec": "jemalloc@5.3.0", '*'"news": 1}'* ]] || false
}

@test "reported since with nothing newer reproducing is no news" {
	claims 'retains reported since jemalloc@5.3.1 rss_kb@done[allocator=jemalloc] > 2 * rss_kb@done[allocator=glibc] "gone in 5.3.1"'
	run -0 vcheck
	[[ "$output" == *"since jemalloc@5.3.1: does not reproduce on jemalloc@5.2.1 (before 5.3.1), though reported until 5.3.1; does not reproduce on jemalloc (host 5.3.0) (before 5.3.1), though reported until 5.3.1; does not reproduce on jemalloc@5.3.1, as reported since 5.3.1"* ]] || false
	[[ "$output" != *NEWS* ]] || false
}

@test "the upgrade table: per claim, its verdict at each version, old to new" {
	claims 'jem-small holds rss_kb@done[allocator=jemalloc] < 1.5 * rss_kb@done[allocator=glibc] "all versions"' \
		'libc-new holds rss_kb@done[allocator=glibc,libc>=2.41] < 30000 "libc range"' \
		'retains reported since jemalloc@5.3.0 rss_kb@done[allocator=jemalloc] > 1.5 * rss_kb@done[allocator=glibc] "fixed in 5.3.0"' \
		'glibc-only holds rss_kb@done[allocator=glibc,libc=2.36] < 60000 "not a version of jemalloc: no row"'
	run -1 vcheck
	[[ "$output" == *$'\n'"  versions  claim       jemalloc@5.2.1  jemalloc (host 5.3.0)  jemalloc@5.3.1  libc (host 2.36)    libc@2.41"$'\n'* ]] || false
	[[ "$output" == *$'\n'"            jem-small   regressed       held                   regressed       regressed           regressed"$'\n'* ]] || false
	[[ "$output" == *$'\n'"            libc-new    -               -                      -               -                   held"$'\n'* ]] || false
	[[ "$output" == *$'\n'"            retains     reproduces      does not reproduce     reproduces      does not reproduce  does not reproduce"$'\n'* ]] || false
	[[ "$output" == *$'\n'"            glibc-only  -               -                      -               held                -"$'\n'* ]] || false
}

@test "the upgrade table in json: the versions per case, a row per claim" {
	command -v jq >/dev/null || skip "jq is not installed"
	claims 'jem-small holds rss_kb@done[allocator=jemalloc] < 1.5 * rss_kb@done[allocator=glibc] "all versions"' \
		'libc-new holds rss_kb@done[allocator=glibc,libc>=2.41] < 30000 "libc range"'
	vcheck --format json > "$BATS_TEST_TMPDIR/j.json" || [ $? -eq 1 ]
	run -0 jq -c '.cases[0].versions | map(.label)' "$BATS_TEST_TMPDIR/j.json"
	[ "$output" = '["jemalloc@5.2.1","jemalloc (host 5.3.0)","jemalloc@5.3.1","libc (host 2.36)","libc@2.41"]' ]
	run -0 jq -c '.cases[0].versions | map([.of, .value, .version])' "$BATS_TEST_TMPDIR/j.json"
	[ "$output" = '[["jemalloc","jemalloc@5.2.1","5.2.1"],["jemalloc","jemalloc","5.3.0"],["jemalloc","jemalloc@5.3.1","5.3.1"],["libc",null,"2.36"],["libc","2.41","2.41"]]' ]
	run -0 jq -c '.cases[0].claims | map([.id, .upgrade])' "$BATS_TEST_TMPDIR/j.json"
	[ "$output" = '[["jem-small",["regressed","held","regressed","regressed","regressed"]],["libc-new",[null,null,null,null,"held"]]]' ]
}

@test "the upgrade table in TAP and in the report" {
	claims 'jem-small holds rss_kb@done[allocator=jemalloc] < 1.5 * rss_kb@done[allocator=glibc] "all versions"'
	run -1 vcheck --format tap
	[[ "$output" == *$'\n'"# versions: jemalloc@5.2.1 regressed, jemalloc (host 5.3.0) held, jemalloc@5.3.1 regressed, libc (host 2.36) regressed, libc@2.41 regressed"$'\n'* ]] || false
	run -1 timeout -k 5 60 "$MR" report --from "$R" --expected "$EXP" --plots "$ROOT/plots"
	grep -qx '### Across versions' "$R/report.md"
	grep -qxF '| `jem-small` | **regressed** | held | **regressed** | **regressed** | **regressed** |' "$R/report.md"
	grep -q 'Across versions' "$R/report.html"
}

@test "results with one version of each: no upgrade table, output as before" {
	run -0 timeout -k 5 60 "$MR" check --from "$ROOT/tests/data/results-held" --expected "$ROOT/tests/data/expected"
	[[ "$output" != *versions* ]] || false
	run -0 timeout -k 5 60 "$MR" check --from "$ROOT/tests/data/results-held" --expected "$ROOT/tests/data/expected" --format json
	[[ "$output" != *'"versions"'* ]] || false
	[[ "$output" != *'"upgrade"'* ]] || false
}

@test "libc named in a run without the libc axis is held against the host's" {
	printf '%s\n' 'host-libc holds rss_kb@cleared[libc<2.41,madvise=free] > 1 "the host has 2.36"' \
		'new-libc holds rss_kb@cleared[libc>=2.41] > 1 "not here"' > "$EXP/fixture-stacks.claims"
	run -0 timeout -k 5 60 "$MR" check --from "$ROOT/tests/data/results-held" --expected "$EXP"
	[[ "$output" == *"host-libc  held "* ]] || false
	[[ "$output" == *"new-libc   skipped (no run has libc>=2.41)"* ]] || false
}

@test "a malformed version is exit 2 naming file:line:column" {
	local c
	claims '# fine' 'x holds rss_kb@done[allocator=jemalloc@>=] < 1 "c"'
	run -2 vcheck
	[[ "$output" == *'vcase.claims:2:42: expected a version after >= (as in 5.2.1)'* ]] || false
	claims 'x holds rss_kb@done[allocator=jemalloc@sid] < 1 "c"'
	run -2 vcheck
	[[ "$output" == *'vcase.claims:1:40: "sid" is not a version: '* ]] || false
	claims 'x holds rss_kb@done[libc=>=2.41] < 1 "c"'
	run -2 vcheck
	[[ "$output" == *'vcase.claims:1:26: a libc range is written libc>=2.41, without "=" before it'* ]] || false
	claims 'x holds rss_kb@done[madvise<2] < 1 "c"'
	run -2 vcheck
	[[ "$output" == *'vcase.claims:1:28: only libc compares versions with <, <=, > and >='* ]] || false
	claims 'x holds rss_kb@done[allocator=@5.2] < 1 "c"'
	run -2 vcheck
	[[ "$output" == *'vcase.claims:1:31: expected an allocator name before "@"'* ]] || false
	claims 'x holds rss_kb@done[allocator=jemalloc@5.2.1, allocator=jemalloc@5.3.1] < 1 "c"'
	run -2 vcheck
	[[ "$output" == *'vcase.claims:1:47: parameter allocator named twice in one reference'* ]] || false
	claims 'x holds since jemalloc@5.3.0 rss_kb@done < 1 "c"'
	run -2 vcheck
	[[ "$output" == *'vcase.claims:1:9: only a reported claim says since which version it no longer reproduces'* ]] || false
	claims 'x reported since jemalloc rss_kb@done < 1 "c"'
	run -2 vcheck
	[[ "$output" == *'vcase.claims:1:26: expected "@VERSION" right after "jemalloc" (since jemalloc@5.3.0)'* ]] || false
	claims 'x reported since jemalloc@ rss_kb@done < 1 "c"'
	run -2 vcheck
	[[ "$output" == *'vcase.claims:1:27: expected a version after "@" (as in 5.2.1)'* ]] || false
	for c in human json tap junit; do
		run -2 vcheck --format "$c"
		[[ "$output" == *'vcase.claims:1:27: '* ]] || false
	done
}

@test "a combination the matrix does not have (each allocator under one glibc) is no combination; all of them missing is skipped" {
	# the versions profile's shape: glibc on both libcs, jemalloc@5.2.1
	# on the host's only, jemalloc@5.3.1 on 2.41 only
	awk -F'\t' -v OFS='\t' 'NR == 1 || ($2 !~ /jemalloc/) ||
		($2 ~ /jemalloc@5.2.1/ && $2 !~ /libc/) || ($2 ~ /jemalloc@5.3.1,libc=2.41/)' \
		"$R/runs.tsv" > "$R/r" && mv "$R/r" "$R/runs.tsv"
	claims 'jem-big holds rss_kb@done[allocator=jemalloc] > 1.5 * rss_kb@done[allocator=glibc] "each version beside its own glibc"'
	run -0 vcheck --verbose
	[[ "$output" == *"2 of 2 combinations held"* ]] || false
	[[ "$output" != *skipped* ]] || false
	# no combination at all: the claim is skipped, and says why
	claims 'jem-old holds rss_kb@done[allocator=jemalloc@5.2.1,libc=2.41] > rss_kb@done[allocator=glibc,libc=2.41] "absent"'
	run -0 vcheck --verbose
	[[ "$output" == *"jem-old"*"skipped (no config with allocator=jemalloc@5.2.1,libc=2.41 in the results)"* ]] || false
}

@test "unless NAME@[OP]VERSION: the configs of those versions are not the claim's; a malformed unless is exit 2 at its place" {
	claims 'jem-small holds unless jemalloc@>=5.2 rss_kb@done[allocator=jemalloc] < 1.5 * rss_kb@done[allocator=glibc] "not 5.2 on"'
	# 5.2.1 and 5.3.1 are left out: the host's 5.3.0 too (>= 5.2)
	run -0 vcheck --verbose
	[[ "$output" != *"jemalloc@5.2.1:"* ]] || false
	[[ "$output" != *"jemalloc@5.3.1:"* ]] || false
	claims 'jem-small holds unless jemalloc@>5.3 rss_kb@done[allocator=jemalloc] < 1.5 * rss_kb@done[allocator=glibc] "not after 5.3"'
	run -1 vcheck --verbose
	# 5.2.1 is the claim's (and fails it); 5.3.1 is not
	[[ "$output" == *"allocator=jemalloc@5.2.1: 90 002 < 1.5 * 50 002 (75 003) is false"* ]] || false
	[[ "$output" != *"jemalloc@5.3.1:"* ]] || false
	claims 'x holds unless jemalloc rss_kb@done < 1 "x"'
	run -2 vcheck
	[[ "$output" == *'vcase.claims:1:24: expected "@VERSION" right after "jemalloc" (unless mimalloc@>=3.6)'* ]] || false
	claims 'x holds unless libc@2.41 rss_kb@done < 1 "x"'
	run -2 vcheck
	[[ "$output" == *"vcase.claims:1:16: unless names an allocator"* ]] || false
	claims 'x holds unless jemalloc@>= rss_kb@done < 1 "x"'
	run -2 vcheck
	[[ "$output" == *"vcase.claims:1:27: expected a version after >="* ]] || false
}
