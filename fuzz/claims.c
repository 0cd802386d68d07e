/* Fuzz target: the claims language (runner/check/claims.c), parsed whole as
 * expected/<case>.claims, its keys and checkpoints checked, then every
 * claim evaluated over two configs whose values include a zero (the
 * evaluator recurses over the expression: fuzz/regressions/claims/flat-sum). */
#include <string.h>

#include "check/claims.h"
#include "fuzz.h"

/* A value for every reference: 0 at the first config, so divisions by
 * it are undefined there, and a figure at the second. */
static int
value(void *ctx, int i, const struct mr_ref *ref, double *out, char **why)
{
	(void)ctx;
	(void)why;
	*out = i == 0 ? 0 : 1000 + ref->metric;
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const ckpts[] = { "created", "cleared" };
	struct mr_claims cs = { 0 };
	struct mr_config cfg[2];
	const char *why;
	int i;

	if (mr_claims_parse("fuzz.claims", (const char *)data, size, &cs) == 0 &&
	    mr_config_parse("allocator=glibc,madvise=free", &cfg[0], &why) == 0) {
		if (mr_config_parse("allocator=jemalloc,madvise=dontneed", &cfg[1], &why) == 0) {
			struct mr_eval_data d = { .cfg = cfg, .ncfg = 2, .value = value };

			(void)mr_claims_check_keys(&cs, cfg, 2);
			(void)mr_claims_check_ckpts(&cs, "fuzz", ckpts, 2);
			for (i = 0; i < cs.n; i++) {
				struct mr_claim_result r;

				mr_claim_eval(&cs.v[i], &d, &r);
				mr_claim_result_free(&r);
			}
			mr_config_free(&cfg[1]);
		}
		mr_config_free(&cfg[0]);
	}
	mr_claims_free(&cs);
	return 0;
}
