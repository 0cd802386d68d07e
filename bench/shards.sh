#!/bin/sh
# shards.sh PROFILE N [MERGED_RESULTS]: how --shard K/N splits a profile.
# Planned (no run): each (case, config) pair of the profile (memrepro
# describe's matrix) costs its baseline's cost_ms row (else a wall_ms row
# without checkpoint, else the mean of the known ones, as session/plan.c), times
# REPEAT (default 3); the pairs are split as matrix/shard.c does (falling cost,
# each to the least loaded shard, ties the lower shard and the earlier pair).
# Prints each shard's pairs and planned cost, and the spread (max/min).
# Measured: given a merged results directory, each planned shard's sum of
# wall_ms over that directory's runs of its pairs, and the spread.
# PLATFORM (default: the merged results', else expected/'s first
# platform directory) picks expected/PLATFORM/; EXPECTED, MEMREPRO, REPEAT.  Benchmarks print figures; not part of make check.
#
#   sh bench/shards.sh full 4
#   sh bench/shards.sh full 4 results/merged
set -eu
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
	echo "usage: shards.sh PROFILE N [MERGED_RESULTS]" >&2
	exit 2
fi
profile=$1 n=$2 merged=${3-}
case $profile in quick|full) ;; *) echo "shards.sh: PROFILE: quick or full (describe's), not '$profile'" >&2; exit 2 ;; esac
case $n in ''|*[!0-9]*|0) echo "shards.sh: N: a positive integer, not '$n'" >&2; exit 2 ;; esac
if [ -n "$merged" ] && { [ ! -f "$merged/runs.tsv" ] || [ -L "$merged/runs.tsv" ]; }; then
	echo "shards.sh: $merged: no runs.tsv (or a link)" >&2
	exit 2
fi
top=$(cd "$(dirname "$0")/.." && pwd)
mr=${MEMREPRO:-$top/build/memrepro}
exp=${EXPECTED:-$top/expected}
repeat=${REPEAT:-3}
if [ -z "${PLATFORM-}" ]; then
	for p in "$exp"/*/; do
		PLATFORM=$(basename "$p")
		break
	done
	[ -n "$merged" ] && PLATFORM=$(awk -F'\t' '$1 == "platform" { print $2 }' "$merged/env.tsv")
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# pairs: case TAB config, in case order (memrepro list's, as the run's)
"$mr" list | cut -f1 | while read -r c; do
	"$mr" describe --profile "$profile" "$c" </dev/null |
		awk -v c="$c" '/^matrix \(profile/ { on = 1; next } on && /^  / { sub(/^  /, ""); print c "\t" $0; next } on { on = 0 }'
done >"$tmp/pairs"
for f in "$exp/$PLATFORM"/*.tsv; do
	[ -f "$f" ] || continue
	awk -F'\t' -v c="$(basename "$f" .tsv)" '$1 ~ /^#/ || $1 == "config" { next }
		$2 == "-" && $3 == "cost_ms" { print c "\t" $1 "\tcost\t" $4 }
		$2 == "-" && $3 == "wall_ms" { print c "\t" $1 "\twall\t" $4 }' "$f"
done >"$tmp/costs"
if [ -n "$merged" ]; then
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		$h["wall_ms"] != "-" { print $h["case"] "\t" $h["config"] "\tran\t" $h["wall_ms"] }' "$merged/runs.tsv" >>"$tmp/costs"
fi
awk -F'\t' -v n="$n" -v r="$repeat" -v p="$PLATFORM" -v m="$merged" '
	FNR == NR { k = $1 "\t" $2
		if ($3 == "cost") cost[k] = $4; else if ($3 == "wall" && !(k in cost)) wall[k] = $4
		else if ($3 == "ran") ran[k] += $4
		next }
	{ k = $1 "\t" $2; np++; key[np] = k
	  c = (k in cost) ? cost[k] : (k in wall) ? wall[k] : 0
	  if (c > 0) { known++; sum += c }; pc[np] = c }
	END {
		for (i = 1; i <= np; i++) if (pc[i] <= 0) pc[i] = known ? sum / known : 1
		for (i = 1; i <= np; i++) o[i] = i
		for (i = 2; i <= np; i++) { # insertion sort: falling cost, then earlier pair
			x = o[i]
			for (j = i - 1; j >= 1 && (pc[o[j]] < pc[x] || (pc[o[j]] == pc[x] && o[j] > x)); j--) o[j + 1] = o[j]
			o[j + 1] = x }
		for (i = 1; i <= np; i++) { b = 1
			for (s = 2; s <= n; s++) if (load[s] < load[b]) b = s
			load[b] += pc[o[i]]; cnt[b]++; if (key[o[i]] in ran) { meas[b] += ran[key[o[i]]]; nran++ } }
		printf "profile pairs %d, cost known for %d (platform %s), %d shards, x%d repeats\n", np, known, p, n, r
		for (s = 1; s <= n; s++) {
			printf "shard %d/%d: %d pairs, planned %.1f s", s, n, cnt[s], load[s] * r / 1000
			if (m != "") printf ", measured %.1f s", meas[s] / 1000
			printf "\n"
			if (s == 1 || load[s] > hi) hi = load[s]; if (s == 1 || load[s] < lo) lo = load[s]
			if (s == 1 || meas[s] > mhi) mhi = meas[s]; if (s == 1 || meas[s] < mlo) mlo = meas[s] }
		printf "planned spread (max/min): %.2f\n", (lo > 0 ? hi / lo : 0)
		if (known < np) printf "(%d pairs of unknown cost planned at the known ones'"'"' mean, %.2f s a run)\n", np - known, (known ? sum / known : 1) / 1000
		if (m != "") printf "measured spread (max/min): %.2f (%d pairs ran in %s)\n", (mlo > 0 ? mhi / mlo : 0), nran, m
	}' "$tmp/costs" "$tmp/pairs"
