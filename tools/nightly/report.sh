#!/bin/sh
# report.sh RESULTS [SITE]: report.md, report.html and plots/ into RESULTS;
# with SITE, copied to SITE/<platform>/ for publish.sh.
set -eu
. "$(dirname "$0")/lib.sh"
[ $# -ge 1 ] || die "usage: report.sh RESULTS [SITE]"
r=$1
rc=0
# shellcheck disable=SC2046
"$MR" report $(cases_opt) $(expected_opt) "$r" || rc=$?
# 1 (a regression, a failed run, as check; a chart not drawn): the report
# is written all the same, and published
[ "$rc" -le 1 ] || exit "$rc"
if [ $# -ge 2 ]; then stage_report "$r" "$2"; fi
exit "$rc"
