# @NAME@.py: the report's own program beside cases/@NAME@.c (docs/originals.md).
# Behaviour: ONE LINE, with the report's figures (the mechanism is
# explained in the model's header).
#
# Source: WHERE (a seed, OWNER/REPO#N or an https:// address), its date and
# Python version.  The report printed:
#   "THE REPORT'S OWN WORDS AND NUMBERS"
#
# Changed from the report's text, and why:
#  - memrepro.checkpoint("start") first, memrepro.checkpoint("filled") right
#    before the print whose figure the report gave.  By hand they do nothing.
#  - its size from --param mb=N (the model's parameter; the runner passes
#    the config's value).
#
# memrepro: params mb
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import memrepro  # noqa: E402  (lib/memrepro.py, found beside the script)

memrepro.checkpoint("start")
mb = int(memrepro.param("mb", 64))
kept = b"x" * (mb << 20)  # written: every page resident
memrepro.checkpoint("filled")
with open("/proc/self/status") as f:
    rss = next(int(l.split()[1]) for l in f if l.startswith("VmRSS:"))
print("RSS: %.1f MiB (%d MiB kept)" % (rss / 1024.0, len(kept) >> 20))
