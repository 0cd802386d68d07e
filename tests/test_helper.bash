# Shared set-up for memrepro's bats tests.
bats_require_minimum_version 1.5.0
# Tests run against the built tree: `make test` builds first.

ROOT="$(cd "$BATS_TEST_DIRNAME/.." && pwd)"
MR="$ROOT/build/memrepro"
FIX="$ROOT/build/fixtures"
CASES="$ROOT/build/cases"

# Run the runner on the fixture cases, never longer than a minute.
mr() {
	timeout -k 5 60 "$MR" "$@"
}

# mrf SUBCOMMAND ...: the runner on the fixtures, results into the test's tmpdir.
mrf() {
	local sub=$1
	shift
	timeout -k 5 120 "$MR" "$sub" --cases "$FIX" --out "$BATS_TEST_TMPDIR/out" "$@"
}

# Column value: tsv_col FILE COLUMN ROW_FILTER_AWK_EXPR -> prints the column of matching rows.
tsv_col() {
	awk -F'\t' -v col="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next }
		'"${3:-1}"' { print $(idx[col]) }' "$1"
}

# No process of process group $1 is left.
assert_group_gone() {
	local left
	left=$(ps -e -o pgid=,pid=,comm= | awk -v g="$1" '$1 == g')
	if [ -n "$left" ]; then
		echo "left over in group $1: $left"
		return 1
	fi
}
