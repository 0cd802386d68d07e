# A fixture original for tests/pyhelper.bats: lib/memrepro.py on the
# fixture model "touch" (found at ../lib/memrepro.py, as cases/ has it).
# memrepro: params mb
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import memrepro  # noqa: E402

mb = int(memrepro.param("mb", 64))
buf = bytearray(b"\1") * (mb << 20)
memrepro.checkpoint("touched")
print("touched %d MiB; env %s; argv %s" % (len(buf) >> 20, os.environ.get("MEMREPRO_CKPT_FD"),
                                         " ".join(sys.argv[1:])))
