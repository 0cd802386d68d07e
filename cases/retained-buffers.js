// retained-buffers.js: the report's own program beside cases/retained-buffers.c.
// Behaviour: Retained 4 MiB buffers and zero-filled garbage: glibc's RSS grows to 6 GB,
// jemalloc's stays at 75 MiB
// (the mechanism is explained in the model's header).
//
// Source: seeds/003_0f012ec3c6ee0fb9.txt, Node.js issue "Why don't we use
// jemalloc?" (2018), testcase 1 (based on nodejs/node#21967), Node.js v10.7.0.
// The report printed (MiB):
//   RSS [1000]: 35.140625 MiB ... RSS [5000]: 53.29296875 MiB
//   Clearing retained and enabling alloc
//   RSS [6000]: 993.45703125 MiB  RSS [7000]: 2233.32421875 MiB
//   RSS [8000]: 3499.56640625 MiB  RSS [9000]: 4792.9140625 MiB
//   RSS [10000]: 5997.30859375 MiB
// and with LD_PRELOAD=/usr/lib/libjemalloc.so: 36.640625 ... 56.7890625,
// then 58.8828125 ... 75.453125 MiB; "Buffer.alloc(bs - 10) seems to be
// fine here".
//
// Changed from the report's text, and why:
//  - the seed is a flattened web page: its template literal lost its
//    backticks (a SyntaxError as printed) and its line breaks, which put
//    `const retained = []; let i = 0, flag = false;` inside the `// 4 MiB`
//    comment; both restored.
//  - bs is 4 MiB unless --param bs_kb=N (the model's size; its quick value
//    256 KiB makes a run ~1 s), and the garbage Buffer.alloc is bs minus
//    --param alloc_minus=N bytes (0 by default, as printed; 10 is the
//    report's "bs - 10" remark).
//  - mr.checkpoint('tick-N') right before each RSS print: the model's
//    checkpoints tick-1000 ... tick-10000.  By hand it does nothing.
//
// memrepro: params bs_kb alloc_minus
// memrepro: ignores gc_mb gc_lag
'use strict';
const mr = require('../lib/memrepro.js');
const bs = Number(mr.param('bs_kb', 4096)) * 1024; // 4 MiB
const alloc_minus = Number(mr.param('alloc_minus', 0));
const retained = [];
let i = 0, flag = false;
function tick() {
  i++;
  if (i % 1000 === 0) {
    mr.checkpoint('tick-' + i);
    console.log(`RSS [${i}]: ${process.memoryUsage().rss / 1024 / 1024} MiB`);
  }
  retained.push(Buffer.allocUnsafe(bs));
  if (i === 5000) {
    console.log('Clearing retained and enabling alloc');
    retained.length = 0;
    flag = true;
  }
  if (flag) Buffer.alloc(bs - alloc_minus); // Buffer.alloc(bs - 10) seems to be fine here
  if (i < 10000) setImmediate(tick);
}
tick();
