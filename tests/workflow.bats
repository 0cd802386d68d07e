#!/usr/bin/env bats
# The nightly CI workflow: valid YAML, shards that cover 1..N, a merge job.

load test_helper

WF="$ROOT/.github/workflows/nightly.yml"

@test "the nightly workflow parses and runs every shard, then merges, checks and reports" {
	python3 -c 'import yaml' 2>/dev/null || skip "python3-yaml is not installed"
	run -0 python3 - "$WF" <<'PY'
import sys, yaml
wf = yaml.safe_load(open(sys.argv[1]))
jobs = wf["jobs"]
shard, merge = jobs["shard"], jobs["merge"]
ks = shard["strategy"]["matrix"]["shard"]
runs = [s["run"] for s in shard["steps"] if "run" in s]
n = len(ks)
assert ks == list(range(1, n + 1)), ks
assert any("--shard ${{ matrix.shard }}/%d" % n in r for r in runs), runs
assert any(s.get("uses", "").startswith("actions/upload-artifact") for s in shard["steps"])
assert merge["needs"] == "shard"
mruns = " ".join(s["run"] for s in merge["steps"] if "run" in s)
for w in ("memrepro merge", "memrepro check --from", "memrepro report"):
    assert w in mruns, w
print("shards", n)
PY
	[[ "$output" == "shards 4" ]] || false
}
