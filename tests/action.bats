#!/usr/bin/env bats
# The GitHub Action (action.yml) and its script, tools/action/gate.sh:
# the inputs become memrepro's arguments, the status passes through, the
# job's summary and the report directory get the table and check's JUnit.
# A stub runner records its argv; one test runs the real one.

load test_helper

GATE="$ROOT/tools/action/gate.sh"

setup() {
	STUB="$BATS_TEST_TMPDIR/stub"
	export STUB_LOG="$BATS_TEST_TMPDIR/argv"
	# the stub: each call's arguments one per line, then "--end--"; run
	# writes a runs.tsv under --out and prints a table; check prints XML
	cat > "$STUB" <<'SH'
#!/bin/bash
printf '%s\n' "$@" --end-- >> "$STUB_LOG"
if [ "$1" = run ]; then
	mkdir -p "$3"
	printf 'case\tconfig\trepeat\toutcome\nmy-prog\tallocator=glibc\t1\tok\n' > "$3/runs.tsv"
	echo "config  peak RSS"
	echo "allocator=glibc  10.0 MiB"
	exit "${STUB_RC:-0}"
fi
echo '<testsuites name="stub"/>'
exit "${STUB_RC:-0}"
SH
	chmod +x "$STUB"
	export MEMREPRO=$STUB
	export GITHUB_STEP_SUMMARY="$BATS_TEST_TMPDIR/summary.md"
	export GITHUB_OUTPUT="$BATS_TEST_TMPDIR/output"
	cd "$BATS_TEST_TMPDIR" || false
	unset MR_NAME MR_ALLOCATORS MR_LIBC MR_AXES MR_CLAIMS MR_EXPECTED MR_REPEAT MR_OPTIONS MR_REPORT_DIR
}

# The arguments of call N (1, 2, ...) of the stub, one per line.
call() {
	awk -v n="$1" '$0 == "--end--" { k++; next } k == n - 1' "$STUB_LOG"
}

@test "the inputs become run's arguments, the command after --; with claims, check's JUnit is asked for" {
	export MR_COMMAND='./my prog --n 10' MR_ALLOCATORS='glibc, jemalloc' MR_LIBC=2.36,2.41 \
		MR_AXES=$'glibc.malloc.arena_max=1,8\n\njemalloc.dirty_decay_ms=0' MR_CLAIMS=ci/mem.claims \
		MR_EXPECTED=ci/expected MR_REPEAT=4 MR_OPTIONS=$'--mark-on\n^done [0-9]+$' MR_REPORT_DIR=rep
	run -0 "$GATE"
	want=(run --out rep/results --repeat 4 --axis 'allocator=glibc,jemalloc' --axis 'libc=2.36,2.41'
		--axis 'glibc.malloc.arena_max=1,8' --axis jemalloc.dirty_decay_ms=0 --claims ci/mem.claims
		--expected ci/expected --mark-on '^done [0-9]+$' -- ./my prog --n 10)
	[ "$(call 1)" = "$(printf '%s\n' "${want[@]}")" ] || { diff <(call 1) <(printf '%s\n' "${want[@]}"); false; }
	# the name the runner chose, from runs.tsv
	want=(check --from rep/results --claims ci/mem.claims --expected ci/expected --format junit my-prog)
	[ "$(call 2)" = "$(printf '%s\n' "${want[@]}")" ] || { call 2; false; }
	[ "$(cat rep/junit.xml)" = '<testsuites name="stub"/>' ]
	[ "$(cat rep/summary.txt)" = "$(printf 'config  peak RSS\nallocator=glibc  10.0 MiB')" ]
	[[ "$output" == *"allocator=glibc  10.0 MiB"* ]] || false
}

@test "a command of several lines is one argument per line, blanks kept; no gate, no check; defaults" {
	export MR_COMMAND=$'python3\n-c\nx = [bytes(100) for _ in range(10)]\n' MR_NAME=py
	run -0 "$GATE"
	want=(run --out memrepro-report/results --repeat 5 --name py -- python3 -c 'x = [bytes(100) for _ in range(10)]')
	[ "$(call 1)" = "$(printf '%s\n' "${want[@]}")" ] || { call 1; false; }
	[ -z "$(call 2)" ]
	[ ! -e memrepro-report/junit.xml ]
}

