/* replay: run a fuzz target once over each file named on the command line
 * (no fuzzing): the regression inputs and the seed corpus, with any
 * compiler.  Exit 0 when every input ran; a bug aborts (or, built with the
 * sanitizers, is reported by them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

int
main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		unsigned char *buf = NULL, *exact;
		size_t n = 0, cap = 0, r;

		if (!f) {
			perror(argv[i]);
			return 2;
		}
		do {
			if (n == cap) {
				cap = cap ? cap * 2 : 4096;
				buf = realloc(buf, cap);
				if (!buf)
					abort();
			}
			r = fread(buf + n, 1, cap - n, f);
			n += r;
		} while (r > 0);
		fclose(f);
		/* exactly n bytes, as libFuzzer passes them: a read past the
		 * end is then caught by ASan (make sanitize) */
		exact = malloc(n ? n : 1);
		if (!exact)
			abort();
		memcpy(exact, buf, n);
		free(buf);
		LLVMFuzzerTestOneInput(exact, n);
		free(exact);
	}
	return 0;
}
