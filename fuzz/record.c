/* Fuzz target: checkpoint records as the runner reads them from a case
 * (runner/proto/record.c's mr_record_parse), one per line of the input, for
 * a case that declares checkpoints "created" and "cleared". */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "proto/record.h"

/* The longest record docs/formats.md allows, as the runner reads them. */
#define RECORD_MAX MR_RECORD_MAX

static const char describe[] =
	"memrepro-case\t1\nname\tfuzz\ntitle\tt\nsource\ts\ntimeout\t0\n"
	"checkpoint\tcreated\tc\ncheckpoint\tcleared\tc\n";

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct mr_cases_desc c;
	static int ready;
	struct mr_record row;
	unsigned long seen[2] = { 0, 0 };
	size_t i = 0;
	int ck;
	char line[RECORD_MAX + 1], why[160];

	if (!ready) {
		struct strbuf err = { 0 };

		if (mr_cases_parse("fuzz", "fuzz", describe, sizeof describe - 1, &c, &err) < 0)
			abort();
		sb_free(&err);
		ready = 1;
	}
	while (i < size) {
		const uint8_t *nl = memchr(data + i, '\n', size - i);
		size_t n = (nl ? (size_t)(nl - data) : size) - i;

		if (n < RECORD_MAX) {
			memcpy(line, data + i, n);
			line[n] = '\0';
			if (mr_record_parse(line, &c, seen, &ck, &row, why, sizeof why) >= 0)
				seen[ck]++;
		}
		i += n + 1;
	}
	return 0;
}
