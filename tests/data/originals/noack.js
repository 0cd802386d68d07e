// Sends its record and never reads the ack: the run's deadline ends it.
// memrepro: params mb
require('fs').writeSync(3, 'ckpt\ttouched\t1\n');
setInterval(() => {}, 1000);