@test "the status passes through; the summary and the step's outputs say it" {
	for rc in 0 1 2; do
		rm -rf memrepro-report "$GITHUB_STEP_SUMMARY" "$GITHUB_OUTPUT"
		STUB_RC=$rc MR_COMMAND='true' MR_CLAIMS=c.claims run -"$rc" "$GATE"
		grep -qx "status=$rc" "$GITHUB_OUTPUT"
		grep -qx "report-dir=memrepro-report" "$GITHUB_OUTPUT"
		grep -q '^## memrepro: my-prog$' "$GITHUB_STEP_SUMMARY"
		grep -q '^allocator=glibc  10.0 MiB$' "$GITHUB_STEP_SUMMARY"
	done
	grep -q '^bad input (exit 2)' "$GITHUB_STEP_SUMMARY"
	[[ "$output" == *"::error title=memrepro::my-prog: bad input (exit 2)"* ]] || false
}

@test "bad inputs are exit 2 before the runner is called" {
	MR_COMMAND='  ' run -2 --separate-stderr "$GATE"
	[[ "$stderr" == *"the command input is empty"* ]] || false
	MR_COMMAND=true MR_REPEAT=5x run -2 --separate-stderr "$GATE"
	[[ "$stderr" == *"repeat '5x': want a whole number"* ]] || false
	[ ! -e "$STUB_LOG" ]
}

@test "the real runner: a command gated by its claims, the report directory with results, JUnit and the table" {
	printf 'budget holds maxrss_kb < 262144 "256 MiB"\n' > mem.claims
	MEMREPRO=$MR MR_COMMAND="$ROOT/tests/fixtures/command/alloc.sh 10" MR_NAME=alloc \
		MR_ALLOCATORS=glibc MR_REPEAT=1 MR_CLAIMS=mem.claims run -0 timeout -k 5 120 "$GATE"
	[ -s memrepro-report/results/runs.tsv ]
	[ -s memrepro-report/results/report.md ]
	grep -q 'claim  budget' memrepro-report/summary.txt
	grep -q '<testcase classname="alloc" name="budget"' memrepro-report/junit.xml
	grep -q '^## memrepro: alloc$' "$GITHUB_STEP_SUMMARY"
	grep -q 'alloc: 1 claim held' "$GITHUB_STEP_SUMMARY"
}

@test "action.yml: a composite action calling the script with every input the script reads; the workflow linter passes it" {
	python3 -c 'import yaml' 2>/dev/null || skip "python3-yaml is not installed"
	run -0 python3 - "$ROOT/action.yml" "$GATE" <<'PY'
import re, sys, yaml
act = yaml.safe_load(open(sys.argv[1]))
script = open(sys.argv[2]).read()
assert act["runs"]["using"] == "composite"
steps = act["runs"]["steps"]
gate = [s for s in steps if s.get("id") == "gate"][0]
assert gate["run"].strip() == '"$GITHUB_ACTION_PATH/tools/action/gate.sh"', gate["run"]
# inputs reach the script as variables only (never pasted into a script)
for s in steps:
    assert "${{" not in s.get("run", ""), s["run"]
env = gate["env"]
for k, v in env.items():
    m = re.fullmatch(r"\$\{\{ inputs\.([a-z-]+)(?: \|\| '[a-z]+')? \}\}", v)
    assert m and m.group(1) in act["inputs"], (k, v)
    assert "${" + k in script or "$" + k in script, k
assert act["inputs"]["command"]["required"] is True
assert any(s.get("uses", "").startswith("actions/upload-artifact@") for s in steps)
print("ok", len(env))
PY
	[[ "$output" == "ok 11" ]] || false
	wf_lint="${XDG_CACHE_HOME:-$HOME/.cache}/memrepro/action-validator-0.6.0/node_modules/.bin/action-validator"
	[ -x "$wf_lint" ] || wf_lint="$HOME/.cache/memrepro/action-validator-0.6.0/node_modules/.bin/action-validator"
	[ -x "$wf_lint" ] || skip "no action-validator (make deps-lint)"
	run -0 "$wf_lint" "$ROOT/action.yml"
}
