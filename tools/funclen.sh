#!/bin/sh
# funclen.sh: list the C functions longer than a limit.
#
# Usage: tools/funclen.sh [-n LINES] [PATH...]   (default: -n 120 runner lib)
#
# Reads every .c and .h file under the paths (comments, strings,
# character literals and preprocessor lines set aside) and follows the
# braces: a brace opened at file scope after a parameter list ")" with no
# "=" before it opens a function; data (a table: "... = {"), struct,
# union and enum bodies are not functions.  A function's length is its
# lines from the opening brace to the closing one.  Prints
# "FILE:LINE: FUNCTION: N lines" for each longer than LINES, longest
# first, and exits 1; silent with status 0 when there is none.
set -eu

max=120
if [ "${1:-}" = "-n" ]; then
	max=$2
	shift 2
fi
[ $# -gt 0 ] || set -- runner lib

find "$@" -type f \( -name '*.c' -o -name '*.h' \) | LC_ALL=C sort |
while IFS= read -r f; do
	awk -v file="$f" -v max="$max" '
	# The line with comments, strings and character literals blanked,
	# carrying a comment open at its end over to the next line.
	function clean(s,    out, i, c, n, q) {
		out = ""
		n = length(s)
		for (i = 1; i <= n; i++) {
			c = substr(s, i, 1)
			if (incomment) {
				if (c == "*" && substr(s, i + 1, 1) == "/") {
					incomment = 0
					i++
				}
				continue
			}
			if (c == "/" && substr(s, i + 1, 1) == "*") {
				incomment = 1
				i++
				continue
			}
			if (c == "/" && substr(s, i + 1, 1) == "/")
				break
			if (c == "\"" || c == "\047") {
				q = c
				for (i++; i <= n; i++) {
					c = substr(s, i, 1)
					if (c == "\\")
						i++
					else if (c == q)
						break
				}
				out = out " "
				continue
			}
			out = out c
		}
		return out
	}
	{
		line = $0
		if (cont) {             # a preprocessor line continued
			cont = line ~ /\\$/
			next
		}
		if (!incomment && line ~ /^[ \t]*#/) {
			cont = line ~ /\\$/
			next
		}
		s = clean(line)
		n = length(s)
		for (i = 1; i <= n; i++) {
			c = substr(s, i, 1)
			if (c == "{") {
				if (depth == 0) {
					h = head
					gsub(/[ \t]+/, " ", h)
					isfn = h ~ /\)[ A-Za-z0-9_()]*$/ && h !~ /=/ &&
					       h !~ /(^|[^A-Za-z0-9_])(struct|union|enum)[ A-Za-z0-9_]*$/
					if (isfn) {
						name = h
						gsub(/__attribute__ ?\(\([^()]*(\([^()]*\))?[^()]*\)\)/, "", name)
						sub(/\(.*/, "", name)
						sub(/.*[^A-Za-z0-9_]/, "", name)
						start = NR
					}
				}
				depth++
				head = ""
			} else if (c == "}") {
				depth--
				if (depth == 0 && isfn) {
					len = NR - start + 1
					if (len > max)
						printf "%d\t%s:%d: %s: %d lines\n", len, file, start, name, len
					isfn = 0
				}
				if (depth == 0)
					head = ""
			} else if (depth == 0) {
				if (c == ";")
					head = ""
				else
					head = head c
			}
		}
		if (depth == 0)
			head = head " "
	}' "$f"
done | sort -t "$(printf '\t')" -k1,1nr | cut -f2- | awk '{ print } END { if (NR) { printf "%d function%s over %s lines (tools/funclen.sh)\n", NR, NR == 1 ? "" : "s", '"$max"'; exit 1 } }'
