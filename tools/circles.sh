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

here=$(dirname "$0")
sh "$here/includes.sh" "$@" |
awk "$(cat "$here/graph.awk")"'
function module(path) {
	sub(/^\.\//, "", path)
	sub(/\.[ch]$/, "", path)
	sub(/^runner\//, "", path)
	return path
}
{
	a = module($1); b = module($3)
	if (a != b)
		edge(a, b)
}
END {
	found = circles("circle")
	if (found) {
		printf "%d include circle%s (tools/circles.sh): a module may not use one that uses it\n", found, found == 1 ? "" : "s"
		exit 1
	}
}'
