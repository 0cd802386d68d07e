/* Fuzz target: a baseline file, expected/<platform>/<case>.tsv
 * (runner/check/baseline.c over runner/core/tsv.c). */
#include "check/baseline.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mr_baseline b;
	const char *path = fuzz_file(data, size);

	if (path && mr_baseline_read(path, &b) == 0)
		mr_baseline_free(&b);
	return 0;
}
