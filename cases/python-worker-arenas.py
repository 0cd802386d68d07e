# python-worker-arenas.py: the report's worker beside cases/python-worker-arenas.c.
# Behaviour: a burst of requests served by an 8-thread ThreadPoolExecutor,
# each request's objects freed but for a few small survivors; the idle
# worker keeps a request's worth in each thread's glibc arena (the
# mechanism is explained in the model's header).
#
# Source: goauthentik/authentik#25683 (thekoma, 2026-09-02; text in
# seeds/008_bf1798111e133789.txt): "A gunicorn web worker that handled one
# burst keeps the memory afterwards.  An idle worker, serving no traffic,
# sat at: Rss: 2110844 kB  Private_Dirty: 2002740 kB  Anonymous: 2090156 kB
# threads: 8"; "The DjangoUvicornWorker runs blocking DB work in an 8-thread
# ThreadPoolExecutor"; "Setting MALLOC_ARENA_MAX=2 and
# MALLOC_TRIM_THRESHOLD_=131072 ... cut the post-burst retention from ~2 GiB
# to ~640 MiB".  The thread prints no program: this is the worker as it
# describes it, written here, without Django.
#
# Written, not transcribed, and why:
#  - a request is a function run on the executor: it builds a list of
#    request_mb of bytes objects of chunk_b bytes (above pymalloc's 512, so
#    malloc'd by the thread that builds them, as a query's rows are) and,
#    after every keep-th, a survivor of survivor_b bytes put on its thread's
#    cache (the report does not say what survives a request);
#  - the pool is ThreadPoolExecutor's, written with threading alone: the
#    runtime kind runs Debian's pythonX.Y-minimal, which has threading but
#    not concurrent.futures or queue (libpythonX.Y-stdlib's); its worker
#    loop is the executor's, each thread taking the next work item from a
#    shared queue (a deque under a condition variable) until shut down;
#  - the burst: rounds x threads requests queued at once, so every pool
#    thread takes one, served one at a time in queue order (the condition
#    variable; the model does the same);
#  - memrepro.checkpoint at start (the threads started), held (the first
#    request's objects live) and idle (idle_ms after the burst); by hand they
#    do nothing, and the program prints its VmRSS at each.
#  - MALLOC_ARENA_MAX and MALLOC_TRIM_THRESHOLD_ are the runner's glibc
#    tunables (--axis glibc.malloc.arena_max=2), as for the model.
#
# memrepro: params threads rounds request_mb chunk_b keep survivor_b idle_ms
import os
import sys
import threading
import time
from collections import deque

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import memrepro  # noqa: E402


def rss_kb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


threads = int(memrepro.param("threads", 8))
rounds = int(memrepro.param("rounds", 2))
request_mb = int(memrepro.param("request_mb", 256))
chunk_b = int(memrepro.param("chunk_b", 2048))
keep = int(memrepro.param("keep", 32))
survivor_b = int(memrepro.param("survivor_b", 1024))
idle_ms = int(memrepro.param("idle_ms", 1000))
nobj = request_mb * 1024 * 1024 // chunk_b
letters = [bytes([c]) for c in range(ord("a"), ord("z") + 1)]

moved = threading.Condition()
work = deque()    # the pool's queue of work items
turn = 0          # the request being served
served = 0
caches = {}       # a pool thread's survivors, by thread ident


def request(k):
    global turn, served
    with moved:
        while turn != k:
            moved.wait()
    cache = caches.setdefault(threading.get_ident(), [])
    objs = []
    for i in range(nobj):
        objs.append(letters[i % 26] * chunk_b)
        if survivor_b and i % keep == keep - 1:
            cache.append(b"s" * survivor_b)
    if k == 0:
        memrepro.checkpoint("held")
        print("held: one request's objects live, VmRSS %d kB" % rss_kb())
    del objs
    with moved:
        turn += 1
        served += 1
        moved.notify_all()


def pool_thread():
    """ThreadPoolExecutor's worker loop: the next work item, until None."""
    while True:
        with moved:
            while not work:
                moved.wait()
            item = work.popleft()
        if item is None:
            return
        item()


started = threading.Barrier(threads + 1)
pool = [threading.Thread(target=pool_thread) for _ in range(threads)]
for t in pool:
    t.start()
with moved:
    # each thread runs some Python first (so has malloc'd: its arena)
    work.extend([started.wait] * threads)
    moved.notify_all()
started.wait()
memrepro.checkpoint("start")
print("start: %d pool threads, VmRSS %d kB" % (threads, rss_kb()))

with moved:
    work.extend([lambda k=k: request(k) for k in range(rounds * threads)])
    moved.notify_all()
    while served < rounds * threads:
        moved.wait()
time.sleep(idle_ms / 1000.0)
memrepro.checkpoint("idle")
kept = sum(len(c) for c in caches.values())
print("idle: %d requests served by %d threads, %d survivors of %d bytes kept, VmRSS %d kB"
      % (rounds * threads, len(caches), kept, survivor_b, rss_kb()))
with moved:
    work.extend([None] * threads)
    moved.notify_all()
for t in pool:
    t.join()
