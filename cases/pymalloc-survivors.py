# pymalloc-survivors.py: the report's workload beside cases/pymalloc-survivors.c.
# Behaviour: small objects, 99 % freed with 1 % scattered survivors: pymalloc's
# arenas stay (the mechanism is explained in the model's header).
#
# Source: nt-nerdtechnic/Navide#23 (2026-08-18, CPython 3.12 on macOS), the
# maintainer's reproduction, "same workload, same machine", footprint in MB:
#   peak, 4M live small objects        pymalloc 870.8   PYTHONMALLOC=malloc 871.2
#   after freeing 99%, 1% scattered             871.1                       871.2
#   after freeing everything                     44.8                       343.1
# The thread prints the table, not the program: this is the workload as the
# table describes it, written here.
#
# Written, not transcribed, and why:
#  - the objects are str of ~157 characters (sys.getsizeof 205 on 3.11): the
#    report's 870.8 MB for 4M objects and their list is ~210 bytes each;
#  - "1% scattered" is every hundredth object of the creation order kept
#    (objs[::100]), the others dropped with the old list;
#  - memrepro.checkpoint right where the report's table has a row: peak,
#    survivors, freed (and start, before the objects); by hand they do
#    nothing, and the program prints the rows with its own RSS (from
#    /proc/self/status: the report's footprint is macOS's vmmap figure).
#  - --param objects=N and keep=N (the model's), alloc=malloc is
#    PYTHONMALLOC=malloc (the env line below).
#
# memrepro: params objects keep
# memrepro: ignores size arena_kb pool_kb
# memrepro: env alloc=malloc PYTHONMALLOC=malloc
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import memrepro  # noqa: E402


def rss_mb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return 0.0


n = int(memrepro.param("objects", 4000000))
keep = int(memrepro.param("keep", 100))
alloc = os.environ.get("PYTHONMALLOC", "pymalloc")

memrepro.checkpoint("start")
print("%s: start %.1f MB" % (alloc, rss_mb()))
objs = ["x" * 150 + str(i) for i in range(n)]
memrepro.checkpoint("peak")
print("%s: peak, %d live small objects %.1f MB" % (alloc, len(objs), rss_mb()))
objs = objs[::keep]
memrepro.checkpoint("survivors")
print("%s: after freeing 99%%, 1%% scattered %.1f MB (%d kept)" % (alloc, rss_mb(), len(objs)))
del objs
memrepro.checkpoint("freed")
print("%s: after freeing everything %.1f MB" % (alloc, rss_mb()))
