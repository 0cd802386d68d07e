#!/usr/bin/env bats
# Every parser's seed corpus and every input a fuzzer ever crashed it with
# (fuzz/regressions/<target>/) run through its fuzz target once: no crash,
# no hang.  Under `make sanitize` the targets are the ASan/UBSan builds.

load test_helper

FZ="$ROOT/${MEMREPRO_BUILD:-build}/fuzz"

replay() {
	local t=$1 inputs
	inputs=$(find "$ROOT/fuzz/corpus/$t" "$ROOT/fuzz/regressions/$t" -type f ! -name 'README*' | sort)
	[ -n "$inputs" ]
	# shellcheck disable=SC2086
	run -0 timeout -k 5 $((60 * SLOW)) "$FZ/$t" $inputs
}

@test "fuzz regressions and corpus: claims" { replay claims; }
@test "fuzz regressions and corpus: baseline" { replay baseline; }
@test "fuzz regressions and corpus: results directory" { replay results; }
@test "fuzz regressions and corpus: --describe" { replay describe; }
@test "fuzz regressions and corpus: checkpoint records" { replay record; }
@test "fuzz regressions and corpus: /proc status and smaps_rollup" { replay proc; }
@test "fuzz regressions and corpus: /proc children files" { replay children; }
@test "fuzz regressions and corpus: allocator registry" { replay registry; }
@test "fuzz regressions and corpus: figures files" { replay figures; }
