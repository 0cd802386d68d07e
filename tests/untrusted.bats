#!/usr/bin/env bats
# A results directory may come from anywhere (a CI artifact, a tarball):
# every file of it is opened without following a link, must be a regular
# file inside it, and is read with a bound (docs/formats.md, "Reading a
# results directory").  Each test plants one attack in a copy of
# tests/data/results-regressed (its crashed run has the log logs/5.log,
# shown by tap and junit) and runs the readers on it.  Links, FIFOs and
# huge sparse files are made here: git holds none of them.

# shellcheck disable=SC2154 # $stderr: set by bats' run --separate-stderr
load test_helper

DATA="$ROOT/tests/data"
EXP="$DATA/expected"

# evil DIR: a copy of results-regressed that merge takes too (a shard 1/1
# with a series.tsv), its log logs/5.log left for the test to plant;
# SECRET: a file outside that no reader may show.
evil() {
	mkdir -p "$1/logs"
	cp "$DATA/results-regressed/"*.tsv "$1/"
	printf 'shard\t1/1\n' >> "$1/env.tsv"
	printf 'case\tconfig\trepeat\tt_ms\trss_kb\n' > "$1/series.tsv"
	SECRET=$BATS_TEST_TMPDIR/secret
	echo "the secret outside" > "$SECRET"
}

# limited OPTION VALUE CMD...: CMD under that ulimit, never longer than 30 s.
# A sanitizer build reserves terabytes of address space for its shadow
# memory: it gets no -v limit (the time limit stays).
limited() {
	local opt=$1 val=$2
	shift 2
	if [ "$opt" = -v ] && [[ "${MEMREPRO_BUILD:-build}" == *san* ]]; then
		timeout -k 5 30 "$@"
		return
	fi
	(ulimit "$opt" "$val" && exec timeout -k 5 30 "$@")
}

# tap DIR, junit DIR: check's formats, never longer than 30 s.
tap() {
	run -1 timeout -k 5 30 "$MR" check --from "$1" --expected "$EXP" --format tap
}
junit() {
	run -1 timeout -k 5 30 "$MR" check --from "$1" --expected "$EXP" --format junit
}

# merge_refused DIR LOG WHY: merge of shard DIR is exit 2 naming its log
# LOG and WHY, and makes no directory.
merge_refused() {
	run -2 --separate-stderr timeout -k 5 30 "$MR" merge --out "$BATS_TEST_TMPDIR/m" "$1"
	echo "stderr: $stderr"
	[ "$stderr" = "memrepro: merge: $1/logs/$2: $3: refusing to read it" ]
	[ ! -e "$BATS_TEST_TMPDIR/m" ]
}

@test "a log that links to a file outside: tap and junit show a note, never the file; merge refuses it" {
	r=$BATS_TEST_TMPDIR/r
	evil "$r"
	ln -s "$SECRET" "$r/logs/5.log"
	tap "$r"
	[[ "$output" == *"# log $r/logs/5.log"$'\n'"# (log not shown: not a regular file (a symbolic link))"* ]] || false
	[[ "$output" != *secret* ]] || false
	junit "$r"
	[[ "$output" == *"(log not shown: not a regular file (a symbolic link))"* ]] || false
	[[ "$output" != *secret* ]] || false
	merge_refused "$r" 5.log "not a regular file (a symbolic link)"
	# the same log as a regular file is shown and copied
	rm "$r/logs/5.log"
	echo "the log's own last line" > "$r/logs/5.log"
	tap "$r"
	[[ "$output" == *"# the log's own last line"* ]] || false
	run -0 timeout -k 5 30 "$MR" merge --out "$BATS_TEST_TMPDIR/m" "$r"
	cmp "$r/logs/5.log" "$BATS_TEST_TMPDIR/m/logs/5.log"
}

@test "a results file that links outside is refused by every reader, exit 2 naming it" {
	r=$BATS_TEST_TMPDIR/r
	evil "$r"
	for f in env.tsv runs.tsv checkpoints.tsv; do
		mv "$r/$f" "$BATS_TEST_TMPDIR/$f"
		ln -s "$BATS_TEST_TMPDIR/$f" "$r/$f"
		run -2 --separate-stderr timeout -k 5 30 "$MR" check --from "$r" --expected "$EXP"
		echo "$f: $stderr"
		[ "$stderr" = "$r/$f: not a regular file (a symbolic link): refusing to read it" ]
		rm "$r/$f"
		mv "$BATS_TEST_TMPDIR/$f" "$r/$f"
	done
	# env.tsv linked to another results' env.tsv, whose value would show
	sed 's/^kernel\t.*/kernel\tsecret-kernel/' "$r/env.tsv" > "$SECRET"
	rm "$r/env.tsv"
	ln -s "$SECRET" "$r/env.tsv"
	run -2 --separate-stderr timeout -k 5 60 "$MR" report --cases "$FIX" --expected "$EXP" "$r"
	echo "report: $stderr"
	[[ "$stderr" == *"$r/env.tsv: not a regular file (a symbolic link): refusing to read it"* ]] || false
	[ ! -e "$r/report.html" ]
	cp -r "$DATA/results-regressed" "$BATS_TEST_TMPDIR/old"
	run -2 --separate-stderr timeout -k 5 30 "$MR" compare --out "$BATS_TEST_TMPDIR/c" "$BATS_TEST_TMPDIR/old" "$r"
	[[ "$stderr" == *"$r/env.tsv: not a regular file (a symbolic link)"* ]] || false
	run -2 --separate-stderr timeout -k 5 30 "$MR" trend --out "$BATS_TEST_TMPDIR/t" "$BATS_TEST_TMPDIR/old" "$r"
	[[ "$stderr" == *"$r/env.tsv: not a regular file (a symbolic link)"* ]] || false
}

