#!/bin/sh
# bench.sh: the runner's own cost and noise, measured side by side in one
# run, ending with a table of figures beside their goals.  Public tools
# only (/usr/bin/time; perf stat where it works).  Not part of make check.
#
#   sh bench/bench.sh            everything (about 5 minutes)
#   BENCH_CHECK=0 sh bench/bench.sh   without timing `make check`
#
# Figures:
#   overhead     a case's median wall and CPU (user+sys) time under the
#                runner sampling every 1 ms / run bare: goal <= 1.03
#   sample cost  one read of statm and of smaps_rollup at 0 and 20,000
#                mappings (bench/readcost.c maps them as fiber stacks do)
#   repeatability  coefficient of variation over 5 repeats of each metric
#                of each config of each case (quick profile): the median
#                and the worst, memory metrics goal <= 1 %, times <= 5 %
#   make check   wall time of `make check` on the built tree: goal < 90 s
set -eu
cd "$(dirname "$0")/.."
MR=build/memrepro
OUT=${BENCH_OUT:-$(mktemp -d /tmp/memrepro-bench.XXXXXX)}
CASE=${BENCH_CASE:-alloc-churn}
N=5
mkdir -p "$OUT"
make -s all >/dev/null
cc -O2 -std=c11 -Wall -Wextra -o "$OUT/readcost" bench/readcost.c

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# --- overhead: bare vs under the runner, the same case and config ---------
echo "== overhead: $CASE (quick, glibc), $N runs bare and $N under the runner at 1 ms"
args=$(build/cases/"$CASE" --describe |
	awk -F'\t' '$1 == "param" { printf "--param %s=%s ", $2, $4 }')
: > "$OUT/bare"
i=0
while [ $i -lt $N ]; do
	# %e wall s, %U %S CPU s (10 ms resolution: the case runs for seconds)
	/usr/bin/time -f '%e %U %S' -o "$OUT/t" build/cases/"$CASE" $args >/dev/null 2>&1
	cat "$OUT/t" >> "$OUT/bare"
	i=$((i + 1))
done
$MR run --cases build/cases --profile quick --axis allocator=glibc --interval 1 \
	--repeat $N -q --out "$OUT/under" "$CASE" >/dev/null
bare_wall=$(awk '{ print $1 * 1000 }' "$OUT/bare" | median)
bare_cpu=$(awk '{ print ($2 + $3) * 1000 }' "$OUT/bare" | median)
col() { awk -F'\t' -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) x[$i] = i; next } { print $(x[c]) }' "$1"; }
under_wall=$(col "$OUT/under/runs.tsv" wall_ms | median)
under_cpu=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) x[$i] = i; next } { print $(x["user_ms"]) + $(x["sys_ms"]) }' "$OUT/under/runs.tsv" | median)
samples=$(col "$OUT/under/runs.tsv" samples | median)
ov_wall=$(awk -v a="$under_wall" -v b="$bare_wall" 'BEGIN { printf "%.3f", a / b }')
ov_cpu=$(awk -v a="$under_cpu" -v b="$bare_cpu" 'BEGIN { printf "%.3f", a / b }')
echo "bare: wall $bare_wall ms, cpu $bare_cpu ms; runner: wall $under_wall ms, cpu $under_cpu ms, $samples samples"

# --- sampling cost vs mappings -----------------------------------------
echo "== sample cost: one read, microseconds"
"$OUT/readcost" 10000 | tee "$OUT/readcost.tsv"
statm0=$(awk 'NR == 2 { print $2 }' "$OUT/readcost.tsv")
statm20=$(awk 'NR == 3 { print $2 }' "$OUT/readcost.tsv")
roll0=$(awk 'NR == 2 { print $3 }' "$OUT/readcost.tsv")
roll20=$(awk 'NR == 3 { print $3 }' "$OUT/readcost.tsv")

