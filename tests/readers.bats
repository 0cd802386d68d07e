#!/usr/bin/env bats
# Reading a results directory: in time linear in its rows (bench/rows.sh
# and bench/readers.sh measure it), stopped by SIGINT and SIGTERM at the
# next row, and the claims' evaluation after it at the next combination;
# strict about the repeats env.tsv says the run made.

# shellcheck disable=SC2154 # $stderr: set by bats' run --separate-stderr
load test_helper

# big DIR N: a synthetic results directory of N runs (bench/rows.sh).
big() {
	GEN_ONLY=1 sh "$ROOT/bench/rows.sh" "$2" "$1" >/dev/null
}

# reading DIR [CMD]: a runner's CMD (check) of --from DIR reads DIR's
# runs.tsv or checkpoints.tsv now.
reading() {
	local p f
	for p in $(pgrep -f -- "${2:-check} --from $1"); do
		for f in "/proc/$p/fd/"*; do
			case $(readlink "$f" 2>/dev/null) in
			"$1/runs.tsv" | "$1/checkpoints.tsv") return 0 ;;
			esac
		done
	done
	return 1
}

# interrupt_read CMD SIG STATUS: CMD (check or report) --from a big
# directory, sent SIG (to the runner itself) while it reads, exits STATUS
# within 10 s of it and writes nothing into the directory.
interrupt_read() {
	local d=$BATS_TEST_TMPDIR/big t0 t1
	big "$d" 400000
	t0=$(date +%s)
	run "-$3" --separate-stderr signal_when "$2" "reading $(printf %q "$d") $1" \
		"$MR" "$1" --from "$d" --expected "$NO_EXPECTED"
	t1=$(date +%s)
	echo "stderr: $stderr"
	[[ "$stderr" == *"interrupted by SIG$2 while reading it"* ]] || false
	[ $((t1 - t0)) -lt $((40 * SLOW)) ]
	[ "$(ls -A "$d")" = "$(printf '%s\n' checkpoints.tsv env.tsv runs.tsv)" ]
}

@test "SIGINT stops check --from while it reads the results: exit 130" {
	interrupt_read check INT 130
}

@test "SIGTERM stops check --from while it reads the results: exit 143" {
	interrupt_read check TERM 143
}

@test "SIGINT stops report while it reads the results: exit 130, nothing written" {
	interrupt_read report INT 130
}

@test "SIGTERM stops report while it reads the results: exit 143, nothing written" {
	interrupt_read report TERM 143
}

# evaluating PID DIR: process PID has read DIR's runs.tsv and
# checkpoints.tsv to their ends (its read bytes, /proc/PID/io's rchar, are
# their sizes or more) and holds neither open: it evaluates them.
evaluating() {
	local need rchar f
	need=$(($(stat -c %s "$2/runs.tsv") + $(stat -c %s "$2/checkpoints.tsv")))
	rchar=$(awk '$1 == "rchar:" { print $2 }' "/proc/$1/io" 2>/dev/null) || return 1
	[ -n "$rchar" ] && [ "$rchar" -ge "$need" ] || return 1
	for f in "/proc/$1/fd/"*; do
		case $(readlink "$f" 2>/dev/null) in
		"$2/runs.tsv" | "$2/checkpoints.tsv") return 1 ;;
		esac
	done
}

# eval_interrupt_check SIG STATUS: check --from a big directory with 100
# claims (seconds of evaluation after a second of reading), sent SIG once
# the reading is done, exits STATUS within 10 s of it, printing no
# verdicts.
eval_interrupt_check() {
	local d=$BATS_TEST_TMPDIR/big exp=$BATS_TEST_TMPDIR/exp i bg pid rc t0 t1
	big "$d" 100000
	mkdir "$exp"
	for i in $(seq 1 100); do
		printf 'returns-%d holds rss_kb@cleared[madvise=dontneed] < 0.6 * rss_kb@cleared[madvise=free] "copy %d"\n' "$i" "$i"
	done > "$exp/fixture-stacks.claims"
	timeout -k 10 300 "$MR" check --from "$d" --expected "$exp" \
		>"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" &
	bg=$!
	# the runner itself, as a terminal's ^C reaches it (not timeout)
	wait_for 10 pgrep -P "$bg" >/dev/null || true
	pid=$(pgrep -P "$bg" | head -n 1)
	[ -n "$pid" ] || { echo "check ended before it was signalled"; return 1; }
	wait_for 60 eval "evaluating $pid $(printf %q "$d") || ! kill -0 $pid 2>/dev/null" || true
	kill -0 "$pid" || { echo "check ended before it was signalled"; return 1; }
	t0=$(date +%s)
	kill -s "$1" "$pid"
	rc=0
	wait "$bg" || rc=$?
	t1=$(date +%s)
	echo "exit $rc after $((t1 - t0)) s; stderr:"
	cat "$BATS_TEST_TMPDIR/err"
	[ "$rc" -eq "$2" ]
	grep -q "interrupted by SIG$1 while evaluating it" "$BATS_TEST_TMPDIR/err"
	[ ! -s "$BATS_TEST_TMPDIR/out" ]
	[ $((t1 - t0)) -lt $((10 * SLOW)) ]
}

@test "SIGINT stops check --from while it evaluates the claims: exit 130 within seconds" {
	eval_interrupt_check INT 130
}

@test "SIGTERM stops check --from while it evaluates the claims: exit 143 within seconds" {
	eval_interrupt_check TERM 143
}

# cpu_s DIR: the CPU seconds (user + system) of check --from DIR with the
# fixture's claims and baseline, the least of three (another program's
# load only adds to it).
cpu_s() {
	local TIMEFORMAT='%U %S' i
	for i in 1 2 3; do
		{ time "$MR" check --from "$1" --expected "$ROOT/tests/data/expected" >/dev/null 2>&1 || true; } 2>&1
	done | awk '{ v = $1 + $2; if (NR == 1 || v < m) m = v } END { print m }'
}

@test "check --from with claims costs CPU time linear in the rows: 10 times the rows, under 30 times the time" {
	local small large
	# a cost of the plain build: under the sanitizers (make sanitize) three
	# checks of 200,000 rows took 10 CPU minutes and proved nothing more
	[ "$SLOW" -eq 1 ] || skip "CPU time of the plain build only (MEMREPRO_SLOW=$SLOW)"
	big "$BATS_TEST_TMPDIR/small" 20000
	big "$BATS_TEST_TMPDIR/large" 200000
	small=$(cpu_s "$BATS_TEST_TMPDIR/small")
	large=$(cpu_s "$BATS_TEST_TMPDIR/large")
	echo "20,000 rows: $small s; 200,000 rows: $large s"
	# a quadratic part made it 53 times (0.56 s, 29.8 s), linear 13 times
	# at load 8 (2026-12-06); CPU time, not wall: a busy machine's share
	# of the CPU is not the reader's cost
	awk -v s="$small" -v l="$large" 'BEGIN { exit !(l < 30 * (s > 0.05 ? s : 0.05)) }'
}
