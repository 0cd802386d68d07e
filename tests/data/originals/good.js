// A fixture original for tests/originals.bats: the protocol of
// docs/originals.md by hand (no helper), on the fixture model "touch".
// memrepro: params mb
const fs = require('fs');
let mb = 64;
for (let i = 2; i + 1 < process.argv.length; i++)
  if (process.argv[i] === '--param' && process.argv[i + 1].startsWith('mb='))
    mb = +process.argv[i + 1].slice(3);
const buf = Buffer.alloc(mb << 20, 1);
if (process.env.MEMREPRO_CKPT_FD !== undefined) {
  fs.writeSync(+process.env.MEMREPRO_CKPT_FD, 'ckpt\ttouched\t1\n');
  const ack = Buffer.alloc(1);
  if (fs.readSync(+process.env.MEMREPRO_ACK_FD, ack, 0, 1, null) !== 1)
    throw new Error('no ack');
}
console.log(`touched ${buf.length >> 20} MiB; env ${process.env.MEMREPRO_CKPT_FD}`);
