#!/usr/bin/env bats
# memrepro run -- CMD: any command as a case (docs/command.md).

load test_helper

CMDFIX="$ROOT/tests/fixtures/command"

# mrc ARGS...: run a command, results into the test's tmpdir.
mrc() {
	timeout -k 5 120 "$MR" run --out "$BATS_TEST_TMPDIR/out" "$@"
}

@test "a command runs as a case: a row per allocator, its exit mark, the table and where the results are" {
	run -0 --separate-stderr mrc --repeat 2 --axis allocator=glibc -- "$CMDFIX/alloc.sh" 30
	out="$BATS_TEST_TMPDIR/out"
	[ "$(tsv_col "$out/runs.tsv" case)" = "$(printf 'alloc-sh\nalloc-sh')" ]
	[ "$(tsv_col "$out/runs.tsv" outcome)" = "$(printf 'ok\nok')" ]
	[ "$(tsv_col "$out/runs.tsv" config | sort -u)" = "allocator=glibc" ]
	# one exit mark per run, its RSS the 30 MiB bash holds and more
	[ "$(tsv_col "$out/checkpoints.tsv" checkpoint | sort | uniq -c | awk '{print $1, $2}')" = "2 exit" ]
	for kb in $(tsv_col "$out/checkpoints.tsv" rss_kb); do
		[ "$kb" -gt 30720 ] || false
	done
	# the exit mark is the last sample's (the program had exited): said in the log
	grep -q "mark exit: the program had exited; its memory is its last sample's" "$out"/logs/alloc-sh/*.1.log
	grep -q "held 31457280 bytes" "$out"/logs/alloc-sh/*.1.log
	# the table: its columns, a row per config with a spread, then where things are
	[[ "$output" == *"config"*"peak RSS"*"tree peak"*"RSS at end"*"wall"*"CPU"* ]] || false
	[[ "$(grep '^allocator=glibc' <<<"$output")" == *" MiB ±"*" MiB"* ]] || false
	[[ "$output" == *"against glibc, beyond noise"* ]] || false
	[[ "$output" == *"results: $out"* ]] || false
	[[ "$output" == *"report: $out/report.html"* ]] || false
	[ -s "$out/report.md" ]
}

@test "the default allocator axis is every allocator of the registry the machine has" {
	# the allocators a case runs under that are not skipped here
	run -0 mrf run touch --repeat 1
	have=$(tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" config '$4 == "ok"' | sed -n 's/.*allocator=\([^,]*\).*/\1/p' | sort -u)
	rm -rf "$BATS_TEST_TMPDIR/out"
	run -0 mrc --repeat 1 -- true
	got=$(tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" config | sed 's/allocator=//' | sort -u)
	[ -z "$(tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" outcome '$4 != "ok"')" ]
	for a in $have; do
		grep -qx "$a" <<<"$got" || { echo "missing $a in: $got"; false; }
	done
	grep -qx glibc <<<"$got"
}

@test "--mark-on: a mark at each matching output line, the lines logged; --mark-every: marks as it runs" {
	run -0 mrc --repeat 1 --axis allocator=glibc --mark-on '^phase: ' -- "$CMDFIX/marks.sh"
	out="$BATS_TEST_TMPDIR/out"
	[ "$(tsv_col "$out/checkpoints.tsv" checkpoint)" = "$(printf 'match\nmatch\nexit')" ]
	[ "$(tsv_col "$out/checkpoints.tsv" seq)" = "$(printf '1\n2\n1')" ]
	# the second phase comes 0.6 s after the first
	t=$(tsv_col "$out/checkpoints.tsv" t_ms '$4 == "match"' | tr '\n' ' ')
	awk -v a="${t% * }" -v b="${t#* }" 'BEGIN { exit !(b - a >= 500) }'
	grep -q "noise: not a phase" "$out"/logs/marks-sh/*.log
	grep -q "phase: two" "$out"/logs/marks-sh/*.log
	rm -rf "$out"
	run -0 mrc --repeat 1 --axis allocator=glibc --mark-every 100ms -- "$CMDFIX/marks.sh"
	n=$(tsv_col "$out/checkpoints.tsv" seq '$4 == "every"' | wc -l)
	[ "$n" -ge 4 ] || { echo "$n every marks"; false; }
	# in order, each seq one more, the times rising
	tsv_col "$out/checkpoints.tsv" seq '$4 == "every"' | awk '$1 != NR { exit 1 }'
	tsv_col "$out/checkpoints.tsv" t_ms '$4 == "every"' | awk 'NR > 1 && $1 <= p { exit 1 } { p = $1 }'
	[ "$(tsv_col "$out/checkpoints.tsv" checkpoint | tail -1)" = exit ]
}

@test "a program that speaks the protocol: its checkpoints, named by --checkpoints; undeclared, bad output" {
	run -0 mrc --repeat 1 --axis allocator=glibc --checkpoints loaded,cleared -- "$CMDFIX/proto.sh"
	out="$BATS_TEST_TMPDIR/out"
	[ "$(tsv_col "$out/checkpoints.tsv" checkpoint)" = "$(printf 'loaded\ncleared\nexit')" ]
	loaded=$(tsv_col "$out/checkpoints.tsv" rss_kb '$4 == "loaded"')
	cleared=$(tsv_col "$out/checkpoints.tsv" rss_kb '$4 == "cleared"')
	[ "$loaded" -gt 16384 ] && [ "$cleared" -lt $((loaded - 8192)) ] || false
	# measured while it waited: the runner's smaps figures are there
	[ "$(tsv_col "$out/checkpoints.tsv" pss_kb '$4 == "loaded"')" -gt 16000 ]
	rm -rf "$out"
	run -1 mrc --repeat 1 --axis allocator=glibc -- "$CMDFIX/proto.sh"
	[ "$(tsv_col "$out/runs.tsv" outcome)" = bad-output ]
	[[ "$(tsv_col "$out/runs.tsv" detail)" == *loaded* ]] || false
}

@test "a command that forks: its tree measured, what it leaves behind killed, nothing left running" {
	run -0 mrc --repeat 1 --axis allocator=glibc --mark-every 100ms -- "$CMDFIX/forks.sh" 9876.25
	out="$BATS_TEST_TMPDIR/out"
	[ "$(tsv_col "$out/runs.tsv" detail)" = "killed 1 leftover process" ]
	# two children holding 8 MiB each beside the parent
	[ "$(tsv_col "$out/runs.tsv" peak_tree_rss_kb)" -gt 16384 ]
	n=$(tsv_col "$out/checkpoints.tsv" tree_nproc '$4 == "every"' | sort -n | tail -1)
	[ "$n" -ge 4 ] || { echo "tree_nproc at most $n"; false; }
	grep -q "parent done" "$out"/logs/forks-sh/*.log
	[ -z "$(ps -e -o args= | grep -F 'sleep 9876.25' | grep -v grep)" ]
}

@test "a failing command: its verdict in the table and runs.tsv, exit 1; a command killed at its deadline is marked live" {
	run -1 --separate-stderr mrc --repeat 1 --axis allocator=glibc --name failing -- sh -c 'echo oops; exit 3'
	out="$BATS_TEST_TMPDIR/out"
	[ "$(tsv_col "$out/runs.tsv" outcome)" = failed ]
	[ "$(tsv_col "$out/runs.tsv" case)" = failing ]
	[[ "$output" == *"0 of 1 runs ok; failed: exit 3"* ]] || false
	[[ "$stderr" == *"# oops"* ]] || false
	rm -rf "$out"
	# one config failing, the other's two repeats drawn: no gnuplot warning
	# of an empty plot element reaches the user
	run -1 --separate-stderr mrc --repeat 2 --axis allocator=glibc,jemalloc --name half -- \
		sh -c 'case "$LD_PRELOAD" in *jemalloc*) exit 1 ;; esac; head -c 9000000 /dev/zero | tail -c 1'
	[ -s "$out/plots/half.series.png" ]
	[[ "$stderr" != *"gnuplot"* ]] || false
	rm -rf "$out"
	run -1 mrc --repeat 1 --axis allocator=glibc --timeout 0.5 -- sleep 5
	[ "$(tsv_col "$out/runs.tsv" outcome)" = timeout ]
	[ "$(tsv_col "$out/checkpoints.tsv" checkpoint)" = exit ]
	grep -q "mark exit at .* measured live" "$out"/logs/sleep/*.log
}

@test "the command is run without a shell: its arguments reach it as they are" {
	run -0 mrc --repeat 1 --axis allocator=glibc -- printf '%s|\n' '$HOME;*' 'a b'
	log=$(cat "$BATS_TEST_TMPDIR"/out/logs/printf/*.log)
	[[ "$log" == *'$HOME;*|'*'a b|'* ]] || false
}

@test "bad options of a command are exit 2 naming the parameter, before anything runs" {
	for args in "--name Bad_Name|--name 'Bad_Name'" "--mark-every 0s|--mark-every '0s'" \
		"--mark-every 5x|--mark-every '5x'" "--mark-on (|--mark-on '('" \
		"--checkpoints exit|'exit' is a mark's name" "--checkpoints A|bad name 'A'" \
		"--axis size=1,2|--axis size: a command has no parameters" \
		"--axis runtime=node|--axis runtime: a command has no parameters"; do
		opt=${args%%|*}
		# shellcheck disable=SC2086
		run -2 --separate-stderr mrc $opt -- true
		[[ "$stderr" == *"${args#*|}"* ]] || { echo "$opt: $stderr"; false; }
	done
	# a checkpoint name: the schema's rule, as a case's (63 characters)
	long=$(printf 'a%.0s' $(seq 64))
	run -2 --separate-stderr mrc --checkpoints "$long" -- true
	[[ "$stderr" == *"bad name '$long'; want [a-z0-9_-]{1,63}"* ]] || false
	run -2 --separate-stderr mrc -- no-such-command-here
	[[ "$stderr" == *"-- no-such-command-here: no executable of that name in PATH"* ]] || false
	run -2 --separate-stderr mrc --
	[[ "$stderr" == *"-- needs a command after it"* ]] || false
	run -2 --separate-stderr mrc touch -- true
	[[ "$stderr" == *"case names and a command exclude each other"* ]] || false
	run -2 --separate-stderr mrc --mark-every 1s touch
	[[ "$stderr" == *"--mark-every applies to a command only"* ]] || false
	[ ! -e "$BATS_TEST_TMPDIR/out" ]
	run -0 mrc --repeat 1 --axis allocator=glibc --checkpoints "${long%a}" -- true
}

@test "check --from, report and compare read a command's results" {
	run -0 mrc --repeat 1 --axis allocator=glibc --name mine --mark-every 50ms -- "$CMDFIX/marks.sh"
	out="$BATS_TEST_TMPDIR/out"
	run -0 timeout 60 "$MR" check --from "$out" --expected "$NO_EXPECTED"
	[[ "$output" == *"mine: no claims"* ]] || false
	run -0 timeout 60 "$MR" check --from "$out" --expected "$NO_EXPECTED" --format junit mine
	[[ "$output" == *"<testsuites"* ]] || false
	rm -f "$out/report.md"
	run -0 timeout 120 "$MR" report "$out" --expected "$NO_EXPECTED"
	grep -q "mine" "$out/report.md"
	run -0 timeout 60 "$MR" compare "$out" "$out" --no-charts --out "$BATS_TEST_TMPDIR/cmp"
	[[ "$output" == *"mine:"* ]] || false
}

@test "differences beyond noise against glibc: jemalloc's peak RSS over 4 repeats each" {
	run -0 mrc --repeat 1 --axis allocator=jemalloc -- true
	[ "$(tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" outcome)" = ok ] || skip "jemalloc is not installed"
	rm -rf "$BATS_TEST_TMPDIR/out"
	run -0 --separate-stderr mrc --repeat 4 --axis allocator=glibc,jemalloc -- "$CMDFIX/alloc.sh" 30
	diffs=$(sed -n '/^against glibc/,/^$/p' <<<"$output")
	[[ "$diffs" == *"allocator=jemalloc: peak RSS +"*"against"*"p=0.029"* ]] || { echo "$output"; false; }
	run -0 --separate-stderr mrc --repeat 3 --axis allocator=glibc,jemalloc --out "$BATS_TEST_TMPDIR/three" -- true
	[[ "$output" == *"none can be called: too few ok runs per config"* ]] || false
}

@test "a command's results are not resumed, nor does the kernel axis take a command: exit 2 saying so" {
	run -0 mrc --repeat 1 --axis allocator=glibc -- true
	run -2 --separate-stderr timeout 60 "$MR" run --resume "$BATS_TEST_TMPDIR/out"
	[[ "$stderr" == *"the runs of that directory were a command's (run -- CMD): run it again"* ]] || false
	run -2 --separate-stderr mrc --axis kernel=6.12 --out "$BATS_TEST_TMPDIR/k" -- true
	[[ "$stderr" == *"--axis kernel: the kernel axis does not run a command"* ]] || false
	[ ! -e "$BATS_TEST_TMPDIR/k" ]
}

@test "an interrupted command: 130, its tree killed, no --resume offered" {
	d="$BATS_TEST_TMPDIR/out"
	run -130 --separate-stderr signal_when INT "grep -q 'phase: one' $d/logs/*/*.log 2>/dev/null" \
		"$MR" run --repeat 1 --axis allocator=glibc --out "$d" -- sh -c 'echo "phase: one"; exec sleep 9876.75'
	[[ "$stderr" == *"interrupted by SIGINT: the runs that ended are in $d"* ]] || false
	[[ "$stderr" != *"--resume"* ]] || false
	[ -z "$(ps -e -o args= | grep -F 'sleep 9876.75' | grep -v grep)" ]
}

@test "a command's allocators chart sets its sampled peak RSS against glibc's, not its RSS at exit" {
	run -0 mrc --repeat 1 --axis allocator=glibc,jemalloc -- "$CMDFIX/alloc.sh" 8
	tsv=$BATS_TEST_TMPDIR/out/plots/allocators.tsv
	run -0 awk -F'\t' '!/^#/ && $3 == "jemalloc" { print $5 }' "$tsv"
	[ "$output" = peak_rss_kb ]
	grep -q "each command's peak RSS under each allocator" "$BATS_TEST_TMPDIR/out/plots/allocators.svg"
	# the row's noun, its spaces non-breaking
	grep -q ">sampled$(printf '\302\240')peak" "$BATS_TEST_TMPDIR/out/plots/allocators.svg"
}
