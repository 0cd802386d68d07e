// A record of a checkpoint the model does not declare.
// memrepro: params mb
const fs = require('fs');
fs.writeSync(3, 'ckpt\tuntouched\t1\n');
fs.readSync(4, Buffer.alloc(1), 0, 1, null);
