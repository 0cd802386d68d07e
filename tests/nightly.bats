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
	xmllint --noout "$w/merged-a/junit.xml" 2>/dev/null || grep -q '<testsuites' "$w/merged-a/junit.xml"
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
