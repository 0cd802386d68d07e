#!/usr/bin/env bats
# report, compare and trend: charts and documents from results directories.

load test_helper

# Two runs of the same fixtures (ok: 8/16/32 MiB by mode, touch: 32 MiB),
# made once for the file: the second is the "rerun" compare must find
# unchanged.
# The report of the first, also made once: report DIR must leave the
# results as they were (the checksum of every TSV before it).  It is drawn
# while the rerun runs (gnuplot beside the fixtures: no figure of the
# rerun that a test looks at depends on the CPU it had).
setup_file() {
	local mr="$BATS_TEST_DIRNAME/../build/memrepro" fix="$BATS_TEST_DIRNAME/../build/fixtures"
	local exp=$BATS_FILE_TMPDIR/expected rerun
	fixtures() {
		timeout -k 5 120 "$mr" run --cases "$fix" --out "$BATS_FILE_TMPDIR/$1" \
			--axis allocator=glibc,jemalloc --axis mb=32 --repeat 3 --quiet ok touch >/dev/null
	}
	fixtures base
	# (fd 3 closed: bats waits for whoever holds it)
	fixtures rerun 3>&- &
	rerun=$!
	mkdir -p "$exp"
	printf '%s\n' 'more-is-more holds rss_kb@done[mode=a] < rss_kb@done[mode=c] "fixture: 8 MiB < 32 MiB"' \
		'less-is-more reported rss_kb@done[mode=c] < rss_kb@done[mode=a] "fixture: a report this machine contradicts"' \
		> "$exp/ok.claims"
	cp -R "$BATS_FILE_TMPDIR/base" "$BATS_FILE_TMPDIR/reported"
	cat "$BATS_FILE_TMPDIR/reported"/*.tsv | md5sum > "$BATS_FILE_TMPDIR/sum"
	timeout -k 5 120 "$mr" report --cases "$fix" --expected "$exp" "$BATS_FILE_TMPDIR/reported" \
		> "$BATS_FILE_TMPDIR/report.out" 2>&1
	echo $? > "$BATS_FILE_TMPDIR/report.rc"
	wait "$rerun"
}

setup() {
	EXP=$BATS_FILE_TMPDIR/expected
	REP=$BATS_FILE_TMPDIR/reported
}

# A copy of a results directory of the file.
results() {
	cp -R "$BATS_FILE_TMPDIR/$1" "$BATS_TEST_TMPDIR/$2"
	echo "$BATS_TEST_TMPDIR/$2"
}

# Scale rss_kb at the checkpoints of case $2, config matching $3, in $1.
scale_rss() {
	awk -F'\t' -v OFS='\t' -v c="$2" -v cfg="$3" -v f="$4" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; print; next }
		$1 == c && $2 ~ cfg { $col["rss_kb"] = int($col["rss_kb"] * f) }
		{ print }' "$1/checkpoints.tsv" > "$1/checkpoints.tsv.new"
	mv "$1/checkpoints.tsv.new" "$1/checkpoints.tsv"
}

is_png() {
	[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
}

@test "report DIR writes report.md, report.html and every chart, rerunning nothing" {
	d=$REP
	[ "$(cat "$BATS_FILE_TMPDIR/report.rc")" -eq 0 ]
	# check's summary line, then the documents
	[[ "$(cat "$BATS_FILE_TMPDIR/report.out")" == "total: 1 claim held, "*"; 24 runs ok, 0 failed
report: $d/report.md
report: $d/report.html" ]] || false
	[ -s "$d/report.md" ]
	[ -s "$d/report.html" ]
	for c in ok touch; do
		for k in series diff; do
			is_png "$d/plots/$c.$k.png"
			grep -q '<svg' "$d/plots/$c.$k.svg"
		done
	done
	is_png "$d/plots/allocators.png"
	grep -q '<svg' "$d/plots/allocators.svg"
	# nothing was run again: the results are as they were
	[ "$(cat "$d"/*.tsv | md5sum)" = "$(cat "$BATS_FILE_TMPDIR/sum")" ]
}

@test "report.md links its charts; report.html embeds them and needs no other file" {
	d=$REP
	grep -q '](plots/ok.series.png)' "$d/report.md"
	grep -q '](plots/touch.diff.png)' "$d/report.md"
	grep -q '](plots/allocators.png)' "$d/report.md"
	# 2 charts per case and the allocator matrix, all inline
	[ "$(grep -o 'src="data:image/png;base64,' "$d/report.html" | wc -l)" -eq 5 ]
	! grep -qE '(src|href)="(https?:|plots/)' "$d/report.html" || false
	grep -q '</html>' "$d/report.html"
}

@test "report puts each claim's cited figure beside the measured one" {
	d=$REP
	row=$(grep -F '`more-is-more`' "$d/report.md")
	[[ "$row" == *"held"* ]] || false
	[[ "$row" == *"fixture: 8 MiB < 32 MiB"* ]] || false
	[[ "$row" == *"allocator=glibc: "*" < "* ]] || false
	# the claim in words, the expression folded under them
	[[ "$row" == *"| <details><summary>allocator=glibc: RSS mode=a "*" MiB vs mode=c "*" MiB at done: "*"x (claim: below 1x) held for both allocators</summary>\`allocator=glibc: "*" < "*"\`</details> |"* ]] || false
	grep -q '<details><summary>allocator=glibc: RSS mode=a [^<]* held for both allocators</summary><code>allocator=glibc: [^<]* &lt; ' "$d/report.html"
	grep -F '`less-is-more`' "$d/report.md" | grep -q 'does not reproduce'
	# the verdict table and the environment
	grep -q '^## Verdicts' "$d/report.md"
	grep -q '^## Environment' "$d/report.md"
	grep -q '^| kernel | ' "$d/report.md"
	grep -q 'fixture: 8 MiB &lt; 32 MiB' "$d/report.html"
}

@test "a chart with no data says so" {
	d=$REP
	# no baseline for the fixtures: the diff charts say it in their text
	grep -q 'no data: no baseline for platform' "$d/plots/ok.diff.svg"
	grep -q 'no data: no baseline for platform' "$d/plots/touch.diff.svg"
	# the series chart has data: a panel per allocator, a legend entry
	# per mode
	grep -q '>allocator=jemalloc<' "$d/plots/ok.series.svg"
	grep -q '>mode=c<' "$d/plots/ok.series.svg"
}

@test "report draws the observed medians against a baseline, regressions ringed" {
	d=$(results base r)
	exp=$BATS_TEST_TMPDIR/exp
	mkdir -p "$exp"
	run -0 "$MR" bless --from "$d" --expected "$exp" touch
	scale_rss "$d" touch 'allocator=glibc' 1.2
	# a regression: written all the same, and exit 1 as check
	run -1 timeout -k 5 120 "$MR" report --cases "$FIX" --expected "$exp" --from "$d" touch
	[[ "$output" == *"total: "*"baseline "*"1 regressed"* ]] || false
	awk -F'\t' 'NR > 2 && $8 == "regressed" { print $1, $4 }' "$d/plots/touch.diff.tsv" > "$BATS_TEST_TMPDIR/reg"
	[ "$(cat "$BATS_TEST_TMPDIR/reg")" = "rss_kb@touched allocator=glibc" ]
	grep -q '1 regressed' "$d/plots/touch.diff.svg"
	grep -q '^| \[touch\](#case-touch) |.*1 regressed\*\*' "$d/report.md"
	grep -F '`rss_kb@touched`' "$d/report.md" | grep -q '+20'
}

@test "report without gnuplot scripts still writes the documents and exits 1" {
	d=$(results base r)
	mkdir "$BATS_TEST_TMPDIR/noplots"
	run -1 timeout -k 5 120 "$MR" report --cases "$FIX" --expected "$EXP" --plots "$BATS_TEST_TMPDIR/noplots" "$d"
	[[ "$output" == *"no gnuplot scripts in"* ]] || false
	[ -s "$d/report.md" ]
	grep -q 'not drawn' "$d/report.md"
}

@test "report of a missing results directory is exit 2 naming it" {
	run -2 "$MR" report --from "$BATS_TEST_TMPDIR/nope"
	[[ "$output" == *"$BATS_TEST_TMPDIR/nope"* ]] || false
	run -2 "$MR" compare "$BATS_TEST_TMPDIR/nope" "$BATS_FILE_TMPDIR/base"
	[[ "$output" == *"nope/env.tsv"* ]] || false
	run -2 "$MR" trend "$BATS_FILE_TMPDIR/base" "$BATS_TEST_TMPDIR/nope"
	[[ "$output" == *"nope/env.tsv"* ]] || false
}

@test "a corrupt TSV line is exit 2 naming file:line, in report, compare and trend" {
	d=$(results base r)
	printf 'ok\tgarbage\n' >> "$d/series.tsv"
	n=$(wc -l < "$d/series.tsv")
	run -2 --separate-stderr "$MR" report --cases "$FIX" --expected "$EXP" "$d"
	[[ "$stderr" == *"series.tsv:$n:"* ]] || false
	e=$(results base e)
	printf 'ok\tgarbage\n' >> "$e/checkpoints.tsv"
	n=$(wc -l < "$e/checkpoints.tsv")
	run -2 --separate-stderr "$MR" compare "$BATS_FILE_TMPDIR/base" "$e"
	[[ "$stderr" == *"checkpoints.tsv:$n:"* ]] || false
	run -2 --separate-stderr "$MR" trend "$BATS_FILE_TMPDIR/base" "$e"
	[[ "$stderr" == *"checkpoints.tsv:$n:"* ]] || false
}

@test "compare calls no change on 3 vs 3 repeats, not even an injected 20% RSS change" {
	new=$(results base new)
	scale_rss "$new" touch 'allocator=glibc' 1.2
	# 3 against 3 all apart happens by chance with p = 0.1
	run -0 "$MR" compare --fail-on 10 "$BATS_FILE_TMPDIR/base" "$new"
	[[ "$output" == *"  3 vs 3 repeats: not compared ("* ]] || false
	[ "$(printf '%s\n' "$output" | grep -c ' worse (')" -eq 0 ]
	[[ "$output" == *"0 figures worse beyond the noise by more than 10 %"* ]] || false
	# the table and the chart
	awk -F'\t' '$1 == "touch" && $7 == "rss_kb@touched" && $3 == "allocator=glibc" { v = $20 } END { exit v != "not-compared" }' \
		"$new/compare/compare.tsv"
	is_png "$new/compare/touch.compare.png"
	grep -q '<svg' "$new/compare/ok.compare.svg"
}

@test "compare finds no memory change between two reruns of the same fixtures" {
	run -0 "$MR" compare --out "$BATS_TEST_TMPDIR/c" "$BATS_FILE_TMPDIR/base" "$BATS_FILE_TMPDIR/rerun"
	# memory and page faults are the figures a rerun must reproduce (time
	# depends on the load of the machine)
	awk -F'\t' 'NR > 2 && ($6 ~ /_kb$/ || $6 == "minflt") && ($20 == "worse" || $20 == "better") { print; bad = 1 } END { exit bad }' \
		"$BATS_TEST_TMPDIR/c/compare.tsv"
	[ "$(awk -F'\t' 'NR > 2' "$BATS_TEST_TMPDIR/c/compare.tsv" | wc -l)" -gt 50 ]
}

@test "compare uses Mann-Whitney U with 4 repeats or more on each side" {
	run -0 timeout -k 5 120 "$MR" run --cases "$FIX" --out "$BATS_TEST_TMPDIR/a" \
		--axis allocator=glibc --axis mb=32 --repeat 5 --quiet touch
	# the same runs, 20 % more RSS (what compare compares is all apart)
	cp -R "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
	scale_rss "$BATS_TEST_TMPDIR/b" touch 'allocator=glibc' 1.2
	run -0 "$MR" compare "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
	[[ "$output" == *"(Mann-Whitney U, p < 0.05)"* ]] || false
	# 5 against 5, all apart: p = 2 / C(10, 5)
	line=$(printf '%s\n' "$output" | grep 'rss_kb@touched')
	[[ "$line" == *"allocator=glibc"*"+20.0 %"*"worse (U p=0.00794)"* ]] || false
	# only that figure changed
	[ "$(printf '%s\n' "$output" | grep -c ' worse (')" -eq 1 ]
	run -1 "$MR" compare --fail-on 10 "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
	[[ "$output" == *"1 figure worse beyond the noise by more than 10 %"* ]] || false
	run -0 "$MR" compare --fail-on 25 "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
}

@test "trend on 3 directories marks the injected step at the third" {
	old=$(results base 1)
	mid=$(results rerun 2)
	new=$(results rerun 3)
	scale_rss "$new" touch 'allocator=jemalloc' 1.2
	# the newest by its start time, given first
	sed -i 's/^started\t.*/started\t2099-01-01T00:00:00Z/' "$new/env.tsv"
	run -0 "$MR" trend --out "$BATS_TEST_TMPDIR/t" "$new" "$old" "$mid"
	[[ "$output" == *$'\n'"  3  2099-01-01T00:00:00Z  $new"$'\n'* ]] || false
	step=$(printf '%s\n' "$output" | grep 'rss_kb@touched: step')
	[[ "$step" == *"touch  allocator=jemalloc  rss_kb@touched: step at 3 ($new)"* ]] || false
	# +20 % over the median of the two before (both about the same)
	[[ "$step" =~ \(\+(19\.[5-9]|20\.[0-5])\ %\)$ ]] || false
	awk -F'\t' '$1 == "touch" && $3 == "allocator=jemalloc" && $7 == "rss_kb@touched" && $8 == 3 { s = $15 } END { exit s != 1 }' \
		"$BATS_TEST_TMPDIR/t/trend.tsv"
	is_png "$BATS_TEST_TMPDIR/t/touch.trend.png"
	grep -q 'step change' "$BATS_TEST_TMPDIR/t/touch.trend.svg"
}

