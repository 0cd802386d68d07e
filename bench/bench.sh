#!/bin/sh
# bench.sh: the runner's own cost and noise, measured side by side in one
# run, ending with a table of figures beside their goals.  Public tools
# only: perf stat where it works, else /usr/bin/time; git and make.
# Not part of make check (benchmarks print figures; tests assert).
#
#   sh bench/bench.sh                 everything but the long parts (~8 min)
#   BENCH_STABLE=10 sh bench/bench.sh   also 10 consecutive checks of the
#                                     corpus, counting verdict changes
#   BENCH_FULL=1 sh bench/bench.sh    also the full profile once, timed
#   BENCH_OUT=DIR                     keep the files there
#
# Figures:
#   overhead     a case's median wall and CPU (user+sys) time under the
#                runner / the same argv run bare (perf stat), rounds
#                interleaved so drift falls on both: sampling every 1 ms
#                (the goal's figure: <= 1.03), every 10 ms (the default),
#                and every 1 ms without a memory cgroup (what the cgroup
#                costs)
#   sample cost  one read of statm and of smaps_rollup at 0 and 20,000
#                mappings (bench/readcost.c maps them as fiber stacks do)
#   repeatability  coefficient of variation over 5 repeats of each metric
#                of each config of each case (quick profile, one run at a
#                time): the median and the worst, memory metrics goal
#                <= 1 %, times <= 5 %, then by case
#   make check   wall time of `make check` in a fresh clone of HEAD
#                (build included): goal < 90 s
#   stability    BENCH_STABLE checks of the quick corpus in a row, as
#                make check runs it: verdicts that differ from the first
#   full         BENCH_FULL: the full profile once, -j as make check
set -eu
cd "$(dirname "$0")/.."
MR=build/memrepro
OUT=${BENCH_OUT:-$(mktemp -d /tmp/memrepro-bench.XXXXXX)}
ROUNDS=7
N=5
JOBS=$(nproc)
mkdir -p "$OUT"
make -s all >/dev/null
cc -O2 -std=c11 -Wall -Wextra -o "$OUT/readcost" bench/readcost.c

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
col() { awk -F'\t' -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) x[$i] = i; next } { print $(x[c]) }' "$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

# bare ARGV...: "wall_ms cpu_ms" of one run of ARGV, not under the runner.
# Its checkpoint records go to /dev/null and its acks come from /dev/zero:
# the case does the work it does under the runner (by hand it would read
# smaps_rollup itself at each checkpoint, which the runner does while the
# case waits, off its clock), only nobody reads it.
if perf stat -x, -e duration_time,user_time,system_time -o "$OUT/perf" true 2>/dev/null; then
	timer="perf stat"
	bare() {
		MEMREPRO_CKPT_FD=3 MEMREPRO_ACK_FD=4 perf stat -x, -e duration_time,user_time,system_time -o "$OUT/perf" -- "$@" \
			>/dev/null 2>&1 3>/dev/null 4</dev/zero
		awk -F, '$3 == "duration_time" { w = $1 / 1e6 } $3 == "user_time" { u = $1 / 1e6 }
			$3 == "system_time" { s = $1 / 1e6 } END { printf "%.1f %.1f\n", w, u + s }' "$OUT/perf"
	}
else
	timer="/usr/bin/time (10 ms resolution)"
	bare() {
		MEMREPRO_CKPT_FD=3 MEMREPRO_ACK_FD=4 /usr/bin/time -f '%e %U %S' -o "$OUT/t" "$@" \
			>/dev/null 2>&1 3>/dev/null 4</dev/zero
		awk '{ printf "%.1f %.1f\n", $1 * 1000, ($2 + $3) * 1000 }' "$OUT/t"
	}
fi

# --- overhead: bare vs under the runner, the same argv ------------------
# Two kinds of case: alloc-churn maps and unmaps 10 MB buffers in a loop
# (a sample's read of statm takes the mmap lock the case's munmaps need);
# fiber-stacks switches among thousands of mapped stacks and checkpoints.
set -- \
	"alloc-churn --axis size=10000000 --axis fill=zero --axis total_mb=10000" \
	"fiber-stacks --axis madvise=free --axis fibers=4000 --axis iterations=10"
