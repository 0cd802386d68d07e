#!/usr/bin/env bats
# fiber-stacks (seed 000): the phenomenon itself, on a small pool, measured
# through the runner: MADV_FREE keeps freed stacks in RSS as LazyFree,
# MADV_DONTNEED returns them, not freeing keeps them without LazyFree.

load test_helper

setup_file() {
	export FS_OUT="$BATS_FILE_TMPDIR/fs"
	timeout -k 5 120 "$MR" run fiber-stacks --out "$FS_OUT" --repeat 1 --axis runtime=c \
		--axis allocator=glibc --axis fibers=2000 --axis iterations=2 >/dev/null
}

# cleared-checkpoint figure of the last iteration for one madvise mode
at_cleared() {
	tsv_col "$FS_OUT/checkpoints.tsv" "$2" \
		'$(idx["checkpoint"]) == "cleared" && $(idx["seq"]) == 2 && $(idx["config"]) ~ /madvise='"$1"',/'
}
# Fail unless every argument is a figure (a number of KiB or a count):
# an empty one (a config or checkpoint not found) must not compare as 0.
figures() {
	local v
	for v in "$@"; do
		[[ "$v" =~ ^[0-9]+$ ]] || { echo "not a figure: '$v'"; false; }
	done
}
at_created() {
	tsv_col "$FS_OUT/checkpoints.tsv" "$2" \
		'$(idx["checkpoint"]) == "created" && $(idx["seq"]) == 2 && $(idx["config"]) ~ /madvise='"$1"',/'
}

@test "every mode ran to the end with both checkpoints of both iterations" {
	[ "$(tsv_col "$FS_OUT/runs.tsv" outcome | sort -u)" = ok ]
	[ "$(tsv_col "$FS_OUT/checkpoints.tsv" checkpoint | wc -l)" -eq 12 ]
}

@test "MADV_FREE: freed stacks stay in RSS, counted as LazyFree" {
	lazy=$(at_cleared free lazyfree_kb)
	echo "lazyfree_kb=$lazy"
	# each of 2,000 fibers dirtied at least one page that is freed
	[ "$lazy" -ge $((2000 * 4)) ]
	[ "$(at_cleared free rss_kb)" -ge $(($(at_created free rss_kb) * 95 / 100)) ]
}

@test "MADV_DONTNEED: RSS drops by what MADV_FREE keeps as LazyFree" {
	lazy=$(at_cleared free lazyfree_kb)
	created=$(at_created dontneed rss_kb)
	cleared=$(at_cleared dontneed rss_kb)
	figures "$lazy" "$created" "$cleared"
	drop=$((created - cleared))
	echo "drop=$drop lazyfree(free)=$lazy"
	[ "$drop" -ge $((lazy * 9 / 10)) ]
	[ "$(at_cleared dontneed lazyfree_kb)" -lt 1024 ]
}

@test "not freeing keeps RSS and has no LazyFree" {
	[ "$(at_cleared none lazyfree_kb)" -lt 1024 ]
	[ "$(at_cleared none rss_kb)" -ge $(($(at_created none rss_kb) * 95 / 100)) ]
}

@test "reusing stacks after MADV_DONTNEED refaults them: more minor faults than after MADV_FREE" {
	f_free=$(tsv_col "$FS_OUT/runs.tsv" minflt '$2 ~ /madvise=free,/')
	f_dn=$(tsv_col "$FS_OUT/runs.tsv" minflt '$2 ~ /madvise=dontneed,/')
	echo "minflt free=$f_free dontneed=$f_dn"
	figures "$f_free" "$f_dn"
	[ $((f_dn - f_free)) -ge 2000 ]
}

@test "run by hand, the case prints its checkpoints like the report printed its figures" {
	run -0 timeout 60 "$CASES/fiber-stacks" --param fibers=500 --param iterations=1 --param madvise=dontneed
	[[ "$output" == *"checkpoint created#1"* ]] || false
	[[ "$output" == *"checkpoint cleared#1"* ]] || false
}
