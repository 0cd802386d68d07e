'use strict';
/* memrepro.js: checkpoints and parameters for a Node.js original
 * (docs/originals.md; the C cases' lib/mr_ckpt.c does the same).
 *
 *   const mr = require('../lib/memrepro.js');
 *   mr.checkpoint('tick-1000');            // before the report's console.log
 *   const bs = Number(mr.param('bs_kb', 4096));
 *
 * Under the runner, MEMREPRO_CKPT_FD names the write end of the record pipe
 * and MEMREPRO_ACK_FD the read end of the ack pipe, both blocking.  A record
 * is one line, `ckpt\t<name>\t<seq>\n`, written with one write(2); then the
 * program blocks on a 1-byte read of the ack while the runner measures it
 * (rss, vsz, rusage, faults from /proc/<pid>, smaps_rollup, the tree).  EOF or
 * an error on either pipe means the runner is gone: we stop sending and the
 * program carries on.  Run by hand (no variables) checkpoint() does nothing
 * and the program prints its figures as the report did.
 *
 * Nothing here throws into the program: a bad variable or name is said once
 * on stderr and the checkpoint is dropped.  Node >= 10.7.0 (the report's).
 */
const fs = require('fs');

const NAME_RE = /^[a-z0-9_-]{1,63}$/; /* a model's checkpoint names (lib/mr_schema.h) */
let ckptFd = -1;  /* records go here; -1: by hand, or the runner is gone */
let ackFd = -1;   /* one byte back per record */
const seen = {};  /* occurrences per name, for seq */
const ackBuf = Buffer.alloc(1);

function say(msg) {
  try { fs.writeSync(2, 'memrepro: ' + msg + '\n'); } catch (e) { /* no stderr: nothing to do */ }
}

/* The fd in variable v: -1 when unset or not a decimal fd number. */
function envFd(v) {
  const s = process.env[v];
  if (s === undefined) return -1;
  if (!/^[0-9]{1,9}$/.test(s)) {
    say(v + ' is not a file descriptor number: ' + s + '; checkpoints are off');
    return -2;
  }
  return Number(s);
}

(function init() {
  const c = envFd('MEMREPRO_CKPT_FD'), a = envFd('MEMREPRO_ACK_FD');
  /* Children (child_process) see no variables naming fds they do not have;
   * libuv's spawn passes them no fd above 2 either. */
  delete process.env.MEMREPRO_CKPT_FD;
  delete process.env.MEMREPRO_ACK_FD;
  if (c >= 0 && a >= 0) {
    ckptFd = c;
    ackFd = a;
  } else if ((c === -1) !== (a === -1) && c !== -2 && a !== -2) {
    say('MEMREPRO_CKPT_FD and MEMREPRO_ACK_FD go together; only one is set; checkpoints are off');
  }
})();

function gone() {
  ckptFd = -1;
  ackFd = -1;
}

/* Record checkpoint `name` and wait until the runner has measured us. */
exports.checkpoint = function checkpoint(name) {
  try {
    if (typeof name !== 'string' || !NAME_RE.test(name)) {
      say('checkpoint name is not [a-z0-9_-]{1,63}: ' + String(name) + '; dropped');
      return;
    }
    const seq = seen[name] = (seen[name] || 0) + 1;
    if (ckptFd < 0) return;
    const rec = 'ckpt\t' + name + '\t' + seq + '\n';
    /* One write(2): libuv's synchronous write with no position.  Node
     * ignores SIGPIPE, so a gone runner is an EPIPE thrown here. */
    if (fs.writeSync(ckptFd, rec) !== Buffer.byteLength(rec)) return gone();
    /* A blocking read of one byte; EINTR is retried by libuv, and a few
     * more times here (bounded).  0 bytes: EOF, the runner is gone. */
    for (let tries = 0; ; tries++) {
      try {
        if (fs.readSync(ackFd, ackBuf, 0, 1, null) !== 1) gone();
        return;
      } catch (e) {
        if (e.code !== 'EINTR' || tries >= 100) return gone();
      }
    }
  } catch (e) {
    gone(); /* EPIPE, EBADF...: carry on without the runner */
  }
};

/* The value of `--param name=value` (or `--param=name=value`) on the
 * command line, as a string; `def` when absent.  The last one given wins.
 * process.argv is left as it is. */
exports.param = function param(name, def) {
  let v = def;
  try {
    const argv = process.argv.slice(2);
    const take = function (kv) {
      const eq = kv.indexOf('=');
      if (eq > 0 && kv.slice(0, eq) === name) v = kv.slice(eq + 1);
    };
    for (let i = 0; i < argv.length; i++) {
      if (argv[i] === '--param' && i + 1 < argv.length) take(argv[++i]);
      else if (argv[i].indexOf('--param=') === 0) take(argv[i].slice(8));
    }
  } catch (e) { /* a strange argv: the default */ }
  return v;
};
