#!/bin/sh
# night.sh HISTORY_DIR SITE RESULTS...: per platform's merged results, the
# night (NIGHT, default today's UTC date) into the history (history.sh),
# its report staged into SITE/<platform>/, the trend over its nights (trend.sh -> SITE/<platform>/trend) and the
# export files (export.sh -> SITE/<platform>/export).
set -eu
. "$(dirname "$0")/lib.sh"
[ $# -ge 3 ] || die "usage: night.sh HISTORY_DIR SITE RESULTS..."
h=$1 site=$2
shift 2
night=${NIGHT:-$(date -u +%F)}
plain NIGHT "$night"
here=$(dirname "$0")
for r in "$@"; do
	p=$(platform_of "$r")
	stage_report "$r" "$site"
	"$here/history.sh" "$h" "$r" "$night"
	"$here/trend.sh" "$h" "$p" "$site/$p/trend"
	"$here/export.sh" "$r" "$site/$p/export"
done
