# Shared set-up for memrepro's bats tests.
bats_require_minimum_version 1.5.0
# Tests run against the built tree: `make test` builds first.

ROOT="$(cd "$BATS_TEST_DIRNAME/.." && pwd)"
# MEMREPRO_BUILD=build-san: the runner of `make sanitize` (cases and
# fixtures stay the plain build's: sanitizers would change their figures).
MR="$ROOT/${MEMREPRO_BUILD:-build}/memrepro"
FIX="$ROOT/build/fixtures"
CASES="$ROOT/build/cases"
# Slow environments (sanitizers) stretch the timeouts of tests that time.
SLOW=${MEMREPRO_SLOW:-1}

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

# No process whose pid is listed in a run's log ("pid N" lines) is alive
# (a zombie is dead: only its parent's wait is missing).
assert_log_pids_gone() {
	local p pids
	pids=$(grep -o 'pid [0-9]*' "$1" | awk '{print $2}')
	[ -n "$pids" ] || { echo "no pids in $1"; return 1; }
	for p in $pids; do
		if [ -e "/proc/$p" ] && [ "$(ps -o stat= -p "$p" | cut -c1)" != Z ]; then
			echo "pid $p of $1 is still alive: $(ps -o pid=,stat=,comm= -p "$p")"
			return 1
		fi
	done
}

# No memory cgroup the runner made (memrepro-<pid>-<n>, under the parent
# env.tsv names) is left once the run of results directory $1 is over.
assert_no_run_cgroups() {
	local parent left
	parent=$(awk -F'\t' '$1 == "memory_cgroup.parent" { print $2 }' "$1/env.tsv")
	[ -n "$parent" ] || return 0
	left=$(find "$parent" -maxdepth 1 -type d -name 'memrepro-*')
	if [ -n "$left" ]; then
		echo "cgroups left: $left"
		return 1
	fi
}
