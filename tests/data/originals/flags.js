// memrepro: params mb
// memrepro: flags --expose-gc
// memrepro: env mb=8 FIXTURE_MB=eight
const fs = require('fs');
console.log(`gc ${typeof gc} var ${process.env.FIXTURE_MB} argv ${process.argv.slice(2).join(' ')}`);
