/* Fuzz target: a case's figures file (runner/check/figures.c), parsed
 * whole, then every figure's x asked for under its "x" directive. */
#include <stdlib.h>
#include <string.h>

#include "check/figures.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mr_figs fs;
	int i;

	if (mr_figs_parse("fuzz.figures", (const char *)data, size, &fs) == 0) {
		for (i = 0; i < fs.n; i++)
			(void)mr_figs_x(&fs, fs.f[i].at);
		(void)mr_figs_x(&fs, fs.key_checkpoint);
	}
	mr_figs_free(&fs);
	return 0;
}
