// alloc-churn.js: the report's own programs beside cases/alloc-churn.c.
// Behaviour: A 10 MB buffer per tick, freed in batches: calloc costs glibc a memset
// and RSS, jemalloc nothing
// (the mechanism is explained in the model's header).
//
// Source: seeds/003_0f012ec3c6ee0fb9.txt, Node.js issue "Why don't we use
// jemalloc?" (2018), testcases 4 and 5, Node.js v10.7.0, each measured with
// /usr/bin/time -f '%M KiB, %e seconds' node testcase-4.js:
//   testcase 4, Buffer.alloc(1e7):     Normal (1e4 * 1e7): 129 576 KiB,
//     11.41 seconds; jemalloc: 34 928 KiB, 3.33 seconds.  (1e5 * 1e6):
//     109 196 KiB, 11.51 s; jemalloc 35 636 KiB, 4.13 s.
//   testcase 5, Buffer.alloc(1e7, 1):  Normal (1e4 * 1e7): 139 060 KiB,
//     14.38 seconds; jemalloc: 170 308 KiB, 10.65 seconds.  (1e5 * 1e6):
//     105 120 KiB, 12.25 s; jemalloc 112 548 KiB, 10.99 s.
//
// Changed from the report's text, and why:
//  - the two testcases differ only in the fill, so they are one program:
//    --param fill=zero (default) is testcase 4's Buffer.alloc(size),
//    fill=ones testcase 5's Buffer.alloc(size, 1); the model's parameter.
//  - 1e4 ticks of 1e7 bytes unless --param size=N and --param total_mb=N
//    (ticks = total_mb * 1e6 / size, the model's) or --param count=N (the
//    ticks themselves).  The model's quick total_mb=1000 is 100 ticks.
//    As printed, `if (i++ >= 1e4) return;` allocates once more than it
//    counts (1e4 + 1 buffers); kept.
//  - mr.checkpoint('end') after the last tick (the model's; the report's
//    figures are the run's peak RSS and wall time, which the runner
//    measures as /usr/bin/time did).  By hand it does nothing.
//
// memrepro: params size fill total_mb count
// memrepro: ignores soft_limit_mb mark_ticks
'use strict';
const mr = require('../lib/memrepro.js');
const size = Number(mr.param('size', 1e7)), ones = mr.param('fill', 'zero') === 'ones';
const ticks = Number(mr.param('count', 0)) || Math.floor(Number(mr.param('total_mb', 1e5)) * 1e6 / size);
let i = 0; function tick() { const a = ones ? Buffer.alloc(size, 1) : Buffer.alloc(size); if (i++ >= ticks) { mr.checkpoint('end'); return; } setImmediate(tick); }
tick();
