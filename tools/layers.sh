#!/bin/sh
# layers.sh: fail when an include goes up the folder order, or the folders'
# include graph has a circle.
#
# Usage: tools/layers.sh [-f LAYERS]   (from the top of the tree; default
#        LAYERS: the file tools/layers beside this script)
#
# LAYERS names the folders, one a line, bottom to top ("#" comments).  Every
# .c and .h file under them is read; its quoted includes are resolved as the
# compiler does (the including file's folder, then lib, then runner).  A
# file may include a header of its own folder or of a lower one.  Prints
# "FILE:LINE: includes HEADER, and FOLDER is above FOLDER" for each include
# of a higher folder, "FOLDER: not in LAYERS" for a folder of sources the
# order does not name, "folder circle: A -> B -> A" for each circle among
# the folders, and exits 1; silent with status 0 when there is none.
set -eu

layers=$(dirname "$0")/layers
if [ "${1:-}" = "-f" ]; then
	layers=$2
	shift 2
fi
[ -r "$layers" ] || { echo "layers.sh: cannot read $layers" >&2; exit 2; }
folders=$(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$layers")
roots=$(printf '%s\n' "$folders" | cut -d/ -f1 | sort -u)

here=$(dirname "$0")
{
	printf '%s\n' "$folders" | sed 's/^/layer /'
	# shellcheck disable=SC2086 # the roots are words, one folder each
	find $roots -type f \( -name '*.c' -o -name '*.h' \) | LC_ALL=C sort |
	while IFS= read -r f; do
		printf 'file %s %s\n' "$f" "${f%/*}"
	done
	# shellcheck disable=SC2086
	sh "$here/includes.sh" $roots | sed 's/^/inc /'
} | awk -v layers="$layers" "$(cat "$here/graph.awk")"'
function norm(d) {
	while (sub(/\/[^\/]+\/\.\.\//, "/", d))
		;
	sub(/^\.\//, "", d)
	return d
}
$1 == "layer" { rank[$2] = ++nl; next }
$1 == "file" {
	d = norm($3)
	if (!(d in rank) && !(d in unknown)) {
		unknown[d] = 1
		print d ": not in " layers
		bad++
	}
	next
}
$1 == "inc" {
	from = norm($2); to = norm($4)
	a = from; sub(/\/[^\/]*$/, "", a)
	b = to; sub(/\/[^\/]*$/, "", b)
	if (a == b || !(a in rank) || !(b in rank))
		next
	if (rank[b] > rank[a]) {
		print $2 ":" $3 ": includes " to ", and " b " is above " a
		bad++
	}
	edge(a, b)
}
END {
	bad += circles("folder circle")
	if (bad) {
		printf "%d problem%s with the folder order of %s (tools/layers.sh)\n", bad, bad == 1 ? "" : "s", layers
		exit 1
	}
}'
