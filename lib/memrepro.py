# memrepro.py: checkpoints and parameters for a Python original
# (docs/originals.md; the C cases' lib/mr_ckpt.c does the same).
#
#   import os, sys
#   sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
#   import memrepro
#   memrepro.checkpoint("created")        # before the report's print
#   n = int(memrepro.param("objects", 4000000))
#
# Under the runner, MEMREPRO_CKPT_FD names the write end of the record pipe
# and MEMREPRO_ACK_FD the read end of the ack pipe, both blocking.  A record
# is one line, "ckpt\t<name>\t<seq>\n", written with one write(2); then the
# program blocks on a 1-byte read of the ack while the runner measures it
# (rss, vsz, rusage, faults from /proc/<pid>, smaps_rollup, the tree).  EOF
# or an error on either pipe means the runner is gone: we stop sending and
# the program carries on.  Run by hand (no variables) checkpoint does nothing
# and the program prints its figures as the report did.
#
# Nothing here raises into the program: a bad variable or name is said on
# stderr and the checkpoint is dropped.  Python >= 3.9 (bullseye's).
import os as _os
import sys as _sys

_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_-")
_NAME_MAX = 63  # a model's checkpoint names (lib/mr_schema.h)

_seen = {}            # occurrences per name, for seq
_ckpt = -1            # records go here; -1: by hand, or the runner is gone
_ack = -1             # one byte back per record
_pid = _os.getpid()   # a forked child's checkpoints are not sent
_params = {}          # --param NAME=VALUE taken off sys.argv


def _say(msg):
    try:
        _os.write(2, ("memrepro: %s\n" % msg).encode("utf-8", "replace"))
    except Exception:
        pass  # no stderr: nothing to do


def _env_fd(var, value):
    """The fd in variable var: None when unset, False when not a decimal fd."""
    if value is None:
        return None
    if 1 <= len(value) <= 9 and all(c in "0123456789" for c in value):
        return int(value)
    _say("%s is not a file descriptor number: %s; checkpoints are off" % (var, value))
    return False


def _gone():
    global _ckpt, _ack
    _ckpt = -1
    _ack = -1


def _init():
    global _ckpt, _ack
    try:
        # os.system/exec children see no variables naming fds they do not
        # have (os.environ.pop unsets them in the process too)...
        c = _env_fd("MEMREPRO_CKPT_FD", _os.environ.pop("MEMREPRO_CKPT_FD", None))
        a = _env_fd("MEMREPRO_ACK_FD", _os.environ.pop("MEMREPRO_ACK_FD", None))
        if c is not None and a is not None and c is not False and a is not False:
            # ...nor the fds: inherited fds are not close-on-exec, and an
            # os.system("ps") child holding the record pipe would keep it
            # open (subprocess closes them itself unless told otherwise).
            _os.set_inheritable(c, False)
            _os.set_inheritable(a, False)
            _ckpt, _ack = c, a
        elif (c is None) != (a is None) and c is not False and a is not False:
            _say("MEMREPRO_CKPT_FD and MEMREPRO_ACK_FD go together; only one is set; checkpoints are off")
    except Exception:  # EBADF: an fd that is not open, as a gone runner
        _gone()


def _take_params():
    """--param NAME=VALUE and --param=NAME=VALUE, removed from sys.argv so
    that the program sees its own arguments only.  The last one wins."""
    try:
        argv = _sys.argv
        rest = argv[:1]
        i = 1
        while i < len(argv):
            arg = argv[i]
            kv = None
            if arg == "--param" and i + 1 < len(argv):
                kv = argv[i + 1]
                i += 1
            elif arg.startswith("--param="):
                kv = arg[len("--param="):]
            else:
                rest.append(arg)
            if kv is not None:
                k, eq, v = kv.partition("=")
                if not eq or not k:
                    _say("--param wants NAME=VALUE, not %r; ignored" % kv)
                else:
                    _params[k] = v
            i += 1
        argv[:] = rest
    except Exception:
        pass


def checkpoint(name):
    """Record checkpoint name and wait until the runner has measured us."""
    try:
        name = str(name)
        if not (1 <= len(name) <= _NAME_MAX and all(c in _NAME_CHARS for c in name)):
            _say("checkpoint name is not [a-z0-9_-]{1,63}: %s; dropped" % name)
            return
        seq = _seen.get(name, 0) + 1
        _seen[name] = seq
        if _ckpt < 0 or _os.getpid() != _pid:
            return
        rec = ("ckpt\t%s\t%d\n" % (name, seq)).encode("ascii")
        # One write(2), no buffered file.  Python ignores SIGPIPE: a gone
        # runner is BrokenPipeError (an OSError) here.
        if _os.write(_ckpt, rec) != len(rec):
            _gone()
            return
        # A blocking read of one byte (EINTR is retried, PEP 475; other
        # threads run meanwhile, as they do while a C case waits).  EOF:
        # b"".
        if len(_os.read(_ack, 1)) != 1:
            _gone()
    except Exception:  # BrokenPipeError, EBADF, ...
        _gone()


def param(name, default):
    """The value of --param name=VALUE as a string; default when absent."""
    return _params.get(str(name), default)


_init()
_take_params()
