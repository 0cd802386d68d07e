#!/usr/bin/env bats
# The runtime languages are one table (runner/matrix/langs.c): the error
# texts that list them are made from it; the help texts are prose written
# by hand, so these tests read the table's lists from those errors and
# fail when a help text leaves out a language the table has (or names one
# new does not offer).

load test_helper

# table_runtimes: the table's languages, one a line, from the --axis
# runtime error (made from the table).
table_runtimes() {
	run -2 --separate-stderr timeout -k 5 60 "$MR" run --cases "$FIX" --out "$BATS_TEST_TMPDIR/out" \
		--axis runtime=nosuch touch
	[[ $stderr == *"--axis runtime: bad value 'nosuch'; want c (the model), "* ]] || false
	printf '%s\n' "$stderr" | grep -o '[a-z0-9]*\[@VERSION\]' | sed 's/\[@VERSION\]$//'
}

@test "run --help names every runtime language of the table, LANG[@VERSION]" {
	langs=$(table_runtimes)
	[ "$(printf '%s\n' "$langs" | wc -l)" -ge 6 ]
	run -0 "$MR" run --help
	# the help wraps its lines: read it as one line
	help=$(printf '%s\n' "$output" | sed 's/^ *//' | tr '\n' ' ')
	for l in $langs; do
		[[ $help == *"${l}[@VERSION]"* ]] || { echo "run --help does not name ${l}[@VERSION]"; false; }
	done
}

@test "fetch's usage error gives an example of every runtime language of the table" {
	langs=$(table_runtimes)
	run -2 --separate-stderr "$MR" fetch
	for l in $langs; do
		[[ $stderr == *", $l@"* ]] || { echo "fetch needs: no example of $l: $stderr"; false; }
	done
}

@test "new: its --help and usage list the languages new offers, as its error does" {
	run -2 --separate-stderr "$MR" new demo --lang perl --cases "$BATS_TEST_TMPDIR/c"
	[[ $stderr == *"--lang 'perl': want c, "*" or sh"* ]] || false
	offered=${stderr#*want c, }
	offered=${offered% or sh*}
	bars="c|${offered//, /|}|sh"
	[[ $bars == "c|node|"*"|sh" ]] || false
	run -0 "$MR" new --help
	[[ $output == *"usage: memrepro new NAME [--lang $bars]"*"  --lang $bars"* ]] || false
	# its prose: "--lang node, ruby or python, the original"
	last=${offered##*, }
	[[ $output == *"--lang ${offered%, *} or $last, the original"* ]] || false
	run -0 "$MR" --help
	[[ $output == *"memrepro new NAME [--lang $bars]"* ]] || false
	run -2 --separate-stderr "$MR" new
	[[ $stderr == *"memrepro new NAME [--lang $bars]"* ]] || false
}
