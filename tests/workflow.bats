#!/usr/bin/env bats
# The nightly CI workflow: valid YAML, every platform's shards cover 1..N
# and are merged per platform, then one publish job over all of them.

load test_helper

WF="$ROOT/.github/workflows/nightly.yml"

@test "the nightly workflow runs every shard of every platform, merges and checks each platform, then publishes" {
	python3 -c 'import yaml' 2>/dev/null || skip "python3-yaml is not installed"
	run -0 python3 - "$WF" <<'PY'
import sys, yaml
wf = yaml.safe_load(open(sys.argv[1]))
jobs = wf["jobs"]
shard, plat, pub = jobs["shard"], jobs["platform"], jobs["publish"]
ks = shard["strategy"]["matrix"]["shard"]
n = len(ks)
assert ks == list(range(1, n + 1)), ks
runs = [s["run"] for s in shard["steps"] if "run" in s]
want = "tools/nightly/shard.sh ${{ matrix.platform.name }} ${{ matrix.shard }} %d " % n
assert any(r.startswith(want) for r in runs), runs
names = [p["name"] for p in shard["strategy"]["matrix"]["platform"]]
assert plat["strategy"]["matrix"]["platform"] == names, (names, plat["strategy"]["matrix"])
assert plat["needs"] == "shard" and pub["needs"] == "platform"
pruns = " ".join(s["run"] for s in plat["steps"] if "run" in s)
for w in ("merge.sh", "check.sh", "report.sh"):
    assert "tools/nightly/" + w in pruns, w
assert any(s.get("uses", "").startswith("mikepenz/action-junit-report") for s in plat["steps"])
uses = [s.get("uses", "") for s in pub["steps"]]
for u in ("actions/upload-pages-artifact", "actions/deploy-pages"):
    assert any(x.startswith(u) for x in uses), u
print("shards", n, "platforms", len(names))
PY
	echo "$output"
	[[ "$output" == "shards 4 platforms 8" ]] || false
}
