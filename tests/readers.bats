#!/usr/bin/env bats
# Reading a results directory: in time linear in its rows (bench/rows.sh
# measures it), stopped by SIGINT and SIGTERM at the next row, and strict
# about the repeats env.tsv says the run made.

# shellcheck disable=SC2154 # $stderr: set by bats' run --separate-stderr
load test_helper

# big DIR N: a synthetic results directory of N runs (bench/rows.sh).
big() {
	GEN_ONLY=1 sh "$ROOT/bench/rows.sh" "$2" "$1" >/dev/null
}

# reading DIR: a runner reads DIR's runs.tsv or checkpoints.tsv now.
reading() {
	local p f
	for p in $(pgrep -f -- "check --from $1"); do
		for f in "/proc/$p/fd/"*; do
			case $(readlink "$f" 2>/dev/null) in
			"$1/runs.tsv" | "$1/checkpoints.tsv") return 0 ;;
			esac
		done
	done
	return 1
}

# interrupt_check SIG STATUS: check --from a big directory, sent SIG (to
# the runner itself) while it reads, exits STATUS within 10 s of it.
interrupt_check() {
	local d=$BATS_TEST_TMPDIR/big t0 t1
	big "$d" 400000
	t0=$(date +%s)
	run "-$2" --separate-stderr signal_when "$1" "reading $(printf %q "$d")" \
		"$MR" check --from "$d" --expected "$NO_EXPECTED"
	t1=$(date +%s)
	echo "stderr: $stderr"
	[[ "$stderr" == *"interrupted by SIG$1 while reading it"* ]] || false
	[ $((t1 - t0)) -lt $((40 * SLOW)) ]
}

@test "SIGINT stops check --from while it reads the results: exit 130" {
	interrupt_check INT 130
}

@test "SIGTERM stops check --from while it reads the results: exit 143" {
	interrupt_check TERM 143
}