@test "compare and trend need their directories" {
	run -2 "$MR" compare "$BATS_FILE_TMPDIR/base"
	[[ "$output" == *"compare needs two results directories"* ]] || false
	run -2 "$MR" trend "$BATS_FILE_TMPDIR/base"
	[[ "$output" == *"trend needs two results directories or more"* ]] || false
}

@test "the allocator matrix uses each case's declared key figure, and sets an allocator's versions side by side, old to new" {
	d=$(results base keyed)
	mkdir -p "$BATS_TEST_TMPDIR/exp"
	printf '%s\n' '# the key figure of ok: its peak, not its last checkpoint' \
		'key peak_rss_kb lower' > "$BATS_TEST_TMPDIR/exp/ok.figures"
	# every jemalloc run twice, as jemalloc@10.0 and jemalloc@9.0: "10.0"
	# sorts before "9.0" as a string, after it as a version
	for f in runs checkpoints series; do
		awk -F'\t' -v OFS='\t' 'NR == 1 || $2 !~ /allocator=jemalloc/ { print; next }
			{ l = $0; sub(/allocator=jemalloc/, "allocator=jemalloc@10.0", l); print l
			  sub(/allocator=jemalloc/, "allocator=jemalloc@9.0"); print }' \
			"$d/$f.tsv" > "$d/$f.tsv.new"
		mv "$d/$f.tsv.new" "$d/$f.tsv"
	done
	run -0 "$MR" report --cases "$ROOT/build/fixtures" --expected "$BATS_TEST_TMPDIR/exp" "$d"
	a=$d/plots/allocators.tsv
	# column order: glibc, then the versions old to new
	[ "$(awk -F'\t' '$1 == "ok" { printf "%s %s,", $4, $3 }' "$a")" = "1 glibc,2 jemalloc@9.0,3 jemalloc@10.0," ]
	# ok's figure is the declared one; touch, with no figures file, keeps the default
	[ "$(awk -F'\t' '$1 == "ok" { print $5 }' "$a" | sort -u)" = peak_rss_kb ]
	[ "$(awk -F'\t' '$1 == "touch" { print $5 }' "$a" | sort -u)" = "rss_kb@$(awk -F'\t' 'NR > 1 && $1 == "touch" { c = $4 } END { print c }' "$d/checkpoints.tsv")" ]
	# a ratio, in a cell of its own
	awk -F'\t' '$1 == "ok" && $3 == "jemalloc@9.0" { r = $6 } END { exit !(r > 0) }' "$a"
}

