# shellcheck shell=sh
# lib.sh: sourced by the nightly's scripts.  MEMREPRO (default
# build/memrepro), MEMREPRO_CASES and MEMREPRO_EXPECTED (--cases and
# --expected, for the local test) say what they run.
# shellcheck disable=SC2034 # used by the scripts that source this
MR=${MEMREPRO:-build/memrepro}
cases_opt() { if [ -n "${MEMREPRO_CASES:-}" ]; then printf '%s\n' --cases "$MEMREPRO_CASES"; fi; }
expected_opt() { if [ -n "${MEMREPRO_EXPECTED:-}" ]; then printf '%s\n' --expected "$MEMREPRO_EXPECTED"; fi; }
die() { echo "$0: $*" >&2; exit 2; }
# env_value DIR KEY: the value of KEY in DIR/env.tsv (first 64 KiB only).
env_value() { head -c 65536 "$1/env.tsv" | awk -F'\t' -v k="$2" '$1 == k { print $2; exit }'; }
# platform_of DIR: the results' platform key, refused unless a plain name.
platform_of() {
	p=$(env_value "$1" platform) || die "$1/env.tsv: cannot read"
	case $p in '' | *[!A-Za-z0-9._-]* | .*) die "$1/env.tsv: platform '$p' is not a plain name" ;; esac
	printf '%s\n' "$p"
}
# stage_report RESULTS SITE: RESULTS' report (report.md, report.html,
# plots/, junit.xml where there) into SITE/<platform>/.
stage_report() {
	sd=$2/$(platform_of "$1")
	mkdir -p "$sd"
	for f in report.md report.html plots junit.xml; do
		if [ -e "$1/$f" ]; then cp -R "$1/$f" "$sd/"; fi
	done
}
