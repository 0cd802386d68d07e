/* Fuzz target: a results directory (runner/results/read.c over runner/core/tsv.c).
 * The input is env.tsv, runs.tsv and checkpoints.tsv separated by form
 * feeds ('\f'); a missing part is a missing file. */
#include <string.h>

#include "fuzz.h"
#include "results/read.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "env.tsv", "runs.tsv", "checkpoints.tsv" };
	const uint8_t *p = data, *end = data + size;
	const char *dir = NULL;
	struct mr_rd R;
	int i;

	for (i = 0; i < 3; i++) {
		const uint8_t *ff = p ? memchr(p, '\f', (size_t)(end - p)) : NULL;

		if (!p) {
			dir = fuzz_dir_file(names[i], NULL, 0);
			continue;
		}
		dir = fuzz_dir_file(names[i], p, (size_t)((ff ? ff : end) - p));
		p = ff ? ff + 1 : NULL;
	}
	mr_rd_load(&R, dir);
	mr_rd_free(&R);
	return 0;
}
