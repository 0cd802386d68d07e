#!/bin/sh
# shard.sh PLATFORM K N OUT [CASE|OPTION...]: shard K of N of the full
# profile (NIGHTLY_PROFILE) on this machine into OUT, -j nproc.  A failed
# run is in the results (run's exit 1): merge and check judge it.
set -eu
. "$(dirname "$0")/lib.sh"
[ $# -ge 4 ] || die "usage: shard.sh PLATFORM K N OUT [CASE|OPTION...]"
label=$1 k=$2 n=$3 out=$4
shift 4
profile=${NIGHTLY_PROFILE:-full}
plain NIGHTLY_PROFILE "$profile"
rc=0
# shellcheck disable=SC2046
"$MR" run --profile "$profile" --shard "$k/$n" -j "$(nproc)" --quiet \
	$(cases_opt) $(expected_opt) --out "$out" "$@" || rc=$?
[ "$rc" -le 1 ] || exit "$rc"
echo "$label: shard $k/$n of platform $(platform_of "$out") in $out"
