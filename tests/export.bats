#!/usr/bin/env bats
# memrepro export: a results directory's figures as Bencher's BMF and
# github-action-benchmark's customSmallerIsBetter JSON.

load test_helper

# run1 and run2: the same matrix twice (repeat 4, so a median is the mean
# of two values), for the file.
setup_file() {
	local r
	for r in run1 run2; do
		timeout -k 5 120 "$MR" run --cases "$FIX" --axis allocator=glibc --repeat 4 -q \
			--out "$BATS_FILE_TMPDIR/$r" ok touch >/dev/null 3>&-
		# these tests are about the figures, not the machine's load
		as_idle "$BATS_FILE_TMPDIR/$r"
	done
}

# The figures of results directory $1 computed here from runs.tsv and
# checkpoints.tsv, as "benchmark<TAB>measure<TAB>median<TAB>min<TAB>max"
# lines: maxrss_kb, minflt and (runs alone only) wall_ms of the ok runs,
# rss_kb and anon_kb at each checkpoint's last occurrence.
expected_figures() {
	python3 - "$1" <<'PY'
import csv, statistics, sys
d = sys.argv[1]
def rows(f):
    with open(f"{d}/{f}") as h:
        return list(csv.DictReader(h, delimiter="\t"))
vals = {}
ok = set()
for r in rows("runs.tsv"):
    if r["outcome"] != "ok":
        continue
    b = f'{r["case"]} {r["config"]}'
    ok.add((r["case"], r["config"], r["repeat"]))
    for m in ("maxrss_kb", "minflt"):
        vals.setdefault((b, m), []).append(float(r[m]))
    if r["overlap"] == "0" and r["stopped_ms"] == "0":
        vals.setdefault((b, "wall_ms"), []).append(float(r["wall_ms"]))
last = {}
for r in rows("checkpoints.tsv"):
    k = (r["case"], r["config"], r["repeat"])
    if k not in ok:
        continue
    key = k + (r["checkpoint"],)
    if key not in last or int(r["seq"]) > int(last[key]["seq"]):
        last[key] = r
for (c, conf, rep, ck), r in last.items():
    for m in ("rss_kb", "anon_kb"):
        vals.setdefault((f"{c} {conf}", f"{m}@{ck}"), []).append(float(r[m]))
for (b, m), v in sorted(vals.items()):
    print(f"{b}\t{m}\t{statistics.median(v):g}\t{min(v):g}\t{max(v):g}\t{len(v)}")
PY
}

# The same lines from memrepro export --format bmf of $1 (only the
# measures expected_figures computes).
bmf_figures() {
	"$MR" export --format bmf "$1" | python3 -c '
import json, sys
for b, ms in sorted(json.load(sys.stdin).items()):
    for m, v in sorted(ms.items()):
        if m.split("@")[0] in ("maxrss_kb", "minflt", "wall_ms", "rss_kb", "anon_kb"):
            print("%s\t%s\t%g\t%g\t%g" % (b, m, v["value"], v["lower_value"], v["upper_value"]))'
}

@test "bmf is valid JSON whose medians, mins and maxes are the results' own" {
	d=$BATS_FILE_TMPDIR/run1
	run -0 "$MR" export --format bmf "$d"
	python3 -m json.tool <<<"$output" >/dev/null
	expected_figures "$d" | cut -f1-5 | sort >"$BATS_TEST_TMPDIR/want"
	bmf_figures "$d" | sort >"$BATS_TEST_TMPDIR/got"
	# 4 configs (ok a, b, c; touch), each with its run figures
	[ "$(cut -f1 "$BATS_TEST_TMPDIR/want" | sort -u | wc -l)" -eq 4 ]
	grep -q $'\twall_ms\t' "$BATS_TEST_TMPDIR/want"
	grep -q $'\trss_kb@done\t' "$BATS_TEST_TMPDIR/want"
	diff "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got"
}

