#!/bin/sh
# circles.sh: fail when the include graph of runner/ and lib/ has a circle.
#
# Usage: tools/circles.sh [DIR...]   (default: runner lib)
#
# A module is a file without its extension (runner/proc/spawn.c and
# runner/proc/spawn.h are the module proc/spawn; lib/mr_case.[ch] lib/mr_case).
# Module A uses module B when a file of A has `#include "B.h"`: the quoted
# includes cc -MM follows, one level, resolved as the compiler does (the
# including file's folder, then -Ilib, then -Irunner).  System headers and
# headers outside the tree (build/commit.h) are not modules.  Prints each
# circle found, "circle: proc/spawn -> proto/record -> proc/spawn", and
# exits 1; silent with status 0 when there is none.
set -eu

[ $# -gt 0 ] || set -- runner lib

find "$@" -type f \( -name '*.c' -o -name '*.h' \) | LC_ALL=C sort |
while IFS= read -r f; do
	dir=${f%/*}
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
	while IFS= read -r inc; do
		for cand in "$dir/$inc" "lib/$inc" "runner/$inc"; do
			if [ -f "$cand" ]; then
				printf '%s %s\n' "$f" "$cand"
				break
			fi
		done
	done
done |
awk '
function module(path) {
	sub(/^\.\//, "", path)
	sub(/\.[ch]$/, "", path)
	sub(/^runner\//, "", path)
	return path
}
# Depth-first search; a grey node met again closes a circle: the stack
# from it to the top.
function visit(u,    i, v, j, s) {
	colour[u] = 1
	stack[++depth] = u
	for (i = 1; i <= nout[u]; i++) {
		v = out[u, i]
		if (colour[v] == 1) {
			s = v
			for (j = depth; j >= 1 && stack[j] != v; j--)
				;
			for (j++; j <= depth; j++)
				s = s " -> " stack[j]
			print "circle: " s " -> " v
			found++
		} else if (!colour[v]) {
			visit(v)
		}
	}
	depth--
	colour[u] = 2
}
{
	a = module($1); b = module($2)
	if (a == b || ((a, b) in seen))
		next
	seen[a, b] = 1
	if (!(a in nout)) { nout[a] = 0; order[++n] = a }
	if (!(b in nout)) { nout[b] = 0; order[++n] = b }
	out[a, ++nout[a]] = b
}
END {
	for (k = 1; k <= n; k++)
		if (!colour[order[k]])
			visit(order[k])
	if (found) {
		printf "%d include circle%s (tools/circles.sh): a module may not use one that uses it\n", found, found == 1 ? "" : "s"
		exit 1
	}
}'
