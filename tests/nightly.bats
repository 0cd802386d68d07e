#!/usr/bin/env bats
# The nightly, locally: the scripts of tools/nightly/ as the workflow runs
# them, over two fake platforms (fixture runs whose env.tsv says another
# platform, kernel and THP mode) and three nights, and the published tree.

load test_helper

NS="$ROOT/tools/nightly"
# The matrix of a night: touch at two sizes, so that two shards have a pair each.
MATRIX=(touch --axis allocator=glibc --axis "mb=4,8" --repeat 3)


# night N: both platforms' shards run, merged, checked and reported
# (the shard and platform jobs), then the publish job's steps.
night() {
	local p key w=$BATS_FILE_TMPDIR/night$1
	for p in a b; do
		"$NS/shard.sh" "fake-$p" 1 2 "$w/shard-$p-1" "${MATRIX[@]}"
		"$NS/shard.sh" "fake-$p" 2 2 "$w/shard-$p-2" "${MATRIX[@]}"
		"$NS/merge.sh" "$w/merged-$p" "$w/shard-$p-1" "$w/shard-$p-2"
	done
	fake_platform "$w/merged-a" test-a-thp_madvise madvise 6.1.0-a
	fake_platform "$w/merged-b" test-b-thp_always always 6.8.0-b
	for p in a b; do
		GITHUB_STEP_SUMMARY=$w/summary-$p.md "$NS/check.sh" "$w/merged-$p" > "$w/check-$p.out" && echo "check $p passed" || echo "check $p: $?"
		"$NS/report.sh" "$w/merged-$p" "$w/site-platform" > /dev/null
	done
	"$NS/platforms.sh" "$SITE" "$w/merged-a" "$w/merged-b"
	NIGHT=2026-11-0$1 "$NS/night.sh" "$HIST" "$SITE" "$w/merged-a" "$w/merged-b"
	"$NS/publish.sh" "$HIST" "$SITE"
}

# outside: $O, a directory beside the test's own with a sentinel file,
# that no script may touch; `intact` says it was not (call outside after
# putting in $O what the test needs there).
outside() {
	O=$BATS_FILE_TMPDIR/outside-$BATS_TEST_NUMBER
	mkdir -p "$O"
	echo "secret $BATS_TEST_NUMBER" > "$O/sentinel"
	(cd "$O" && find . -printf '%p %y %s %T@\n' | sort) > "$BATS_TEST_TMPDIR/outside.before"
}
intact() {
	(cd "$O" && find . -printf '%p %y %s %T@\n' | sort) > "$BATS_TEST_TMPDIR/outside.after"
	diff "$BATS_TEST_TMPDIR/outside.before" "$BATS_TEST_TMPDIR/outside.after"
	[ "$(cat "$O/sentinel")" = "secret $BATS_TEST_NUMBER" ]
}

# results NAME: R, a copy of night 1's merged results of platform a
# (test-a-thp_madvise) in the test's tmpdir.
results() {
	R=$BATS_TEST_TMPDIR/$1
	cp -R "$BATS_FILE_TMPDIR/night1/merged-a" "$R"
}

setup_file() {
	export MEMREPRO="$MR" MEMREPRO_CASES="$FIX" MEMREPRO_EXPECTED="$BATS_FILE_TMPDIR/expected"
	export HIST="$BATS_FILE_TMPDIR/history" SITE="$BATS_FILE_TMPDIR/site"
	mkdir -p "$MEMREPRO_EXPECTED"
	printf '%s\n' '# test claims' \
		'touched-some holds rss_kb@touched > 1024 "fixture: a MiB at least"' \
		'touched-all holds rss_kb@touched > 30000 "fixture: more than it wrote: regresses"' \
		> "$MEMREPRO_EXPECTED/touch.claims"
	local n
	for n in 1 2 3; do
		night "$n" > "$BATS_FILE_TMPDIR/night$n.log" 2>&1 || { cat "$BATS_FILE_TMPDIR/night$n.log" >&3; return 1; }
	done
}