# --- repeatability ------------------------------------------------------
echo "== repeatability: every case, quick profile, $N repeats"
start=$(date +%s)
$MR run --cases build/cases --profile quick --repeat $N -q --out "$OUT/rep" >/dev/null || true
rep_s=$(( $(date +%s) - start ))
# CV per (case, config, metric) over the ok repeats: population sd / mean,
# skipping means below the metric's resolution (0 kB, under 10 ms).
awk -F'\t' '
	FNR == 1 { for (i = 1; i <= NF; i++) x[$i] = i; file++; next }
	file == 1 && $(x["outcome"]) == "ok" {
		split("wall_ms user_ms sys_ms", tm, " "); split("maxrss_kb", mm, " ")
		for (j in tm) add("time", $1 "\t" $2 "\t" tm[j], $(x[tm[j]]))
		for (j in mm) add("mem", $1 "\t" $2 "\t" mm[j], $(x[mm[j]]))
	}
	file == 2 {
		split("rss_kb pss_kb anon_kb private_dirty_kb", cm, " ")
		for (j in cm) if ($(x[cm[j]]) != "-")
			add("mem", $1 "\t" $2 "\t" $(x["checkpoint"]) "#" $(x["seq"]) "\t" cm[j], $(x[cm[j]]))
	}
	function add(kind, k, v) { if (v == "-") return; K[k] = kind; n[k]++; s[k] += v; q[k] += v * v }
	END {
		for (k in n) if (n[k] >= 3) {
			mu = s[k] / n[k]; if (mu <= 0 || (K[k] == "time" && mu < 10)) continue
			var = q[k] / n[k] - mu * mu; if (var < 0) var = 0
			printf "%s\t%.3f\t%s\n", K[k], 100 * sqrt(var) / mu, k
		}
	}' "$OUT/rep/runs.tsv" "$OUT/rep/checkpoints.tsv" | sort -t '	' -k2,2g > "$OUT/cv.tsv"
cvstat() { awk -F'\t' -v k="$1" '$1 == k { print $2 }' "$OUT/cv.tsv" | median; }
cvmax() { awk -F'\t' -v k="$1" '$1 == k { m = $2 } END { print m + 0 }' "$OUT/cv.tsv"; }
cvover() { awk -F'\t' -v k="$1" -v g="$2" '$1 == k && $2 > g { n++ } $1 == k { t++ } END { printf "%d/%d", n, t }' "$OUT/cv.tsv"; }
mem_med=$(cvstat mem); mem_max=$(cvmax mem); mem_over=$(cvover mem 1)
t_med=$(cvstat time); t_max=$(cvmax time); t_over=$(cvover time 5)
echo "noisiest figures (kind, CV %, case, config, metric):"
tail -n 8 "$OUT/cv.tsv"

# --- make check ---------------------------------------------------------
check_s=-
if [ "${BENCH_CHECK:-1}" = 1 ]; then
	echo "== make check"
	start=$(date +%s)
	make check >"$OUT/check.log" 2>&1 && check_ok=passed || check_ok=FAILED
	check_s="$(( $(date +%s) - start )) ($check_ok)"
fi

echo
echo "== memrepro bench on $(nproc) CPUs, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), $(uname -r); files in $OUT"
printf '%-44s %-22s %s\n' figure measured goal
printf '%-44s %-22s %s\n' "overhead wall ($CASE, 1 ms sampling)" "$ov_wall" "<= 1.03"
printf '%-44s %-22s %s\n' "overhead CPU ($CASE, 1 ms sampling)" "$ov_cpu" "<= 1.03"
printf '%-44s %-22s %s\n' "statm read, 0 / 20,000 mappings (us)" "$statm0 / $statm20" "sampled every interval"
printf '%-44s %-22s %s\n' "smaps_rollup read, 0 / 20,000 mappings (us)" "$roll0 / $roll20" "checkpoints only"
printf '%-44s %-22s %s\n' "memory CV, median / worst (%)" "$mem_med / $mem_max" "<= 1"
printf '%-44s %-22s %s\n' "memory figures over 1 %" "$mem_over" "0"
printf '%-44s %-22s %s\n' "time CV, median / worst (%)" "$t_med / $t_max" "<= 5"
printf '%-44s %-22s %s\n' "time figures over 5 %" "$t_over" "0"
printf '%-44s %-22s %s\n' "quick profile, every case x $N repeats (s)" "$rep_s" "-"
printf '%-44s %-22s %s\n' "make check wall (s)" "$check_s" "< 90"
