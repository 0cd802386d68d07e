/* Fuzz target: the claims language (runner/claims.c), parsed whole as
 * expected/<case>.claims, then its keys checked against two configs. */
#include <string.h>

#include "claims.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mr_claims cs = { 0 };
	struct mr_config cfg[2];
	const char *why;

	if (mr_claims_parse("fuzz.claims", (const char *)data, size, &cs) == 0 &&
	    mr_config_parse("allocator=glibc,madvise=free", &cfg[0], &why) == 0) {
		if (mr_config_parse("allocator=jemalloc,madvise=dontneed", &cfg[1], &why) == 0) {
			(void)mr_claims_check_keys(&cs, cfg, 2);
			mr_config_free(&cfg[1]);
		}
		mr_config_free(&cfg[0]);
	}
	mr_claims_free(&cs);
	return 0;
}
