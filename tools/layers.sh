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

{
	printf '%s\n' "$folders" | sed 's/^/layer /'
	# shellcheck disable=SC2086 # the roots are words, one folder each
	find $roots -type f \( -name '*.c' -o -name '*.h' \) | LC_ALL=C sort |
	while IFS= read -r f; do
		dir=${f%/*}
		printf 'file %s %s\n' "$f" "$dir"
		grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
		sed 's/^\([0-9]*\):[^"]*"\([^"]*\)".*/\1 \2/' |
		while read -r line inc; do
			for cand in "$dir/$inc" "lib/$inc" "runner/$inc"; do
				if [ -f "$cand" ]; then
					printf 'inc %s %s %s %s\n' "$f" "$line" "$cand" "${cand%/*}"
					break
				fi
			done
		done
	done
} | awk -v layers="$layers" '
function norm(d) {
	while (sub(/\/[^\/]+\/\.\.\//, "/", d))
		;
	sub(/^\.\//, "", d)
	return d
}
# Depth-first search over the folders; a grey one met again closes a
# circle: the stack from it to the top.
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
			print "folder circle: " s " -> " v
			bad++
		} else if (!colour[v]) {
			visit(v)
		}
	}
	depth--
	colour[u] = 2
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
	b = norm($5)
	if (a == b || !(a in rank) || !(b in rank))
		next
	if (rank[b] > rank[a]) {
		print $2 ":" $3 ": includes " to ", and " b " is above " a
		bad++
	}
	if (!((a, b) in seen)) {
		seen[a, b] = 1
		if (!(a in nout)) { nout[a] = 0; order[++n] = a }
		if (!(b in nout)) { nout[b] = 0; order[++n] = b }
		out[a, ++nout[a]] = b
	}
}
END {
	for (k = 1; k <= n; k++)
		if (!colour[order[k]])
			visit(order[k])
	if (bad) {
		printf "%d problem%s with the folder order of %s (tools/layers.sh)\n", bad, bad == 1 ? "" : "s", layers
		exit 1
	}
}'