@test "benchmark-action is a customSmallerIsBetter array with the same figures" {
	d=$BATS_FILE_TMPDIR/run1
	run -0 "$MR" export --format benchmark-action "$d"
	platform=$(tsv_col "$d/env.tsv" value '$1 == "platform"')
	"$MR" export --format bmf "$d" >"$BATS_TEST_TMPDIR/bmf.json"
	expected_figures "$d" >"$BATS_TEST_TMPDIR/want"
	python3 -c '
import json, sys
plat, bmf, want, action = sys.argv[1:]
bmf = json.load(open(bmf))
items = json.load(open(action))
assert isinstance(items, list) and items
units = {"kb": "KiB", "ms": "ms", "flt": "faults"}
n = {}
for l in open(want):
    b, m, med, lo, hi, k = l.rstrip("\n").split("\t")
    n[f"{b} {m}"] = int(k)
flat = {f"{b} {m}": v for b, ms in bmf.items() for m, v in ms.items()}
assert len(items) == len(flat), (len(items), len(flat))
for it in items:
    assert set(it) == {"name", "unit", "value", "range", "extra"}, it
    v = flat[it["name"]]
    assert it["value"] == v["value"], it
    assert it["range"] == "%g..%g" % (v["lower_value"], v["upper_value"]), it
    metric = it["name"].rsplit(" ", 1)[1].split("@")[0]
    assert it["unit"] == next(u for s, u in units.items() if metric.endswith(s)), it
    assert it["extra"].endswith("; platform " + plat), it
    if it["name"] in n:
        assert it["extra"].startswith("%d repeats" % n[it["name"]]), it
' "$platform" "$BATS_TEST_TMPDIR/bmf.json" "$BATS_TEST_TMPDIR/want" <(printf '%s\n' "$output")
}

@test "the names are the same for two runs of the same matrix" {
	for r in run1 run2; do
		for f in bmf benchmark-action; do
			"$MR" export --format "$f" "$BATS_FILE_TMPDIR/$r" |
				python3 -c '
import json, sys
d = json.load(sys.stdin)
names = [i["name"] for i in d] if isinstance(d, list) else [f"{b} {m}" for b, ms in d.items() for m in ms]
print("\n".join(sorted(names)))' >"$BATS_TEST_TMPDIR/$r.$f"
		done
		cmp "$BATS_TEST_TMPDIR/$r.bmf" "$BATS_TEST_TMPDIR/$r.benchmark-action"
	done
	[ "$(wc -l <"$BATS_TEST_TMPDIR/run1.bmf")" -gt 20 ]
	cmp "$BATS_TEST_TMPDIR/run1.bmf" "$BATS_TEST_TMPDIR/run2.bmf"
}

@test "runs that overlapped or stood still give no wall_ms" {
	cp -R "$BATS_FILE_TMPDIR/run1" "$BATS_TEST_TMPDIR/r"
	d=$BATS_TEST_TMPDIR/r
	awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
		NR > 1 && $(c["config"]) ~ /mode=a/ { $(c["overlap"]) = 1 }
		NR > 1 && $(c["case"]) == "touch" { $(c["stopped_ms"]) = 40 } { print }' \
		"$d/runs.tsv" >"$d/runs.new" && mv "$d/runs.new" "$d/runs.tsv"
	run -0 "$MR" export --format bmf "$d"
	python3 -c '
import json, sys
d = json.loads(sys.stdin.read())
for b, ms in d.items():
    alone = "mode=a" not in b and not b.startswith("touch ")
    assert ("wall_ms" in ms) == alone, b
    assert "maxrss_kb" in ms, b' <<<"$output"
}

@test "bad input is exit 2 naming the file or the parameter" {
	run -2 "$MR" export --format bmf "$BATS_TEST_TMPDIR/none"
	[[ "$output" == *"$BATS_TEST_TMPDIR/none/"*"no such file"* ]] || false
	run -2 "$MR" export --format junit "$BATS_FILE_TMPDIR/run1"
	[[ "$output" == *"--format 'junit': want bmf or benchmark-action"* ]] || false
	run -2 "$MR" export "$BATS_FILE_TMPDIR/run1"
	[[ "$output" == *"--format is required: bmf or benchmark-action"* ]] || false
	run -2 "$MR" export --format bmf
	# export's words are its own: not check's, before or after the command
	run -0 "$MR" --format bmf export "$BATS_FILE_TMPDIR/run1"
	run -2 "$MR" --format bmf check --from "$BATS_FILE_TMPDIR/run1"
	[[ "$output" == *"--format 'bmf': want human, tap, junit or json"* ]] || false
	run -2 "$MR" export --format bmf "$BATS_FILE_TMPDIR/run1" "$BATS_FILE_TMPDIR/run2"
	cp -R "$BATS_FILE_TMPDIR/run1" "$BATS_TEST_TMPDIR/bad"
	sed -i '2s/\tok\t/\tok\t-\tx/' "$BATS_TEST_TMPDIR/bad/runs.tsv"
	run -2 "$MR" export --format benchmark-action "$BATS_TEST_TMPDIR/bad"
	[[ "$output" == *"bad/runs.tsv:2:"* ]] || false
	[[ "$output" != *"["* ]] || false
}

@test "export --help says both formats, with an example" {
	run -0 "$MR" export --help
	[[ "${lines[0]}" == "usage: memrepro export --format bmf|benchmark-action"* ]] || false
	[[ "$output" == *"  memrepro export --format bmf "* ]] || false
	run -0 "$MR" --help
	[[ "$output" == *"memrepro export"* ]] || false
}
