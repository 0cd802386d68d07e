/* fuzz: what the fuzz targets share.
 *
 * Each target is one file defining LLVMFuzzerTestOneInput for one parser.
 * Built with clang -fsanitize=fuzzer it is a libFuzzer binary (make fuzz);
 * linked with replay.c instead (make, any compiler) it runs the inputs
 * named on its command line once each: the regression inputs and the seed
 * corpus, in tests/fuzz.bats.
 */
#ifndef MR_FUZZ_H
#define MR_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A file holding data, at a path ("/proc/self/fd/N") the readers can open
 * by name: one memfd per process, rewritten for each input.  Returns the
 * path (static), or NULL. */
const char *fuzz_file(const uint8_t *data, size_t size);

/* A fresh directory (once per process) and the path of name in it, which
 * gets data, or is removed when data is NULL.  Returns the directory. */
const char *fuzz_dir_file(const char *name, const uint8_t *data, size_t size);

#endif
