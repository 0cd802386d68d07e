# shellcheck shell=sh
# lib.sh: sourced by the nightly's scripts.  MEMREPRO (default
# build/memrepro), MEMREPRO_CASES and MEMREPRO_EXPECTED (--cases and
# --expected, for the local test) say what they run.  What the scripts
# read (results, the history branch) may be hostile: they refuse links and
# non-regular files where they copy, write or prune, and exit 2 naming a
# variable that is not what it should be.
# shellcheck disable=SC2034 # used by the scripts that source this
MR=${MEMREPRO:-build/memrepro}
die() { echo "$0: $*" >&2; exit 2; }
# path_var NAME VALUE: VALUE, a path that goes unquoted into options
# ($(cases_opt)), refused with whitespace or glob characters in it.
path_var() {
	case $2 in *[[:space:]*?[]*) die "$1 '$2': a path without spaces or *?[ wanted" ;; esac
}
path_var MEMREPRO_CASES "${MEMREPRO_CASES:-}"
path_var MEMREPRO_EXPECTED "${MEMREPRO_EXPECTED:-}"
cases_opt() { if [ -n "${MEMREPRO_CASES:-}" ]; then printf '%s\n' --cases "$MEMREPRO_CASES"; fi; }
expected_opt() { if [ -n "${MEMREPRO_EXPECTED:-}" ]; then printf '%s\n' --expected "$MEMREPRO_EXPECTED"; fi; }
# plain WHAT NAME: NAME refused unless a plain file name ([A-Za-z0-9._-],
# not starting with a dot or a dash); WHAT names it in the message.
plain() { case $2 in '' | *[!A-Za-z0-9._-]* | [.-]*) die "$1 '$2' is not a plain name" ;; esac; }
# count_var NAME VALUE MIN: VALUE refused unless an integer (at most 9
# digits) >= MIN.
count_var() {
	case $2 in '' | *[!0-9]* | ??????????*) die "$1 '$2': an integer wanted" ;; esac
	[ "$2" -ge "$3" ] || die "$1 '$2': at least $3 wanted"
}
# regular FILE: refused unless a regular file (not a link, FIFO, directory).
regular() { { [ -f "$1" ] && [ ! -L "$1" ]; } || die "$1: not a regular file (a link or other): refused"; }
# real_dir DIR: refused if DIR is a link or exists as other than a directory.
real_dir() {
	[ ! -L "$1" ] || die "$1: a symbolic link: refused"
	[ ! -e "$1" ] || [ -d "$1" ] || die "$1: not a directory: refused"
}
# beside FILE: a new temporary file in FILE's directory, for put; FILE
# refused if it is a link or exists as other than a regular file.
beside() {
	[ ! -L "$1" ] || die "$1: a symbolic link: refused"
	[ ! -e "$1" ] || [ -f "$1" ] || die "$1: not a regular file: refused"
	real_dir "$(dirname -- "$1")"
	t=$(mktemp "$(dirname -- "$1")/.$(basename -- "$1").XXXXXX") || die "$1: cannot make a temporary file beside it"
	chmod "$(printf '%o' $((0666 & ~0$(umask))))" "$t"
	printf '%s\n' "$t"
}
# put TMP FILE: TMP (from beside) renamed over FILE, never through a link.
put() {
	if [ -L "$2" ]; then rm -f -- "$1"; die "$2: a symbolic link: refused"; fi
	mv -T -- "$1" "$2"
}
# html TEXT: TEXT escaped for HTML text and attribute values.
html() {
	printf '%s' "$1" | sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' \
		-e 's/"/\&quot;/g' -e "s/'/\&#39;/g"
}
# env_value DIR KEY: the value of KEY in DIR/env.tsv (first 64 KiB only).
env_value() { head -c 65536 "$1/env.tsv" | awk -F'\t' -v k="$2" '$1 == k { print $2; exit }'; }
# platform_of DIR: the results' platform key, refused unless a plain name.
platform_of() {
	regular "$1/env.tsv"
	p=$(env_value "$1" platform) || die "$1/env.tsv: cannot read"
	plain "$1/env.tsv: platform" "$p"
	printf '%s\n' "$p"
}
# no_links PATH: refused if PATH, or anything beneath it, is other than a
# regular file or directory (a link would copy what it points at).
no_links() {
	bad=$(find -P "$1" ! -type f ! -type d -print -quit)
	[ -z "$bad" ] || die "$bad: not a regular file or directory (a link or other): refused"
}
# stage_report RESULTS SITE: RESULTS' report (report.md, report.html,
# plots/, junit.xml where there) into SITE/<platform>/.
stage_report() {
	sd=$2/$(platform_of "$1")
	real_dir "$2"
	real_dir "$sd"
	mkdir -p "$sd"
	for f in report.md report.html plots junit.xml; do
		if [ -e "$1/$f" ] || [ -L "$1/$f" ]; then
			no_links "$1/$f"
			[ ! -L "$sd/$f" ] || die "$sd/$f: a symbolic link: refused"
			cp -RP -- "$1/$f" "$sd/"
		fi
	done
}