@test "every run step of the workflow is a tools/nightly script, and each exists" {
	python3 -c 'import yaml' 2>/dev/null || skip "python3-yaml is not installed"
	run -0 python3 - "$ROOT/.github/workflows/nightly.yml" "$ROOT" <<'PY'
import os, sys, yaml
wf = yaml.safe_load(open(sys.argv[1]))
n = 0
for name, job in wf["jobs"].items():
    for s in job["steps"]:
        if "run" not in s:
            assert "uses" in s, (name, s)
            continue
        lines = [l for l in s["run"].strip().splitlines() if l.strip()]
        assert len(lines) == 1, (name, s["run"])
        words = lines[0].split()
        assert words[0].startswith("tools/nightly/") and words[0].endswith(".sh"), lines[0]
        assert not set(";&|`$(").intersection(lines[0].replace("${{", "").replace("}}", "")), lines[0]
        assert os.access(os.path.join(sys.argv[2], words[0]), os.X_OK), words[0]
        n += 1
assert wf["permissions"] == {"contents": "read"}
assert wf["jobs"]["publish"]["permissions"]["contents"] == "write"
runners = {p["runner"] for p in wf["jobs"]["shard"]["strategy"]["matrix"]["platform"]}
assert {"ubuntu-22.04", "ubuntu-24.04", "ubuntu-24.04-arm"} <= runners, runners
print("run steps", n)
PY
	echo "$output"
	[[ "$output" == "run steps "* ]] || false
}

@test "the check: JUnit in the results, a step summary, an annotation per regressed claim, exit 1" {
	w=$BATS_FILE_TMPDIR/night3
	grep -q "check a: 1" "$BATS_FILE_TMPDIR/night3.log"
	xmllint --noout "$w/merged-a/junit.xml"
	grep -q '<testsuites' "$w/merged-a/junit.xml"
	grep -qF '::error title=touch claim touched-all regressed::' "$w/check-a.out"
	[ "$(grep -c "^::error" "$w/check-a.out")" -eq 1 ]
	grep -q '^## test-a-thp_madvise: failed' "$w/summary-a.md"
	grep -q '^| touch | 1 | 0 | 1 |' "$w/summary-a.md"
	run -2 "$NS/check.sh" "$BATS_TEST_TMPDIR/none"
}

@test "the published tree: index, reports, trend over three nights, platforms table, export JSON" {
	for p in test-a-thp_madvise test-b-thp_always; do
		grep -qF "href=\"$p/report.html\"" "$SITE/index.html"
		[ -s "$SITE/$p/report.html" ]
		grep -q "trend over 3 results directories" "$SITE/$p/trend/trend.txt"
		grep -v '^#' "$SITE/$p/trend/trend.tsv" > "$BATS_TEST_TMPDIR/trend.tsv"
		[ "$(tsv_col "$BATS_TEST_TMPDIR/trend.tsv" index | sort -u | tr '\n' ' ')" = "1 2 3 " ]
		python3 -m json.tool "$SITE/$p/export/bmf.json" > /dev/null
		python3 -m json.tool "$SITE/$p/export/benchmark-action.json" > /dev/null
		grep -qF '"touch allocator=glibc,mb=4"' "$SITE/$p/export/bmf.json"
		grep -qF "$p" "$SITE/platforms.md"
		grep -qF "$p" "$SITE/platforms.html"
	done
	grep -qF 'href="platforms.html"' "$SITE/index.html"
}