: > "$OUT/overhead.tsv"
for spec in "$@"; do
	name=${spec%% *}
	axes=${spec#* }
	# the exact argv the runner execs, from its verbose line
	# shellcheck disable=SC2086
	argv=$($MR run --cases build/cases --axis allocator=glibc $axes --repeat 1 -v \
		--out "$OUT/argv.$name" "$name" | sed -n 's/^# exec: \(.*\) > .*/\1/p')
	echo "== overhead: $name, $ROUNDS rounds of: bare ($timer), runner at 1 ms, 10 ms, 1 ms without cgroup"
	echo "   $argv"
	r=1
	while [ $r -le $ROUNDS ]; do
		# shellcheck disable=SC2086
		echo "$name bare $(bare $argv)" >> "$OUT/overhead.tsv"
		for v in "1 1" "10 1" "1 0"; do
			iv=${v% *}
			cg=${v#* }
			d=$OUT/ov.$name.$iv.$cg.$r
			# shellcheck disable=SC2086
			MEMREPRO_CGROUP=$cg $MR run --cases build/cases --axis allocator=glibc $axes \
				--interval "$iv" --repeat 1 -q --out "$d" "$name" >/dev/null
			echo "$name runner-$iv-ms$([ "$cg" = 0 ] && echo -nocg) $(col "$d/runs.tsv" wall_ms) $(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) x[$i] = i; next } { print $(x["user_ms"]) + $(x["sys_ms"]) }' "$d/runs.tsv") $(col "$d/runs.tsv" samples)" >> "$OUT/overhead.tsv"
		done
		r=$((r + 1))
	done
done
# median wall and CPU per (case, variant), and the ratios to bare
awk '{ print $1, $2 }' "$OUT/overhead.tsv" | sort -u > "$OUT/variants"
printf '%-14s %-20s %9s %9s %9s %9s\n' case how wall_ms cpu_ms wall/bare cpu/bare | tee "$OUT/overhead.txt"
while read -r c v; do
	w=$(awk -v c="$c" -v v="$v" '$1 == c && $2 == v { print $3 }' "$OUT/overhead.tsv" | median)
	u=$(awk -v c="$c" -v v="$v" '$1 == c && $2 == v { print $4 }' "$OUT/overhead.tsv" | median)
	bw=$(awk -v c="$c" '$1 == c && $2 == "bare" { print $3 }' "$OUT/overhead.tsv" | median)
	bu=$(awk -v c="$c" '$1 == c && $2 == "bare" { print $4 }' "$OUT/overhead.tsv" | median)
	printf '%-14s %-20s %9s %9s %9s %9s\n' "$c" "$v" "$w" "$u" "$(ratio "$w" "$bw")" "$(ratio "$u" "$bu")"
done < "$OUT/variants" | tee -a "$OUT/overhead.txt"
ovr() { awk -v c="$1" -v v=runner-1-ms -v k="$2" '$1 == c && $2 == v { print $(k == "wall" ? 5 : 6) }' "$OUT/overhead.txt"; }

# --- sampling cost vs mappings -----------------------------------------
echo "== sample cost: one read, microseconds"
"$OUT/readcost" 10000 | tee "$OUT/readcost.tsv"
statm0=$(awk 'NR == 2 { print $2 }' "$OUT/readcost.tsv")
statm20=$(awk 'NR == 3 { print $2 }' "$OUT/readcost.tsv")
roll0=$(awk 'NR == 2 { print $3 }' "$OUT/readcost.tsv")
roll20=$(awk 'NR == 3 { print $3 }' "$OUT/readcost.tsv")

# --- repeatability ------------------------------------------------------
echo "== repeatability: every case, quick profile, $N repeats, one run at a time"
# the hypervisor's steal over the run: time the VM wanted a CPU and waited
cpustat() { awk '$1 == "cpu" { t = 0; for (i = 2; i <= NF; i++) t += $i; print $9, t }' /proc/stat; }
st0=$(cpustat)
start=$(date +%s)
$MR run --cases build/cases --profile quick --repeat $N -q --out "$OUT/rep" >/dev/null || true
rep_s=$(( $(date +%s) - start ))
steal=$(echo "$st0 $(cpustat)" | awk '{ printf "%.1f", 100 * ($3 - $1) / ($4 - $2) }')
# CV per (case, config, metric) over the ok repeats: population sd / mean,
# skipping means below the metric's resolution (0 kB, under 10 ms).
awk -F'\t' '
	FNR == 1 { for (i = 1; i <= NF; i++) x[$i] = i; file++; next }
	file == 1 && $(x["outcome"]) == "ok" {
		split("wall_ms user_ms sys_ms", tm, " "); split("maxrss_kb", mm, " ")
		for (j in tm) add("time", $1 "\t" $2 "\t" tm[j], $(x[tm[j]]))
		# user and sys apart are how the kernel split the run time by
		# tick samples; their sum is exact
		if ($(x["user_ms"]) != "-")
			add("time", $1 "\t" $2 "\tcpu_ms", $(x["user_ms"]) + $(x["sys_ms"]))
		for (j in mm) add("mem", $1 "\t" $2 "\t" mm[j], $(x[mm[j]]))
	}
	file == 2 {
		split("rss_kb pss_kb anon_kb private_dirty_kb", cm, " ")
		for (j in cm) if ($(x[cm[j]]) != "-")
			add("mem", $1 "\t" $2 "\t" cm[j] "@" $(x["checkpoint"]) "#" $(x["seq"]), $(x[cm[j]]))
	}
	function add(kind, k, v) { if (v == "-") return; K[k] = kind; n[k]++; s[k] += v; q[k] += v * v }
	END {
		for (k in n) if (n[k] >= 3) {
			mu = s[k] / n[k]; if (mu <= 0 || (K[k] == "time" && mu < 10)) continue
			var = q[k] / n[k] - mu * mu; if (var < 0) var = 0
			printf "%s\t%.3f\t%.0f\t%s\n", K[k], 100 * sqrt(var) / mu, mu, k
		}
	}' "$OUT/rep/runs.tsv" "$OUT/rep/checkpoints.tsv" | sort -t '	' -k2,2g > "$OUT/cv.tsv"
cvstat() { awk -F'\t' -v k="$1" '$1 == k { print $2 }' "$OUT/cv.tsv" | median; }
cvmax() { awk -F'\t' -v k="$1" '$1 == k { m = $2 } END { print m + 0 }' "$OUT/cv.tsv"; }
cvover() { awk -F'\t' -v k="$1" -v g="$2" '$1 == k && $2 > g { n++ } $1 == k { t++ } END { printf "%d/%d", n, t }' "$OUT/cv.tsv"; }
mem_med=$(cvstat mem); mem_max=$(cvmax mem); mem_over=$(cvover mem 1)
t_med=$(cvstat time); t_max=$(cvmax time); t_over=$(cvover time 5)
# memory figures over 1 % whose spread is under 1 MiB: noise in absolute
# terms (a small process's PSS shares library pages with what else runs)
mem_small=$(awk -F'\t' '$1 == "mem" && $2 > 1 && $2 * $3 / 100 < 1024 { n++ } END { print n + 0 }' "$OUT/cv.tsv")
echo "by case (median / worst CV %, figures over the goal): memory, time"
awk -F'\t' '
	{ c = $4; k = $1; v[k, c, ++n[k, c]] = $2; cs[c] = 1; over[k, c] += ($1 == "mem" ? $2 > 1 : $2 > 5) }
	END {
		for (c in cs) {
			line = sprintf("  %-18s", c)
			for (ki = 1; ki <= 2; ki++) {
				k = ki == 1 ? "mem" : "time"; m = n[k, c]
				med = m ? v[k, c, int((m + 1) / 2)] : 0; mx = m ? v[k, c, m] : 0
				line = line sprintf("  %-6s %7.3f / %7.3f  %d/%d", k, med, mx, over[k, c], m)
			}
			print line
		}
	}' "$OUT/cv.tsv" | sort | tee "$OUT/cv-by-case.txt"
echo "time CV by kind of figure (median / worst %, figures):"
awk -F'\t' '$1 == "time" {
		k = $5 ~ /thp=always/ ? "THP always" : $3 < 100 ? "under 100 ms" : "100 ms or more"
		print k " " $6 "\t" $2
	}' "$OUT/cv.tsv" | sort -t '	' -k1,1 -k2,2g |
	awk -F'\t' '{ v[$1, ++n[$1]] = $2 } END { for (k in n) printf "  %-30s %7.3f / %7.3f  %d\n", k, v[k, int((n[k] + 1) / 2)], v[k, n[k]], n[k] }' |
	sort | tee "$OUT/cv-time.txt"
long_cpu=$(awk -F'\t' '$1 == "time" && $5 !~ /thp=always/ && $3 >= 100 && $6 == "cpu_ms" { print $2 }' "$OUT/cv.tsv" | median)
long_wall=$(awk -F'\t' '$1 == "time" && $5 !~ /thp=always/ && $3 >= 100 && $6 == "wall_ms" { print $2 }' "$OUT/cv.tsv" | median)
echo "noisiest memory figures (CV %, mean, case, config, metric):"
awk -F'\t' '$1 == "mem"' "$OUT/cv.tsv" | tail -n 6 | cut -f2-
echo "noisiest times:"
awk -F'\t' '$1 == "time"' "$OUT/cv.tsv" | tail -n 4 | cut -f2-

# --- make check in a fresh clone ------------------------------------------
echo "== make check in a fresh clone of HEAD"
rm -rf "$OUT/clone"
git clone -q . "$OUT/clone"
start=$(date +%s)
make -C "$OUT/clone" check >"$OUT/check.log" 2>&1 && check_ok=passed || check_ok=FAILED
check_s="$(( $(date +%s) - start )) ($check_ok)"
runs_n=$(col "$(ls -d "$OUT"/clone/results/*/ | tail -n 1)runs.tsv" outcome 2>/dev/null | wc -l)
echo "make check: $check_s s, $runs_n corpus runs"

# --- stability ----------------------------------------------------------
stable=-
if [ "${BENCH_STABLE:-0}" -gt 0 ]; then
	echo "== stability: ${BENCH_STABLE} checks of the quick corpus in a row (-j $JOBS)"
	i=1
	while [ "$i" -le "$BENCH_STABLE" ]; do
		$MR check --profile quick -j "$JOBS" -q --out "$OUT/stable.$i" >/dev/null 2>&1 || true
		# the verdict of each claim and baseline row, without its figures
		$MR check --from "$OUT/stable.$i" --format tap 2>/dev/null |
			grep -E '^(not )?ok ' | sed -e 's/^\(not ok\|ok\) [0-9]* /\1 /' \
				-e 's/ (observed [^)]*)$//' | sort > "$OUT/stable.$i.tap"
		changed=$(diff "$OUT/stable.1.tap" "$OUT/stable.$i.tap" | grep -c '^>' || true)
		echo "check $i: $(grep -c '^not ok' "$OUT/stable.$i.tap" || true) not ok, $changed verdicts differ from check 1"
		i=$((i + 1))
	done
	echo "verdicts that changed (times seen):"
	for j in $(seq 2 "$BENCH_STABLE"); do diff "$OUT/stable.1.tap" "$OUT/stable.$j.tap" | grep '^[<>]' || true; done |
		sort | uniq -c
	stable=$(for j in $(seq 2 "$BENCH_STABLE"); do diff "$OUT/stable.1.tap" "$OUT/stable.$j.tap" | grep -c '^>' || true; done |
		awk '{ s += $1 } END { printf "%d in %d checks of %d verdicts", s, NR + 1, '"$(wc -l < "$OUT/stable.1.tap")"' }')
fi

# --- full profile --------------------------------------------------------
full=-
if [ "${BENCH_FULL:-0}" = 1 ]; then
	echo "== the full profile, -j $JOBS"
	start=$(date +%s)
	$MR run --profile full -j "$JOBS" -q --out "$OUT/full" >/dev/null || true
	full=$(( $(date +%s) - start ))
	awk -F'\t' 'NR > 1 { t[$1] += ($6 + $7) / 1000; n[$1]++ } END { for (c in t) printf "  %-18s %4d runs %7.0f s of case time\n", c, n[c], t[c] }' \
		"$OUT/full/runs.tsv" | sort
fi

echo
echo "== memrepro bench, $(git describe --always --dirty 2>/dev/null || echo '?'), on $(nproc) CPUs ($(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)), $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), Linux $(uname -r), $(date -u +%Y-%m-%d); files in $OUT"
printf '%-50s %-26s %s\n' figure measured goal
printf '%-50s %-26s %s\n' "overhead wall, alloc-churn, 1 ms sampling" "$(ovr alloc-churn wall)" "<= 1.03"
printf '%-50s %-26s %s\n' "overhead CPU, alloc-churn, 1 ms sampling" "$(ovr alloc-churn cpu)" "<= 1.03"
printf '%-50s %-26s %s\n' "overhead wall, fiber-stacks, 1 ms sampling" "$(ovr fiber-stacks wall)" "<= 1.03"
printf '%-50s %-26s %s\n' "overhead CPU, fiber-stacks, 1 ms sampling" "$(ovr fiber-stacks cpu)" "<= 1.03"
printf '%-50s %-26s %s\n' "statm read, 0 / 20,000 mappings (us)" "$statm0 / $statm20" "sampled every interval"
printf '%-50s %-26s %s\n' "smaps_rollup read, 0 / 20,000 mappings (us)" "$roll0 / $roll20" "checkpoints only"
printf '%-50s %-26s %s\n' "memory CV, median / worst (%)" "$mem_med / $mem_max" "<= 1"
printf '%-50s %-26s %s\n' "memory figures over 1 %" "$mem_over" "0"
printf '%-50s %-26s %s\n' "... of them spread under 1 MiB" "$mem_small" "-"
printf '%-50s %-26s %s\n' "time CV, median / worst (%)" "$t_med / $t_max" "<= 5"
printf '%-50s %-26s %s\n' "time figures over 5 %" "$t_over" "0"
printf '%-50s %-26s %s\n' "... runs >= 100 ms, no THP always: wall / cpu (%)" "$long_wall / $long_cpu" "<= 5"
printf '%-50s %-26s %s\n' "hypervisor steal during the repeats (%)" "$steal" "-"
printf '%-50s %-26s %s\n' "quick profile, every case x $N repeats, -j 1 (s)" "$rep_s" "-"
printf '%-50s %-26s %s\n' "make check, fresh clone, build included (s)" "$check_s" "< 90"
printf '%-50s %-26s %s\n' "verdict changes over consecutive checks" "$stable" "0 in 10"
printf '%-50s %-26s %s\n' "full profile, -j $JOBS (s)" "$full" "< 900"