# A copy of the fixtures' results whose glibc runs of touch take 20 %
# more RSS than the baseline blessed from them, with a figures file of
# two figures for ok; $1: where.  Sets EXP2 and writes the report.
regressed_report() {
	d=$(results base "$1")
	EXP2=$BATS_TEST_TMPDIR/exp2
	cp -R "$EXP" "$EXP2"
	run -0 "$MR" bless --from "$d" --expected "$EXP2" touch
	scale_rss "$d" touch 'allocator=glibc' 1.2
	cat > "$EXP2/ok.figures" <<'FIG'
source seeds/000_fixture.txt "the fixture's report"
figure done mode=a rss_kb 8 MiB
figure done mode=c rss_kb 32 MiB "the big one"
figure - mode=a wall_ms 10 ms
figure - mode=c wall_ms 20 ms
FIG
	run -1 timeout -k 5 120 "$MR" report --cases "$FIX" --expected "$EXP2" --from "$d" ok touch
	echo "$output"
}

@test "report.md opens with the status, then what changed, then the cases" {
	regressed_report top
	md=$d/report.md
	# the title, then the status line, before any other section
	[ "$(sed -n 1p "$md")" = "# memrepro report: $(awk -F'\t' '$1 == "platform" { print $2 }' "$d/env.tsv")" ] ||
		[[ "$(sed -n 1p "$md")" == "# memrepro report: "* ]] || false
	[ "$(grep -m1 '^## ' "$md")" = "## Status: failed" ]
	[[ "$(grep -v '^$' "$md" | sed -n 3p)" == "**failed**: claims "*"; baseline **"*"1 regressed**; runs 24 ok." ]] || false
	# what changed: a row per case that changed, what its rows share
	[ "$(grep -v '^$' "$md" | sed -n 4p)" = "**What changed**, per case:" ]
	row=$(grep '^| \[touch\](#case-touch) |' "$md" | head -1)
	# (how many rows held depends on the machine: a busy run's times are
	# not judged)
	echo "row: $row"
	[[ "$row" == "| [touch](#case-touch) | - | "*"**"[0-9]*" held, 1 regressed**: \`allocator=glibc\` \`rss_kb@touched\` regressed "*" vs "*" (+20."*" %) | 6 ok |" ]] || false
	# ... above every other section and case
	status=$(grep -n '^## Status' "$md" | cut -d: -f1)
	changed=$(grep -n '^| \[touch\](#case-touch) | - |' "$md" | cut -d: -f1)
	verdicts=$(grep -n '^## Verdicts' "$md" | cut -d: -f1)
	first_case=$(grep -n '^## ok\|^## touch' "$md" | head -1 | cut -d: -f1)
	[ "$status" -lt "$changed" ]
	[ "$changed" -lt "$verdicts" ]
	[ "$verdicts" -lt "$first_case" ]
	# a report where nothing moved says so at the same place
	grep -v '^$' "$REP/report.md" | sed -n 4p | grep -qx 'Nothing changed against the baseline, and no claim failed.'
}

