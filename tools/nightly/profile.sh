#!/bin/sh
# profile.sh PROFILE OUT [CASE|OPTION...]: a profile of its own, checked
# whole on this machine, once per config, -j nproc: originals (the
# reports' own programs on every runtime version beside their models),
# versions (every Debian release's allocators and glibcs) or kernels
# (Debian's kernels in qemu guests: tools/nightly/kvm.sh first).  Results in
# OUT, the JUnit file in OUT/junit.xml; exit status check's (1: a claim
# regressed or a run failed).
set -eu
. "$(dirname "$0")/lib.sh"
[ $# -ge 2 ] || die "usage: profile.sh originals|versions|kernels OUT [CASE|OPTION...]"
profile=$1 out=$2
shift 2
case $profile in originals | versions | kernels) ;; *) die "profile '$profile': originals, versions or kernels" ;; esac
{ [ ! -e "$out" ] && [ ! -L "$out" ]; } || die "$out exists"
t=$(beside "$out.junit.xml")
trap 'rm -f "$t"' EXIT
rc=0
# shellcheck disable=SC2046
"$MR" check --profile "$profile" --repeat 1 -j "$(nproc)" --quiet \
	$(cases_opt) $(expected_opt) --out "$out" --format junit "$@" >"$t" || rc=$?
if [ -d "$out" ] && [ ! -L "$out" ]; then put "$t" "$out/junit.xml"; fi
exit "$rc"
