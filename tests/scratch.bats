#!/usr/bin/env bats
# A run's own TMPDIR (proc/scratch.c): made before the case starts in the
# runner's TMPDIR, removed whole after its tree is reaped however it
# ended; those of runners killed outright removed by the next session,
# on proof that their runner is gone, and nothing else touched.

load test_helper

setup() {
	export TMPDIR="$BATS_TEST_TMPDIR/tmp"
	mkdir "$TMPDIR"
	OUTSIDE="$BATS_TEST_TMPDIR/outside"
	mkdir "$OUTSIDE"
	echo keep >"$OUTSIDE/file"
	WHERE="$BATS_TEST_TMPDIR/where"
}

# cmd_run TIMEOUT SCRIPT: SCRIPT under sh as a command's run, its $0 the
# file it says where its TMPDIR was in, its $1 the outside directory.
cmd_run() {
	run timeout -k 5 60 "$MR" run --repeat 1 --axis allocator=glibc --timeout "$1" \
		--out "$BATS_TEST_TMPDIR/o" -- sh -c "$2" "$WHERE" "$OUTSIDE"
}

# The script: a temporary directory of its own as mktemp makes it, a
# read-only directory, a link to the outside, then $1 (how it ends).
MESS='d=$(mktemp -d) && echo "$TMPDIR $d" >"$0" && touch "$d/x" &&
	mkdir "$TMPDIR/ro" && touch "$TMPDIR/ro/f" && chmod 0 "$TMPDIR/ro" &&
	ln -s "$1" "$TMPDIR/link" && ln -s "$1/file" "$TMPDIR/flink" && '

# no_scratch_left: the run's TMPDIR was its own (a memrepro- directory in
# ours), is gone, and ours holds nothing; the outside is whole.
no_scratch_left() {
	local scratch made
	read -r scratch made <"$WHERE"
	[[ "$scratch" == "$TMPDIR/memrepro-"*"-tmp."* ]] || { echo "TMPDIR was $scratch"; return 1; }
	[[ "$made" == "$scratch/"* ]] || { echo "mktemp made $made"; return 1; }
	[ ! -e "$scratch" ] || { echo "left: $(ls -laR "$scratch")"; return 1; }
	[ -z "$(ls -A "$TMPDIR")" ] || { echo "left in TMPDIR: $(ls -A "$TMPDIR")"; return 1; }
	[ "$(cat "$OUTSIDE/file")" = keep ] || { echo "outside/file was touched"; return 1; }
}

@test "a case killed at its deadline: its temporary files go with its TMPDIR, read-only ones too, links not followed" {
	cmd_run 1 "$MESS exec sleep 30"
	[ "$status" -eq 1 ] || { echo "status $status: $output"; return 1; }
	grep -q $'\ttimeout\t' "$BATS_TEST_TMPDIR/o/runs.tsv" || { cat "$BATS_TEST_TMPDIR/o/runs.tsv"; return 1; }
	no_scratch_left
}

@test "a case that ends by itself: its TMPDIR is removed as well" {
	cmd_run 30 "$MESS exit 0"
	[ "$status" -eq 0 ] || { echo "status $status: $output"; return 1; }
	no_scratch_left
}

# scratch_name PID START: a scratch directory's name for a runner of this
# pid namespace with that pid and start time.
scratch_name() {
	echo "memrepro-$1-p$(stat -L -c %i /proc/self/ns/pid)-t$(stat -L -c %i /proc/self/ns/time 2>/dev/null || echo 0)-s$2-tmp.AbC123"
}

@test "the next session removes the TMPDIRs of runners proved gone, and only those" {
	local gone live other link start
	sleep 0 &
	gone=$!
	wait "$gone"
	[ ! -e "/proc/$gone" ] || skip "pid $gone was taken again at once"
	gone=$(scratch_name "$gone" 12345)
	# a live runner's: this shell's pid and its true start time
	start=$(awk '{ sub(/.*\) /, ""); print $20 }' "/proc/$$/stat")
	live=$(scratch_name "$$" "$start")
	other=memrepro-redis.q8dgv2hq
	link=$(scratch_name 1 999)
	mkdir -p "$TMPDIR/$gone/sub" "$TMPDIR/$live" "$TMPDIR/$other"
	touch "$TMPDIR/$gone/sub/f" "$TMPDIR/$live/f" "$TMPDIR/$other/f"
	# a link named as a gone runner's directory: not followed
	ln -s "$OUTSIDE" "$TMPDIR/$link"
	run -0 timeout -k 5 60 "$MR" run --cases "$FIX" --out "$BATS_TEST_TMPDIR/o" ok \
		--axis allocator=glibc --repeat 1
	[ ! -e "$TMPDIR/$gone" ] || { echo "$gone left: $output"; return 1; }
	[[ "$output" == *"removed 1 temporary directory left in $TMPDIR by runners that are gone"* ]] || false
	[ -e "$TMPDIR/$live/f" ] || { echo "the live runner's was removed"; return 1; }
	[ -e "$TMPDIR/$other/f" ] || { echo "$other was removed"; return 1; }
	[ -L "$TMPDIR/$link" ] || { echo "the link was removed"; return 1; }
	[ "$(cat "$OUTSIDE/file")" = keep ] || { echo "outside/file was touched"; return 1; }
}
