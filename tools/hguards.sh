#!/bin/sh
# hguards.sh: check that each header's include guard says which header it is.
#
# Usage: tools/hguards.sh [PATH...]   (default: runner lib)
#
# The guard of every .h under the paths is its first #ifndef, defined by
# the #define on the next line, and reads MR_[PREFIX_]BASE_H, where BASE is
# the file's name without .h (and without lib's mr_) in capitals: a folder
# prefix may come before it (check/bless.h: MR_CHECK_BLESS_H), so a header
# moved to another folder keeps a good guard.  Two headers may not share a
# guard: the second would be empty wherever both are included.  Prints
# "FILE: ..." for each header that breaks a rule and exits 1; silent with
# status 0 when none does.
set -eu

[ $# -gt 0 ] || set -- runner lib
seen=$(mktemp)
trap 'rm -f "$seen"' EXIT

find "$@" -type f -name '*.h' | LC_ALL=C sort | {
	bad=0
	while IFS= read -r f; do
		base=${f##*/}
		base=${base%.h}
		base=${base#mr_}
		want=$(printf '%s' "$base" | tr 'a-z' 'A-Z' | tr -c 'A-Z0-9' '_')
		guard=$(awk '/^#ifndef[ \t]/ { print $2; exit }' "$f")
		if [ -z "$guard" ]; then
			echo "$f: no include guard (want MR_${want}_H)"
			bad=$((bad + 1))
			continue
		fi
		case $guard in
		MR_"$want"_H | MR_*_"$want"_H) ;;
		*)
			echo "$f: guard $guard, want MR_${want}_H or MR_<PREFIX>_${want}_H"
			bad=$((bad + 1))
			continue
			;;
		esac
		if ! awk -v g="$guard" '/^#ifndef[ \t]/ { getline; exit !($1 == "#define" && $2 == g) }' "$f"; then
			echo "$f: #ifndef $guard is not followed by #define $guard"
			bad=$((bad + 1))
		fi
		other=$(awk -v g="$guard" '$1 == g { print $2; exit }' "$seen")
		if [ -n "$other" ]; then
			echo "$f: guard $guard is $other's too"
			bad=$((bad + 1))
		fi
		echo "$guard $f" >>"$seen"
	done
	if [ "$bad" -gt 0 ]; then
		echo "$bad header$([ "$bad" -eq 1 ] || echo s) with a bad include guard (tools/hguards.sh)"
		exit 1
	fi
}
