#!/bin/sh
# includes.sh: the quoted includes of the C files under DIR..., resolved
# as the compiler does (the including file's folder, then lib, then
# runner), one line each: "FILE LINE HEADER".  An include that resolves to
# no file of the tree (a system header, build/commit.h) is left out.
# Shared by tools/circles.sh and tools/layers.sh.
#
# Usage: tools/includes.sh DIR...   (from the top of the tree)
set -eu

find "$@" -type f \( -name '*.c' -o -name '*.h' \) | LC_ALL=C sort |
while IFS= read -r f; do
	dir=${f%/*}
	grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
	sed 's/^\([0-9]*\):[^"]*"\([^"]*\)".*/\1 \2/' |
	while read -r line inc; do
		for cand in "$dir/$inc" "lib/$inc" "runner/$inc"; do
			if [ -f "$cand" ]; then
				printf '%s %s %s\n' "$f" "$line" "$cand"
				break
			fi
		done
	done
done
