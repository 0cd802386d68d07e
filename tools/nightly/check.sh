#!/bin/sh
# check.sh RESULTS: the claims and baselines over RESULTS: RESULTS/junit.xml,
# the human table on stdout, the verdicts as markdown in
# $GITHUB_STEP_SUMMARY (when set), one ::error:: annotation per regressed
# claim, baseline row or failed run; exits as check does (1: regression).
# RESULTS/junit.xml is replaced by a rename, never written through a link.
set -eu
. "$(dirname "$0")/lib.sh"
[ $# -eq 1 ] || die "usage: check.sh RESULTS"
r=$1
real_dir "$r"
[ -d "$r" ] || die "$r: no such directory"
junit=$(beside "$r/junit.xml")
tmp=$(mktemp)
trap 'rm -f "$tmp" "$junit"' EXIT
rc=0
# shellcheck disable=SC2046
"$MR" check $(cases_opt) $(expected_opt) --from "$r" || rc=$?
[ "$rc" -le 1 ] || exit "$rc"
# shellcheck disable=SC2046
"$MR" check $(cases_opt) $(expected_opt) --from "$r" --format junit > "$junit" || true
put "$junit" "$r/junit.xml"
# shellcheck disable=SC2046
"$MR" check $(cases_opt) $(expected_opt) --from "$r" --format json > "$tmp" || true
python3 "$(dirname "$0")/summary.py" "$tmp" "${GITHUB_STEP_SUMMARY:-}"
exit "$rc"
