# A mock runner for tests/pyhelper.bats (docs/originals.md, "Check it as
# the helpers here were checked"): the record pipe's write end as fd 3 and
# the ack pipe's read end as fd 4 of PROGRAM, the variables naming them;
# per record one line "record NAME SEQ rss_kb", then the ack.
#   mock.py MODE PROGRAM ARGS...
# MODE: ack (ack every record), gone-before (both our ends closed before
# the program starts), gone-mid (the ack pipe closed, unacked, after the
# first record).  Last line: "exit CODE".
import os
import sys

mode, prog = sys.argv[1], sys.argv[2:]
ck_r, ck_w = os.pipe()
ack_r, ack_w = os.pipe()
pid = os.fork()
if pid == 0:
    os.dup2(ck_w, 3)
    os.dup2(ack_r, 4)
    for fd in (ck_r, ck_w, ack_r, ack_w):
        if fd > 4:
            os.close(fd)
    env = dict(os.environ, MEMREPRO_CKPT_FD="3", MEMREPRO_ACK_FD="4")
    os.execvpe(prog[0], prog, env)
os.close(ck_w)
os.close(ack_r)
if mode == "gone-before":
    os.close(ck_r)
    os.close(ack_w)
else:
    buf = b""
    while True:
        chunk = os.read(ck_r, 4096)
        if not chunk:
            break
        buf += chunk
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            f = line.decode().split("\t")
            with open("/proc/%d/status" % pid) as st:
                rss = [l.split()[1] for l in st if l.startswith("VmRSS:")][0]
            print("record %s %s %s" % (f[1], f[2], rss), flush=True)
            if mode == "gone-mid":
                os.close(ack_w)
                mode = "closed"
            elif mode == "ack":
                os.write(ack_w, b"k")
_, status = os.waitpid(pid, 0)
print("exit %d" % os.waitstatus_to_exitcode(status), flush=True)
