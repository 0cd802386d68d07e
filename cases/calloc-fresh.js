// calloc-fresh.js: the report's own program beside cases/calloc-fresh.c.
// Behaviour: 10,000 kept zero-filled 100 kB buffers: glibc's calloc touches 697 MiB,
// jemalloc's 37 MiB
// (the mechanism is explained in the model's header).
//
// Source: seeds/003_0f012ec3c6ee0fb9.txt, Node.js issue "Why don't we use
// jemalloc?" (2018), testcase 2, Node.js v10.7.0.  The report printed:
//   "Normal — 697 MiB, jemalloc — 37 MiB."
//
// Changed from the report's text, and why:
//  - the template literal lost its backticks in the seed (a SyntaxError as
//    printed); restored.
//  - 1e4 buffers of 1e5 bytes unless --param count=N / --param size=N (the
//    model's sizes; its quick count 2000 makes a run well under a second).
//  - mr.checkpoint('start') first thing (no print: the interpreter's own
//    RSS, which the model's growth is compared with) and
//    mr.checkpoint('filled') right before the RSS print.  By hand they do
//    nothing.
//  - the model's zero=memset is not the runtime's (Node 10 callocs), so this
//    program takes no parameter zero.
//
// memrepro: params count size
const mr = require('../lib/memrepro.js');
mr.checkpoint('start');
const count = Number(mr.param('count', 1e4)), size = Number(mr.param('size', 1e5));
const arr = [];
for (let i = 0; i < count; i++) arr.push(Buffer.alloc(size));
mr.checkpoint('filled');
console.log(`RSS: ${process.memoryUsage().rss / 1024 / 1024} MiB`);