@test "report: a table per figure the report printed, a row per config, the report's value beside ours" {
	regressed_report figs
	md=$d/report.md
	[ "$(grep -c '^#### ' "$md")" -eq 2 ]
	grep -qx '#### RSS at done' "$md"
	grep -qx '#### wall time' "$md"
	grep -A2 -x '#### RSS at done' "$md" | grep -qxF '| config | the report | the model, here |'
	grep -qE '^\| mode=a \| 8 MiB \| [0-9.]+ MiB \|$' "$md"
	grep -qE '^\| mode=c \| 32 MiB \(the big one\) \| [0-9.]+ MiB \|$' "$md"
	# (a time on a busy machine is not measured, and says why)
	grep -qE '^\| mode=c \| 20 ms \| ([0-9.,]+ (ms|s)|not measured \(.*\)) \|$' "$md"
	# no figure run together in a paragraph
	run ! grep -q 'mode=a 8 MiB; mode=c' "$md"
	[ "$(grep -c '<h4>' "$d/report.html")" -eq 2 ]
}

# The HTML page as a browser builds it (chromium's DOM).
dom() {
	command -v chromium >/dev/null || skip "no chromium (Debian package chromium) to load the page"
	timeout -k 5 120 chromium --headless --no-sandbox --disable-gpu --dump-dom "file://$1" 2>/dev/null
}

