/* Fuzz target: /proc/PID/status, smaps_rollup and stat as lib/mr_proc.c parses
 * them (inside measured cases too: no malloc on that path). */
#include "fuzz.h"
#include "mr_proc.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mr_status st;
	struct mr_rollup ru;
	struct mr_pstat ps;

	(void)mr_proc_parse_status((const char *)data, size, &st);
	(void)mr_proc_parse_rollup((const char *)data, size, &ru);
	(void)mr_proc_parse_stat((const char *)data, size, &ps);
	return 0;
}