@test "the history: three nights per platform, compact (no logs, log column -), one proposed baseline each" {
	for p in test-a-thp_madvise test-b-thp_always; do
		[ "$(ls "$HIST/$p" | tr '\n' ' ')" = "2026-11-01 2026-11-02 2026-11-03 " ]
		for d in "$HIST/$p"/*; do
			[ "$(ls "$d" | tr '\n' ' ')" = "checkpoints.tsv env.tsv runs.tsv series.tsv " ]
			[ "$(tsv_col "$d/runs.tsv" log | sort -u)" = - ]
			[ "$(tsv_col "$d/runs.tsv" outcome | wc -l)" -eq 6 ]
		done
		[ -s "$HIST/baselines/$p/touch.tsv" ]
		grep -qF "# results	$HIST/$p/2026-11-01" "$HIST/baselines/$p/touch.tsv"
	done
	[ -z "$(find "$HIST" -name logs -o -name '*.log')" ]
	# a compact night checks as the full results do
	run -1 "$MR" check --cases "$FIX" --expected "$MEMREPRO_EXPECTED" --from "$HIST/test-a-thp_madvise/2026-11-02"
	[[ "$output" == *"touched-all"*regressed* ]] || false
}

@test "the 61st night drops the oldest: 60 are kept" {
	h=$BATS_TEST_TMPDIR/h
	r=$BATS_FILE_TMPDIR/night1/merged-a
	for n in $(seq -w 1 61); do
		"$NS/history.sh" "$h" "$r" "2026-night-$n" > /dev/null
	done
	[ "$(ls "$h/test-a-thp_madvise" | wc -l)" -eq 60 ]
	[ ! -e "$h/test-a-thp_madvise/2026-night-01" ]
	[ -d "$h/test-a-thp_madvise/2026-night-02" ]
	[ -d "$h/test-a-thp_madvise/2026-night-61" ]
	run -2 "$NS/history.sh" "$h" "$r" "../up"
}

@test "thp.sh writes the mode where it may, and gives a notice where it may not" {
	mkdir -p "$BATS_TEST_TMPDIR/thp"
	echo "always [madvise] never" > "$BATS_TEST_TMPDIR/thp/enabled"
	THP_SYSFS=$BATS_TEST_TMPDIR/thp run -0 "$NS/thp.sh" always
	[ "$(cat "$BATS_TEST_TMPDIR/thp/enabled")" = always ]
	THP_SYSFS=$BATS_TEST_TMPDIR/none run -0 "$NS/thp.sh" madvise
	[[ "$output" == "::notice title=THP::cannot set THP to madvise here"* ]] || false
	run -2 "$NS/thp.sh" sometimes
}

@test "branch.sh: the history branch made the first night, pushed, found and added to the next" {
	o=$BATS_TEST_TMPDIR/origin.git
	c=$BATS_TEST_TMPDIR/clone
	git init -q --bare "$o"
	git init -q "$c"
	echo main > "$c/README"
	git -C "$c" add README
	git -C "$c" -c user.name=t -c user.email=t@localhost commit -q -m main
	git -C "$c" remote add origin "$o"
	(cd "$c" && "$NS/branch.sh" open history)
	[ ! -e "$c/history/README" ]
	cp -R "$HIST/test-a-thp_madvise" "$c/history/"
	(cd "$c" && "$NS/branch.sh" push history)
	[ "$(git -C "$o" ls-tree -r --name-only history | grep -c '/runs.tsv$')" -eq 3 ]
	git -C "$c" worktree remove --force history
	(cd "$c" && "$NS/branch.sh" open history)
	[ -f "$c/history/test-a-thp_madvise/2026-11-03/runs.tsv" ]
	cp -R "$HIST/test-b-thp_always" "$c/history/"
	(cd "$c" && "$NS/branch.sh" push history)
	[ "$(git -C "$o" ls-tree -r --name-only history | grep -c '/runs.tsv$')" -eq 6 ]
	[ "$(git -C "$o" rev-list --count history)" -eq 2 ]
	run -0 sh -c "cd '$c' && '$NS/branch.sh' push history"
	[[ "$output" == "history: nothing new" ]] || false
}

@test "profile.sh: a profile of its own checked whole, JUnit in the results; anything else exit 2" {
	d=$BATS_TEST_TMPDIR/originals
	run -0 "$NS/profile.sh" originals "$d" nap --axis allocator=glibc
	[ -f "$d/runs.tsv" ]
	xmllint --noout "$d/junit.xml"
	grep -q '<testsuite name="nap"' "$d/junit.xml"
	[ "$(tsv_col "$d/runs.tsv" outcome | sort -u)" = ok ]
	run -2 "$NS/profile.sh" nightly "$BATS_TEST_TMPDIR/x"
	[[ "$output" == *"profile 'nightly': originals, versions or kernels"* ]] || false
	run -2 "$NS/profile.sh" versions "$d"
	[[ "$output" == *"$d exists"* ]] || false
}

@test "setup.sh: the packages and the build, through sudo where not root" {
	local bin=$BATS_TEST_TMPDIR/bin c
	mkdir -p "$bin"
	for c in apt-get make sudo; do
		printf '#!/bin/sh\necho "%s $*" >> "%s/calls"\n' "$c" "$BATS_TEST_TMPDIR" > "$bin/$c"
	done
	printf '#!/bin/sh\necho "$FAKE_UID"\n' > "$bin/id"
	chmod +x "$bin"/*
	for s in "0 " "1000 sudo "; do
		FAKE_UID=${s%% *} PATH="$bin:$PATH" run -0 "$NS/setup.sh"
		s=${s#* }
		run cat "$BATS_TEST_TMPDIR/calls"
		[ "${lines[0]}" = "${s}apt-get update" ]
		[ "${lines[1]}" = "${s}apt-get install -y make" ]
		[ "${lines[2]}" = "${s}make deps" ]
		[[ "${lines[3]}" == "make -j"*" all" ]] || false
		rm "$BATS_TEST_TMPDIR/calls"
	done
}

@test "history.sh: a platform directory or night that is a link (the history branch's) is refused; nothing outside touched" {
	results r
	h=$BATS_TEST_TMPDIR/h
	mkdir -p "$h" "$BATS_FILE_TMPDIR/outside-$BATS_TEST_NUMBER/0-old"
	outside
	ln -s "$O" "$h/test-a-thp_madvise"
	NIGHTLY_KEEP=1 run -2 "$NS/history.sh" "$h" "$R" 2026-11-05
	[[ "$output" == *"test-a-thp_madvise: a symbolic link: refused"* ]] || false
	intact
	rm "$h/test-a-thp_madvise"
	mkdir "$h/test-a-thp_madvise"
	ln -s "$O" "$h/test-a-thp_madvise/2026-10-01"
	NIGHTLY_KEEP=1 run -2 "$NS/history.sh" "$h" "$R" 2026-11-05
	[[ "$output" == *"2026-10-01: not a directory (a link or other): refused"* ]] || false
	[ ! -e "$h/test-a-thp_madvise/2026-11-05" ]
	intact
}

@test "history.sh: results files that are links are refused, never copied into the history" {
	mkdir -p "$BATS_FILE_TMPDIR/outside-$BATS_TEST_NUMBER"
	local f src=$BATS_FILE_TMPDIR/night1/merged-a
	for f in env.tsv checkpoints.tsv runs.tsv series.tsv; do
		{ cat "$src/$f"; printf 'secret\tsecret\n'; } > "$BATS_FILE_TMPDIR/outside-$BATS_TEST_NUMBER/$f"
	done
	outside
	for f in env.tsv checkpoints.tsv runs.tsv series.tsv; do
		results "r-$f"
		ln -sf "$O/$f" "$R/$f"
		run -2 "$NS/history.sh" "$BATS_TEST_TMPDIR/h" "$R" 2026-11-05
		[[ "$output" == *"$R/$f: not a regular file (a link or other): refused"* ]] || false
		run ! grep -rq secret "$BATS_TEST_TMPDIR/h"
	done
	intact
}

@test "check.sh: a junit.xml that is a link is refused; what it points at is untouched" {
	outside
	results r
	rm "$R/junit.xml"
	ln -s "$O/sentinel" "$R/junit.xml"
	run -2 "$NS/check.sh" "$R"
	[[ "$output" == *"$R/junit.xml: a symbolic link: refused"* ]] || false
	intact
}

@test "night.sh: a report, plots or junit.xml that is a link is refused; nothing of it in the site" {
	outside
	local f
	for f in junit.xml plots report.html; do
		results "r-$f"
		rm -rf "${R:?}/$f"
		if [ "$f" = plots ]; then ln -s "$O" "$R/$f"; else ln -s "$O/sentinel" "$R/$f"; fi
		NIGHT=2026-11-05 run -2 "$NS/night.sh" "$BATS_TEST_TMPDIR/h" "$BATS_TEST_TMPDIR/site" "$R"
		[[ "$output" == *"$R/$f: not a regular file or directory (a link or other): refused"* ]] || false
		[ -z "$(find -P "$BATS_TEST_TMPDIR/site" -type l)" ]
		run ! grep -Rq secret "$BATS_TEST_TMPDIR/site"
	done
	intact
}

@test "history.sh: NIGHTLY_KEEP and NIGHTLY_SERIES_MAX not counts exit 2 naming them, no night removed; tonight's is never pruned" {
	outside
	results r
	h=$BATS_TEST_TMPDIR/h
	"$NS/history.sh" "$h" "$R" 2026-11-01 > /dev/null
	"$NS/history.sh" "$h" "$R" 2026-11-02 > /dev/null
	local k
	for k in 0 -1 x 1e3 9999999999 " 1"; do
		NIGHTLY_KEEP=$k run -2 "$NS/history.sh" "$h" "$R" 2026-11-03
		[[ "$output" == *"NIGHTLY_KEEP '$k'"* ]] || false
		[ "$(ls "$h/test-a-thp_madvise" | tr '\n' ' ')" = "2026-11-01 2026-11-02 " ]
	done
	NIGHTLY_SERIES_MAX=1MiB run -2 "$NS/history.sh" "$h" "$R" 2026-11-03
	[[ "$output" == *"NIGHTLY_SERIES_MAX '1MiB'"* ]] || false
	# tonight older than the nights kept: it stays, the oldest other goes
	NIGHTLY_KEEP=1 run -0 "$NS/history.sh" "$h" "$R" 2026-10-31
	[ "$(ls "$h/test-a-thp_madvise" | tr '\n' ' ')" = "2026-10-31 2026-11-02 " ]
	intact
}

@test "branch.sh: NIGHTLY_BRANCH not a branch name (an option) exit 2 before git runs; a history holding a link refused" {
	outside
	o=$BATS_TEST_TMPDIR/origin.git
	c=$BATS_TEST_TMPDIR/clone
	git init -q --bare "$o"
	git init -q "$c"
	echo main > "$c/README"
	git -C "$c" add README
	git -C "$c" -c user.name=t -c user.email=t@localhost commit -q -m main
	git -C "$c" remote add origin "$o"
	local b
	for b in "--upload-pack=rm -f $O/sentinel #" -x "a..b" "a b" "x:y" "@{-1}"; do
		NIGHTLY_BRANCH=$b run -2 env -C "$c" "$NS/branch.sh" open history
		[[ "$output" == *"NIGHTLY_BRANCH '$b'"* ]] || false
		[ ! -e "$c/history" ]
	done
	# a link committed to the history branch: refused on open
	git -C "$c" worktree add -q --detach "$BATS_TEST_TMPDIR/evil"
	git -C "$BATS_TEST_TMPDIR/evil" checkout -q --orphan history
	git -C "$BATS_TEST_TMPDIR/evil" rm -rfq .
	ln -s "$O" "$BATS_TEST_TMPDIR/evil/test-a-thp_madvise"
	git -C "$BATS_TEST_TMPDIR/evil" add -A .
	git -C "$BATS_TEST_TMPDIR/evil" -c user.name=t -c user.email=t@localhost commit -q -m evil
	git -C "$BATS_TEST_TMPDIR/evil" push -q origin HEAD:refs/heads/history
	git -C "$c" worktree remove --force "$BATS_TEST_TMPDIR/evil"
	run -2 env -C "$c" "$NS/branch.sh" open history
	[[ "$output" == *"history/test-a-thp_madvise: not a regular file or directory (a link or other) in the history: refused"* ]] || false
	# and on push: nothing pushed
	rm "$c/history/test-a-thp_madvise"
	ln -s "$O/sentinel" "$c/history/x"
	before=$(git -C "$o" rev-parse history)
	run -2 env -C "$c" "$NS/branch.sh" push history
	[[ "$output" == *"history/x: not a regular file"* ]] || false
	[ "$(git -C "$o" rev-parse history)" = "$before" ]
	intact
}

@test "publish.sh: a site directory not a platform name or a link is left out; index.html a link refused; html() escapes" {
	outside
	s=$BATS_TEST_TMPDIR/site
	mkdir -p "$s/test-a-thp_madvise" "$s/a\"><img src=x onerror=alert(1)>" "$s/javascript:alert(1)"
	ln -s "$O" "$s/linked"
	run -0 "$NS/publish.sh" "$BATS_TEST_TMPDIR/h" "$s"
	grep -q '<li>test-a-thp_madvise ' "$s/index.html"
	run ! grep -q -e '<img' -e 'javascript:' -e linked "$s/index.html"
	run -0 sh -c ". '$NS/lib.sh'; html \"\$1\"" sh "a&b<c>d\"e'f"
	[ "$output" = "a&amp;b&lt;c&gt;d&quot;e&#39;f" ]
	rm "$s/index.html"
	ln -s "$O/sentinel" "$s/index.html"
	run -2 "$NS/publish.sh" "$BATS_TEST_TMPDIR/h" "$s"
	[[ "$output" == *"$s/index.html: a symbolic link: refused"* ]] || false
	intact
}

@test "thp.sh: THP_SYSFS relative, or its enabled file a link, exit 2; what the link points at untouched" {
	outside
	mkdir "$BATS_TEST_TMPDIR/thp"
	ln -s "$O/sentinel" "$BATS_TEST_TMPDIR/thp/enabled"
	THP_SYSFS=$BATS_TEST_TMPDIR/thp run -2 "$NS/thp.sh" always
	[[ "$output" == *"THP_SYSFS: $BATS_TEST_TMPDIR/thp/enabled is a symbolic link: refused"* ]] || false
	THP_SYSFS=thp run -2 "$NS/thp.sh" always
	[[ "$output" == *"THP_SYSFS 'thp': an absolute path wanted"* ]] || false
	intact
}

@test "NIGHT, NIGHTLY_PROFILE, MEMREPRO_CASES and trend.sh's PLATFORM not plain exit 2 naming them, before anything is written" {
	outside
	results r
	NIGHT=../x run -2 "$NS/night.sh" "$BATS_TEST_TMPDIR/h" "$BATS_TEST_TMPDIR/site" "$R"
	[[ "$output" == *"NIGHT '../x' is not a plain name"* ]] || false
	[ ! -e "$BATS_TEST_TMPDIR/site" ]
	NIGHTLY_PROFILE=-x run -2 "$NS/shard.sh" fake 1 2 "$BATS_TEST_TMPDIR/shard" touch
	[[ "$output" == *"NIGHTLY_PROFILE '-x' is not a plain name"* ]] || false
	[ ! -e "$BATS_TEST_TMPDIR/shard" ]
	MEMREPRO_CASES="$FIX $O" run -2 "$NS/check.sh" "$R"
	[[ "$output" == *"MEMREPRO_CASES '$FIX $O': a path without spaces or *?[ wanted"* ]] || false
	run -2 "$NS/trend.sh" "$BATS_TEST_TMPDIR/h" .. "$BATS_TEST_TMPDIR/trend"
	[[ "$output" == *"PLATFORM '..' is not a plain name"* ]] || false
	[ ! -e "$BATS_TEST_TMPDIR/trend" ]
	intact
}
