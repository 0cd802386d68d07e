"""summary.py CHECK_JSON [SUMMARY_MD]: check --format json's verdicts as
GitHub annotations (stdout) and a markdown table (appended to SUMMARY_MD)."""
import json
import sys


def esc(s):
    """An annotation's text: %, CR and LF escaped as the runner wants."""
    return str(s).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def fig(f):
    if not f or f.get("median") is None:
        return "not measured"
    return "%s (%s..%s, n %s)" % (f["median"], f["min"], f["max"], f["n"])


def annotations(case):
    name = case["name"]
    for c in case["claims"]:
        if c["verdict"] == "regressed":
            yield "%s claim %s regressed" % (name, c["id"]), "%s; %s" % (c["detail"], c["words"])
    for b in case["baseline"]:
        if b["verdict"] == "regressed":
            e = b["expected"]
            yield ("%s baseline %s %s@%s regressed" % (name, b["config"], b["metric"], b["checkpoint"]),
                   "observed %s, expected %s +/- %s" % (fig(b["observed"]), e["median"], e["tolerance"]))
    for f in case["failed_runs"]:
        yield ("%s run %s repeat %s %s" % (name, f["config"], f["repeat"], f["outcome"]),
               "%s; log %s" % (f["detail"], f["log"]))


def main():
    doc = json.load(open(sys.argv[1]))
    rows = []
    for case in doc["cases"]:
        for title, text in annotations(case):
            print("::error title=%s::%s" % (esc(title).replace(",", "%2C").replace(":", "%3A"), esc(text)))
        t = case["totals"]
        rows.append("| %s | %d | %d | %d | %d | %d | %d | %d/%d |" % (
            case["name"], t["held"], t["reproduces"], t["regressed"], t["does_not_reproduce"],
            t["skipped"], t["baseline_regressed"], t["runs_ok"], t["runs_ok"] + t["runs_failed"]))
    if len(sys.argv) > 2 and sys.argv[2]:
        with open(sys.argv[2], "a") as out:
            out.write("## %s: %s\n\n" % (doc["platform"], doc["status"]))
            out.write("| case | held | reproduces | regressed | does not reproduce | skipped"
                      " | baseline regressed | runs ok |\n|---|---|---|---|---|---|---|---|\n")
            out.write("\n".join(rows) + "\n\n")


main()