@test "a log that links to /dev/zero: tap and junit end at once in little memory, merge writes nothing" {
	r=$BATS_TEST_TMPDIR/r
	evil "$r"
	ln -s /dev/zero "$r/logs/5.log"
	# 300 MB of address space, 30 s: reading the link would take either
	run -1 limited -v 300000 "$MR" check --from "$r" --expected "$EXP" --format tap
	[[ "$output" == *"# (log not shown: not a regular file (a symbolic link))"* ]] || false
	run -1 limited -v 300000 "$MR" check --from "$r" --expected "$EXP" --format junit
	[[ "$output" == *"(log not shown: not a regular file (a symbolic link))"* ]] || false
	# at most 20 MiB written: a copy of /dev/zero stops at SIGXFSZ, not a full disk
	run -2 limited -f 20480 "$MR" merge --out "$BATS_TEST_TMPDIR/m" "$r"
	[[ "$output" == *"$r/logs/5.log: not a regular file (a symbolic link): refusing to read it"* ]] || false
	[ ! -e "$BATS_TEST_TMPDIR/m" ]
}

@test "a FIFO in place of a log: tap, junit and merge finish" {
	r=$BATS_TEST_TMPDIR/r
	evil "$r"
	mkfifo "$r/logs/5.log"
	tap "$r"
	[[ "$output" == *"# (log not shown: not a regular file (a FIFO))"* ]] || false
	junit "$r"
	[[ "$output" == *"(log not shown: not a regular file (a FIFO))"* ]] || false
	merge_refused "$r" 5.log "not a regular file (a FIFO)"
}

@test "a logs directory that links elsewhere: its logs are outside the results directory" {
	r=$BATS_TEST_TMPDIR/r
	evil "$r"
	rmdir "$r/logs"
	mkdir "$BATS_TEST_TMPDIR/elsewhere"
	cp "$SECRET" "$BATS_TEST_TMPDIR/elsewhere/5.log"
	ln -s "$BATS_TEST_TMPDIR/elsewhere" "$r/logs"
	tap "$r"
	[[ "$output" == *"# (log not shown: outside the results directory (logs is a symbolic link))"* ]] || false
	[[ "$output" != *secret* ]] || false
	junit "$r"
	[[ "$output" != *secret* ]] || false
	merge_refused "$r" 1.log "outside the results directory (logs is a symbolic link)"
}

@test "huge regular files: a runs.tsv past the cap is refused, a huge log costs only its tail" {
	r=$BATS_TEST_TMPDIR/r
	evil "$r"
	# a 4 GiB log, sparse: its tail is all that is read
	truncate -s 4G "$r/logs/5.log"
	printf '\nthe last line of a huge log\n' >> "$r/logs/5.log"
	run -1 limited -v 300000 "$MR" check --from "$r" --expected "$EXP" --format tap
	[[ "$output" == *"# log $r/logs/5.log"$'\n'"# the last line of a huge log"$'\n'* ]] || false
	# a runs.tsv of 300 MiB: refused before it is read
	truncate -s 300M "$r/runs.tsv"
	run -2 --separate-stderr limited -v 300000 "$MR" check --from "$r" --expected "$EXP"
	echo "stderr: $stderr"
	[ "$stderr" = "$r/runs.tsv: 300 MiB, more than the 256 MiB a results file may have: refusing to read it" ]
}

@test "negative and absurd figures in runs.tsv and checkpoints.tsv are exit 2 naming file:line:col" {
	local d want
	for d in negative-wall negative-maxrss checkpoint-negative absurd-size; do
		want=$(grep -F "| \`bad-results/$d\` |" "$DATA/README.md" | awk -F'`' '{print $4}')
		[ -n "$want" ]
		run -2 --separate-stderr "$MR" check --from "$DATA/bad-results/$d" --expected "$EXP"
		echo "$d: $stderr (want $want)"
		[ "$stderr" = "$DATA/bad-results/$d/$want" ]
		[ -z "$output" ]
	done
}

