# two-allocators-strand.py: the report's program, as far as Debian's
# interpreters can run it, beside cases/two-allocators-strand.c.
# Behaviour: a C extension's memory freed to glibc stays resident below a
# live block; objects above 512 bytes reuse it when they come from malloc
# and do not when they come from mimalloc (the mechanism is explained in
# the model's header).
#
# Source: python/cpython#156159 (open; seeds/010_*.txt).  The report's
# program: "Phase 1: churn medium buffers through glibc malloc/free (a C
# extension stand-in), keeping one live block at the top of the arena so
# glibc cannot trim. -> ~STRAND_MB of resident, free-but-retained arena
# space.  Phase 2: allocate PYOBJ_MB of long-lived Python objects above the
# 512-byte obmalloc threshold.  GIL build: served by glibc, reuses the
# stranded space -> RSS flat.  -t build: served by mimalloc, asks the OS
# for new memory -> RSS +2 GB."  STRAND_MB=2048; TRIM=1 calls malloc_trim(0).
#
# Written, not transcribed, and why:
#  - no Debian release has a free-threaded build (no python3.13t or
#    3.14t package from bullseye to sid): the -t build's split, objects
#    from CPython's own mimalloc and the raw domain from glibc, is had
#    from the default build with PYTHONMALLOC=mimalloc (objects=arena),
#    which sets the object and mem domains to mimalloc and leaves the raw
#    domain on malloc, as the free-threaded 3.13 and 3.14 do.  Before 3.13
#    there is no mimalloc (an unknown PYTHONMALLOC is a fatal error at
#    start-up), so objects=arena sets MEMREPRO_OBJECTS=arena and the
#    program execs itself again (same pid, same command line, the loader
#    in front kept: /proc/self/exe and /proc/self/cmdline) with
#    PYTHONMALLOC=mimalloc on 3.13 and later, and is skipped before;
#  - the report calls glibc's malloc through ctypes, which is not in the
#    interpreter memrepro runs (pythonX.Y-minimal: no _ctypes): the C
#    extension here is zlib, built into that interpreter, whose deflate
#    state comes from PyMem_RawMalloc, that is glibc's malloc, in blocks
#    of 64 KiB and less (window, prev, head, pending at memLevel 8): each
#    compressobj is fed 64 KiB so that they are written; the last one
#    made is kept (the live block at the top), the others dropped; a
#    stream writes about 80 % of its state, so strand_mb=2048 leaves
#    about 1.6 GiB resident (measured), not 2 GiB;
#  - TRIM=1 cannot be had without ctypes: trim=malloc_trim is skipped;
#  - the objects are bytes of 1,000 bytes, each written (a byte times
#    1000: not bytes(n), whose calloc may leave fresh pages unwritten);
#  - the sizes are the model's parameters, in MiB; checkpoints where the
#    model has them; the program prints its phases' RSS itself.
#
# memrepro: params strand_mb obj_mb
# memrepro: ignores buffer_kb obj_b chunk_mb
# memrepro: env objects=malloc MEMREPRO_OBJECTS=malloc
# memrepro: env objects=arena MEMREPRO_OBJECTS=arena
import os
import sys
import zlib

if os.environ.get("MEMREPRO_OBJECTS") == "arena" and os.environ.get("PYTHONMALLOC") != "mimalloc":
    if sys.version_info < (3, 13):
        sys.stderr.write("skipped: Python %d.%d has no mimalloc (PYTHONMALLOC=mimalloc is 3.13's)\n"
                         % sys.version_info[:2])
        sys.exit(4)
    sys.stdout.flush()
    with open("/proc/self/cmdline", "rb") as f:
        argv = f.read().split(b"\0")[:-1]
    os.execve("/proc/self/exe", argv, dict(os.environ, PYTHONMALLOC="mimalloc"))

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import memrepro  # noqa: E402

MB = 1024 * 1024


def rss_mb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return 0.0


strand_mb = int(memrepro.param("strand_mb", 2048))
obj_mb = int(memrepro.param("obj_mb", 2048))
alloc = os.environ.get("PYTHONMALLOC", "pymalloc")

memrepro.checkpoint("start")
print("%s: start %.1f MB" % (alloc, rss_mb()))
# Phase 1: deflate states (about 262 KiB of glibc's heap each), written.
feed = bytes(range(256)) * 256
streams = []
made = 0
while made < strand_mb * MB:
    c = zlib.compressobj(1, zlib.DEFLATED, 15, 8)
    c.compress(feed)
    c.flush(zlib.Z_SYNC_FLUSH)
    streams.append(c)
    made += 262 * 1024
pin = streams.pop()
memrepro.checkpoint("churned")
print("%s: phase 1, %d deflate streams live %.1f MB" % (alloc, len(streams) + 1, rss_mb()))
del streams
memrepro.checkpoint("stranded")
print("%s: phase 1 freed, one stream kept %.1f MB" % (alloc, rss_mb()))
# Phase 2: long-lived objects above 512 bytes.
n = obj_mb * MB // 1000
one = feed[1:2]  # not a constant: b"\x01" * 1000 would be folded into one object
objs = [one * 1000 for _ in range(n)]
memrepro.checkpoint("objects")
print("%s: phase 2, %d objects of 1000 bytes %.1f MB" % (alloc, len(objs), rss_mb()))
