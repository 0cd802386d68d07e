// large-retention.js: the report's own program beside cases/large-retention.c.
// Behaviour: 100 MB buffers dropped and reallocated: glibc returns them at once,
// jemalloc 5.1 kept 604 MiB
// (the mechanism is explained in the model's header).
//
// Source: seeds/003_0f012ec3c6ee0fb9.txt, Node.js issue "Why don't we use
// jemalloc?" (2018), testcase 3 ("jemalloc consumes more memory"), Node.js v10.7.0.
// The report printed:
//   Normal:   RSS: 506.8125 MiB / RSS: 507.98046875 MiB /
//             RSS: 31.2421875 MiB / RSS: 507.8828125 MiB / Time: 0.774285919
//   jemalloc: RSS: 507.87890625 MiB / RSS: 604.40625 MiB /
//             RSS: 604.625 MiB / RSS: 604.625 MiB / Time: 0.349531212
//
// Changed from the report's text, and why:
//  - the template literals lost their backticks in the seed (a SyntaxError
//    as printed); restored.
//  - 5 buffers of 1e8 bytes per foo() and `foo(); foo();` before the gc()s
//    unless --param allocs=N / size=N / calls=N (the model's; its quick size
//    5e7 halves the run).
//  - mr.checkpoint('foo') right before foo()'s RSS print (foo#1, #2, #3) and
//    mr.checkpoint('gc') before the print after gc(); gc().  By hand they do
//    nothing.
//  - gc() needs node --expose-gc, as the report must have run it (the flags
//    line below).
//
// memrepro: params size allocs calls
// memrepro: ignores hard_limit_mb
// memrepro: flags --expose-gc
const mr = require('../lib/memrepro.js');
const size = Number(mr.param('size', 1e8)), allocs = Number(mr.param('allocs', 5));
const calls = Number(mr.param('calls', 2));
function foo() {
  let a;
  for (let i = 0; i < allocs; i++) a = Buffer.alloc(size, 1);
  mr.checkpoint('foo');
  console.log(`RSS: ${process.memoryUsage().rss / 1024 / 1024} MiB`);
}
const start = process.hrtime();
for (let c = 0; c < calls; c++) foo(); // foo(); foo();
gc(); gc();
mr.checkpoint('gc');
console.log(`RSS: ${process.memoryUsage().rss / 1024 / 1024} MiB`);
foo();
const time = process.hrtime(start);
console.log('Time:', time[0] + time[1] * 1e-9);