@test "report.html in chromium: the status first, every link inside the page" {
	regressed_report html
	dom "$d/report.html" > "$BATS_TEST_TMPDIR/dom.html"
	cd "$BATS_TEST_TMPDIR"
	run -0 python3 - dom.html <<'PY'
import sys
from html.parser import HTMLParser

class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.heads, self.ids, self.hrefs, self.srcs, self.cur = [], set(), [], [], None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if "href" in a:
            self.hrefs.append(a["href"])
        if "src" in a:
            self.srcs.append(a["src"])
        if tag in ("h1", "h2"):
            self.cur = [tag, a.get("id"), ""]
            self.heads.append(self.cur)
    def handle_endtag(self, tag):
        if tag in ("h1", "h2"):
            self.cur = None
    def handle_data(self, data):
        if self.cur is not None:
            self.cur[2] += data

p = P()
p.feed(open(sys.argv[1]).read())
assert p.heads[0][0] == "h1", p.heads[:2]
assert p.heads[1][:2] == ["h2", "status"], p.heads[:2]
assert p.heads[1][2] == "Status: failed", p.heads[1]
assert p.heads[2][2] == "Verdicts", p.heads[2]
bad = [h for h in p.hrefs if not (h.startswith("#") and h[1:] in p.ids)]
assert not bad, bad
bad = [s for s in p.srcs if not s.startswith("data:")]
assert not bad, bad
print(len(p.hrefs), "links", len(p.srcs), "images")
PY
	echo "$output"
	[[ "$output" == *" links 6 images" ]] || false
}
