#!/bin/sh
# report.sh RESULTS [SITE]: report.md, report.html and plots/ into RESULTS;
# with SITE, copied to SITE/<platform>/ for publish.sh.
set -eu
. "$(dirname "$0")/lib.sh"
[ $# -ge 1 ] || die "usage: report.sh RESULTS [SITE]"
r=$1
# shellcheck disable=SC2046
"$MR" report $(cases_opt) $(expected_opt) "$r"
if [ $# -ge 2 ]; then stage_report "$r" "$2"; fi
