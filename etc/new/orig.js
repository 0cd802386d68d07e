// @NAME@.js: the report's own program beside cases/@NAME@.c (docs/originals.md).
// Behaviour: ONE LINE, with the report's figures (the mechanism is
// explained in the model's header).
//
// Source: WHERE (a seed, OWNER/REPO#N or an https:// address), its date and
// Node.js version.  The report printed:
//   "THE REPORT'S OWN WORDS AND NUMBERS"
//
// Changed from the report's text, and why:
//  - mr.checkpoint('start') first, mr.checkpoint('filled') right before the
//    print whose figure the report gave.  By hand they do nothing.
//  - its size from --param mb=N (the model's parameter; the runner passes
//    the config's value).
//
// memrepro: params mb
const mr = require('../lib/memrepro.js');
mr.checkpoint('start');
const mb = Number(mr.param('mb', 64));
const kept = Buffer.alloc(mb * 1024 * 1024, 1); // written: every page resident
mr.checkpoint('filled');
console.log(`RSS: ${(process.memoryUsage().rss / 1048576).toFixed(1)} MiB (${kept.length >> 20} MiB kept)`);
