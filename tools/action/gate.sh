#!/bin/bash
# gate.sh: the memory gate of the GitHub Action (action.yml at the top of
# the tree; docs/command.md, "In GitHub Actions").
#
# Runs `memrepro run -- CMD` under the matrix the inputs name, keeps the
# results, the report and check's JUnit in one directory (the artifact),
# appends the table and the verdicts to the job's summary, and exits with
# run's status: 0 all held, 1 a run, claim or baseline row failed, 2 bad
# input.  The inputs come as variables (never pasted into a script):
#
#   MR_COMMAND     the command: split at blanks, or one argument per line
#                  when it has several lines (required)
#   MR_NAME        --name
#   MR_ALLOCATORS  --axis allocator=...      MR_LIBC  --axis libc=...
#   MR_AXES        more KEY=V1,V2, one per line
#   MR_CLAIMS      --claims FILE             MR_EXPECTED  --expected DIR
#   MR_REPEAT      --repeat (default 5)
#   MR_OPTIONS     more memrepro options, one per line
#   MR_REPORT_DIR  the artifact's directory (default memrepro-report)
#   MEMREPRO       the runner (default: memrepro in PATH)
#   GITHUB_STEP_SUMMARY, GITHUB_OUTPUT  set by the runner of the job
set -u

mr=${MEMREPRO:-memrepro}
report=${MR_REPORT_DIR:-memrepro-report}

die() {
	echo "gate.sh: $*" >&2
	exit 2
}

# lines VAR: the non-blank lines of "$1" into the array LINES.
lines() {
	local l
	LINES=()
	while IFS= read -r l; do
		[[ $l =~ ^[[:space:]]*$ ]] || LINES+=("$l")
	done <<< "$1"
}

[ -n "${MR_COMMAND//[[:space:]]/}" ] || die "the command input is empty: give the command to measure"
if [[ $MR_COMMAND == *$'\n'* ]]; then
	lines "$MR_COMMAND"
	cmd=("${LINES[@]}")
else
	read -ra cmd <<< "$MR_COMMAND"
fi
repeat=${MR_REPEAT:-5}
[[ $repeat =~ ^[0-9]+$ ]] || die "repeat '$repeat': want a whole number"

args=(run --out "$report/results" --repeat "$repeat")
[ -n "${MR_NAME:-}" ] && args+=(--name "$MR_NAME")
[ -n "${MR_ALLOCATORS:-}" ] && args+=(--axis "allocator=${MR_ALLOCATORS// /}")
[ -n "${MR_LIBC:-}" ] && args+=(--axis "libc=${MR_LIBC// /}")
lines "${MR_AXES:-}"
for a in "${LINES[@]}"; do
	args+=(--axis "$a")
done
check=()
[ -n "${MR_CLAIMS:-}" ] && check+=(--claims "$MR_CLAIMS")
[ -n "${MR_EXPECTED:-}" ] && check+=(--expected "$MR_EXPECTED")
lines "${MR_OPTIONS:-}"
opts=("${LINES[@]}")

mkdir -p "$report" || die "cannot make the report directory $report"
"$mr" "${args[@]}" "${check[@]}" "${opts[@]}" -- "${cmd[@]}" | tee "$report/summary.txt"
rc=${PIPESTATUS[0]}

# The case name the results are under: --name, else the runner's choice.
name=${MR_NAME:-}
if [ -z "$name" ] && [ -s "$report/results/runs.tsv" ]; then
	name=$(awk -F'\t' 'NR == 2 { print $1; exit }' "$report/results/runs.tsv")
fi
# check's JUnit for the test reporter: the same verdicts, read again
if [ ${#check[@]} -gt 0 ] && [ -n "$name" ] && [ -s "$report/results/runs.tsv" ]; then
	"$mr" check --from "$report/results" "${check[@]}" --format junit "$name" \
		> "$report/junit.xml" || [ -s "$report/junit.xml" ] || rm -f "$report/junit.xml"
fi

case $rc in
0) verdict="passed" ;;
1) verdict="failed: a run, a claim or a baseline row (exit 1)" ;;
2) verdict="bad input (exit 2): see the step's log" ;;
*) verdict="stopped (exit $rc)" ;;
esac
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
	{
		printf '## memrepro: %s\n\n' "${name:-${cmd[0]}}"
		printf '%s\n\n' "$verdict"
		printf '~~~~text\n'
		cat "$report/summary.txt"
		printf '~~~~\n\n'
		printf 'The results, the report and its charts: the artifact of %s.\n' "$report"
	} >> "$GITHUB_STEP_SUMMARY"
fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then
	printf 'status=%s\nreport-dir=%s\n' "$rc" "$report" >> "$GITHUB_OUTPUT"
fi
[ "$rc" = 0 ] || echo "::error title=memrepro::${name:-${cmd[0]}}: $verdict"
exit "$rc"
