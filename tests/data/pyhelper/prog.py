# The program of tests/pyhelper.bats under its mock runner: three
# checkpoints with 16 MiB more written before each, a forked child's
# checkpoint (never sent), a child by os.system that must see neither the
# variables nor the fds, --param taken off sys.argv.
import os
import sys

sys.path.insert(0, sys.argv[1])
import memrepro  # noqa: E402

keep = []
for i in range(3):
    keep.append(bytearray(b"\1") * (16 << 20))
    memrepro.checkpoint("grow")
pid = os.fork()
if pid == 0:
    memrepro.checkpoint("child")
    os._exit(0)
os.waitpid(pid, 0)
os.system("echo child-env ${MEMREPRO_CKPT_FD-unset} ${MEMREPRO_ACK_FD-unset}; "
          "for fd in 3 4; do [ -e /proc/self/fd/$fd ] && echo child-has-fd $fd; done; true")
memrepro.checkpoint("done")
print("param n=%s argv %s" % (memrepro.param("n", "none"), " ".join(sys.argv[2:])), flush=True)
print("end", flush=True)
