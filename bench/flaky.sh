#!/bin/sh
# flaky.sh: how often a verdict changes when nothing changed.  N quick
# checks of the corpus in a row on an idle machine, then N beside a busy
# CPU (another program's loop on CPU 0), each counting every verdict
# (claims, baseline rows, failed runs, skipped configs; the figures left
# out) that differs from the first check of its series.  A verdict that
# flips is a defect to be fixed at its cause: a bound the report does not
# support, a spread the tolerance does not cover, a case that races.
# Not part of make check (benchmarks print figures; tests assert).
#
#   sh bench/flaky.sh            20 idle, 20 busy (about 3.5 h on 2 CPUs:
#                                a quick check is ~4.3 min idle, ~6 min busy)
#   FLAKY_N=5 sh bench/flaky.sh  5 of each
#   FLAKY_BUSY=0                 the idle series only
#   FLAKY_IDLE=0                 the busy series only
#   FLAKY_OUT=DIR                keep the files there
#   FLAKY_CASES="a b"            these cases only (default: the corpus)
set -eu
cd "$(dirname "$0")/.."
MR=build/memrepro
N=${FLAKY_N:-20}
IDLE=${FLAKY_IDLE:-1}
BUSY=${FLAKY_BUSY:-1}
JOBS=$(nproc)
case $N in '' | *[!0-9]*) echo "flaky.sh: FLAKY_N must be a number, not '$N'" >&2; exit 2 ;; esac
[ "$N" -ge 2 ] || { echo "flaky.sh: FLAKY_N must be 2 or more" >&2; exit 2; }
case $IDLE$BUSY in
00) echo "flaky.sh: FLAKY_IDLE=0 and FLAKY_BUSY=0 leave nothing to run" >&2; exit 2 ;;
esac
OUT=${FLAKY_OUT:-$(mktemp -d /tmp/memrepro-flaky.XXXXXX)}
mkdir -p "$OUT"
make -s all >/dev/null
busy=
trap '[ -z "$busy" ] || kill "$busy" 2>/dev/null || true' EXIT INT TERM

# verdicts DIR: each verdict of a check of DIR on a line of its own,
# without its figures, sorted.
verdicts() {
	# shellcheck disable=SC2086 # FLAKY_CASES is a list of case names
	$MR check --from "$1" --format tap ${FLAKY_CASES:-} 2>/dev/null |
		grep -E '^(not )?ok ' |
		sed -e 's/^\(not ok\|ok\) [0-9]* /\1 /' -e 's/ (observed [^)]*)$//' \
			-e 's/ # SKIP .*/ # SKIP/' | sort
}

# series NAME: N checks in a row into $OUT/NAME.I; prints one line per check
# and leaves the count of changed verdicts in $OUT/NAME.changed.
series() {
	name=$1
	i=1
	: > "$OUT/$name.changes"
	while [ "$i" -le "$N" ]; do
		# shellcheck disable=SC2086
		$MR check --profile quick -j "$JOBS" -q --out "$OUT/$name.$i" ${FLAKY_CASES:-} \
			>/dev/null 2>&1 || true
		verdicts "$OUT/$name.$i" > "$OUT/$name.$i.v"
		changed=$(diff "$OUT/$name.1.v" "$OUT/$name.$i.v" | grep -c '^>' || true)
		diff "$OUT/$name.1.v" "$OUT/$name.$i.v" | grep '^[<>]' >> "$OUT/$name.changes" || true
		echo "$name check $i: $(wc -l < "$OUT/$name.$i.v") verdicts, $(grep -c '^not ok' "$OUT/$name.$i.v" || true) not ok, $changed differ from check 1"
		i=$((i + 1))
	done
	grep -c '^>' "$OUT/$name.changes" > "$OUT/$name.changed" || true
	if [ -s "$OUT/$name.changes" ]; then
		echo "$name: verdicts that changed (times seen):"
		sort "$OUT/$name.changes" | uniq -c | sort -rn
	fi
}

if [ "$IDLE" != 0 ]; then
	echo "== flaky: $N quick checks idle, -j $JOBS"
	series idle
fi
if [ "$BUSY" != 0 ]; then
	echo "== flaky: $N quick checks beside a busy CPU (a loop on CPU 0)"
	if command -v taskset >/dev/null; then
		taskset -c 0 sh -c 'while :; do :; done' &
	else
		sh -c 'while :; do :; done' &
	fi
	busy=$!
	series busy
	kill "$busy"
	busy=
fi

echo
echo "== memrepro flaky, $(git describe --always --dirty 2>/dev/null || echo '?'), on $(nproc) CPUs, Linux $(uname -r), THP $(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo '?'), $(date -u +%Y-%m-%d); files in $OUT"
printf '%-34s %s\n' series "verdicts that differ from the series' first check"
[ ! -f "$OUT/idle.changed" ] ||
	printf '%-34s %s of %s in %s checks\n' "idle" "$(cat "$OUT/idle.changed")" "$(wc -l < "$OUT/idle.1.v")" "$N"
[ ! -f "$OUT/busy.changed" ] ||
	printf '%-34s %s of %s in %s checks\n' "beside a busy CPU" "$(cat "$OUT/busy.changed")" "$(wc -l < "$OUT/busy.1.v")" "$N"
