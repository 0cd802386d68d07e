#!/usr/bin/env bats
# bless keeps another profile's rows: one baseline file holds the quick and
# the full profile's configs (each blessed from its own results), check of
# either compares its own, and --shard plans by the cost rows of both.

load test_helper

setup() {
	EXP=$BATS_TEST_TMPDIR/expected
	mkdir -p "$EXP"
}

# bless_mode MODE...: bless the fixture ok under glibc at those modes (a
# stand-in for a profile: configs the other blessing does not have).
bless_mode() {
	local axis
	axis=$(IFS=,; echo "$*")
	timeout -k 5 120 "$MR" bless --cases "$FIX" --expected "$EXP" \
		--out "$(mktemp -u "$BATS_TEST_TMPDIR/b-$axis.XXXX")" --axis allocator=glibc \
		--axis mode="$axis" --repeat 1 -q ok
}

# rows FILE MODE: how many rows (cost rows apart) of config mode=MODE.
rows() {
	awk -F'\t' -v c="allocator=glibc,mode=$2" '!/^#/ && $1 == c && $3 != "cost_ms"' "$1" | wc -l
}

@test "blessing other configs keeps the rows and cost rows of the configs blessed before" {
	run -0 bless_mode a
	f=$(ls "$EXP"/*/ok.tsv)
	na=$(rows "$f" a)
	[ "$na" -gt 0 ]
	[ "$(grep -c $'\tcost_ms\t' "$f")" -eq 1 ]
	run -0 bless_mode b c
	[[ "$output" == *"$na of the unchanged rows are of configs these results do not have (another profile's): kept"* ]] || false
	[ "$(rows "$f" a)" -eq "$na" ]
	[ "$(rows "$f" b)" -gt 0 ]
	[ "$(rows "$f" c)" -gt 0 ]
	[ "$(grep -c $'\tcost_ms\t' "$f")" -eq 3 ]
	# blessing a again replaces a's rows, keeps b's and c's
	run -0 bless_mode a
	[ "$(grep -c $'\tcost_ms\t' "$f")" -eq 3 ]
	[ "$(rows "$f" c)" -gt 0 ]
}

@test "check of one profile's configs compares those rows and leaves the others'" {
	run -0 bless_mode a
	run -0 bless_mode b c
	f=$(ls "$EXP"/*/ok.tsv)
	nbc=$(($(rows "$f" b) + $(rows "$f" c)))
	run -0 timeout -k 5 120 "$MR" check --cases "$FIX" --expected "$EXP" \
		--out "$BATS_TEST_TMPDIR/c" --axis allocator=glibc --axis mode=a --repeat 1 ok
	[[ "$output" == *"$nbc rows of 2 configs not run here: not compared"* ]] || false
	[[ "$output" == *"baseline $(rows "$f" a) held, 0 regressed"* ]] || false
}

@test "--shard plans by the cost rows of every profile blessed" {
	run -0 bless_mode a
	run -0 bless_mode b c
	f=$(ls "$EXP"/*/ok.tsv)
	# mode=a (of the first blessing) made far the dearest: a shard of its own
	awk -F'\t' -v OFS='\t' '!/^#/ && $3 == "cost_ms" && $1 ~ /mode=a/ { $4 = $5 = $6 = 100000 }
		{ print }' "$f" > "$f.new"
	mv "$f.new" "$f"
	run -0 timeout -k 5 120 "$MR" run --cases "$FIX" --expected "$EXP" \
		--axis allocator=glibc --repeat 1 -q --shard 2/2 --out "$BATS_TEST_TMPDIR/s2" ok
	[ "$(tsv_col "$BATS_TEST_TMPDIR/s2/env.tsv" value '$1 == "shard.cost"')" = "baseline wall_ms" ]
	[ "$(tsv_col "$BATS_TEST_TMPDIR/s2/runs.tsv" config | sort -u | tr '\n' ' ')" = "allocator=glibc,mode=b allocator=glibc,mode=c " ]
}