@test "--resume reads and appends to nothing through a link, and never writes a log through one" {
	r=$BATS_TEST_TMPDIR/r
	run -0 timeout -k 5 60 "$MR" run --cases "$FIX" --out "$r" ok --axis allocator=glibc --axis mode=a --repeat 2
	# env.tsv as a link to a copy outside: --resume would add its key there
	mv "$r/env.tsv" "$BATS_TEST_TMPDIR/env.tsv"
	cp "$BATS_TEST_TMPDIR/env.tsv" "$BATS_TEST_TMPDIR/env.orig"
	ln -s "$BATS_TEST_TMPDIR/env.tsv" "$r/env.tsv"
	run -2 --separate-stderr timeout -k 5 60 "$MR" run --resume "$r"
	echo "stderr: $stderr"
	[[ "$stderr" == *"$r/env.tsv: not a regular file (a symbolic link): refusing to read it"* ]] || false
	cmp "$BATS_TEST_TMPDIR/env.tsv" "$BATS_TEST_TMPDIR/env.orig"
	rm "$r/env.tsv"
	mv "$BATS_TEST_TMPDIR/env.tsv" "$r/env.tsv"
	# the second run as if interrupted: no runs.tsv row, a link at its log
	log=$(tsv_col "$r/runs.tsv" log 'NR == 3')
	[ -n "$log" ] && [ -f "$r/$log" ]
	sed -i 3d "$r/runs.tsv"
	echo precious > "$BATS_TEST_TMPDIR/victim"
	rm "$r/$log"
	ln -s "$BATS_TEST_TMPDIR/victim" "$r/$log"
	run -0 timeout -k 5 60 "$MR" run --resume "$r"
	[ "$(cat "$BATS_TEST_TMPDIR/victim")" = precious ]
	[ -f "$r/$log" ] && [ ! -L "$r/$log" ]
	[ "$(tsv_col "$r/runs.tsv" outcome 'NR > 1' | wc -l)" -eq 2 ]
}

@test "a repeat beyond env.tsv's repeat is exit 2 naming runs.tsv:line, for check and merge; merge writes nothing" {
	r=$BATS_TEST_TMPDIR/r
	evil "$r"
	# env.tsv: repeat 3; a fourth repeat of a config, figures of no run
	row=$(sed -n '6p' "$r/runs.tsv" | awk -F'\t' -v OFS='\t' '{ $3 = 4; $6 = 999999; $16 = "-"; print }')
	printf '%s\n' "$row" >> "$r/runs.tsv"
	line=$(wc -l < "$r/runs.tsv")
	run -2 --separate-stderr timeout -k 5 30 "$MR" check --from "$r" --expected "$EXP"
	echo "stderr: $stderr"
	[[ "$stderr" == *"$r/runs.tsv:$line:"*"repeat 4 of fixture-stacks, allocator=glibc,fibers=1000,madvise=free beyond env.tsv's repeat 3"* ]] || false
	run -2 --separate-stderr timeout -k 5 30 "$MR" merge --out "$BATS_TEST_TMPDIR/m" "$r"
	[[ "$stderr" == *"$r/runs.tsv:$line:"* ]] || false
	[ ! -e "$BATS_TEST_TMPDIR/m" ]
	[ -z "$(find "$BATS_TEST_TMPDIR" -maxdepth 1 -name '*merging*')" ]
}

@test "merge refuses two rows with one log and a log that is a hard link, writing nothing; a rerun then works" {
	r=$BATS_TEST_TMPDIR/r
	evil "$r"
	for i in 1 2 3 4 5 6; do echo "log $i" > "$r/logs/$i.log"; done
	# row 7 (repeat 3 of madvise=free) names row 6's log
	sed -i '7s|logs/6.log|logs/5.log|' "$r/runs.tsv"
	run -2 --separate-stderr timeout -k 5 30 "$MR" merge --out "$BATS_TEST_TMPDIR/m" "$r"
	echo "stderr: $stderr"
	[[ "$stderr" == *"$r/runs.tsv:7: log logs/5.log is the log of $r/runs.tsv:6 too"* ]] || false
	[ ! -e "$BATS_TEST_TMPDIR/m" ]
	sed -i '7s|logs/5.log|logs/6.log|' "$r/runs.tsv"
	# a hard link to a file outside: its other name is unknown, never copied
	rm "$r/logs/5.log"
	ln "$SECRET" "$r/logs/5.log"
	merge_refused "$r" 5.log "a hard link (2 names)"
	[ -z "$(find "$BATS_TEST_TMPDIR" -maxdepth 1 -name '*merging*')" ]
	rm "$r/logs/5.log"
	echo "log 5" > "$r/logs/5.log"
	run -0 timeout -k 5 30 "$MR" merge --out "$BATS_TEST_TMPDIR/m" "$r"
	cmp "$r/logs/6.log" "$BATS_TEST_TMPDIR/m/logs/6.log"
}

@test "merge refuses a shard with more pairs than its share of the plan (shard.pairs)" {
	r=$BATS_TEST_TMPDIR/r
	evil "$r"
	printf 'shard.pairs\t2/2\n' >> "$r/env.tsv"
	run -2 --separate-stderr timeout -k 5 30 "$MR" merge --out "$BATS_TEST_TMPDIR/m" "$r"
	echo "stderr: $stderr"
	[[ "$stderr" == *"$r/runs.tsv:8: case fixture-stacks config allocator=jemalloc,fibers=1000,madvise=dontneed is beyond the shard's share of the plan (env.tsv's shard.pairs: 2 pairs)"* ]] || false
	[ ! -e "$BATS_TEST_TMPDIR/m" ]
}
