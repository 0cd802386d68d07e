// Exits between its record and the ack.
// memrepro: params mb
require('fs').writeSync(3, 'ckpt\ttouched\t1\n');
process.exit(0);
