// Takes no parameter: its configs with mb other than the default are skipped.
console.log('ran');
