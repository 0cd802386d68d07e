/* Fuzz target: the claims language (runner/check/claims.c), parsed whole as
 * expected/<case>.claims, its keys and checkpoints checked, then every
 * claim evaluated over configs whose values include a zero (the
 * evaluator recurses over the expression: fuzz/regressions/claims/flat-sum),
 * two versions of jemalloc and two libcs among them. */
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
	static const char *const cstr[] = {
		"allocator=glibc,madvise=free",
		"allocator=jemalloc,madvise=dontneed",
		"allocator=jemalloc@5.2.1,libc=2.41,madvise=free",
		"allocator=jemalloc@5.10,madvise=dontneed",
	};
	enum { NCFG = sizeof cstr / sizeof cstr[0] };
	struct mr_claims cs = { 0 };
	struct mr_config cfg[NCFG];
	const char *why;
	int i, n = 0;

	if (mr_claims_parse("fuzz.claims", (const char *)data, size, &cs) == 0) {
		while (n < NCFG && mr_config_parse(cstr[n], &cfg[n], &why) == 0)
			n++;
		if (n == NCFG) {
			struct mr_eval_data d = { .cfg = cfg, .ncfg = 2, .value = value };

			(void)mr_claims_check_keys(&cs, cfg, 2);
			(void)mr_claims_check_ckpts(&cs, "fuzz", ckpts, 2);
			for (i = 0; i < cs.n; i++) {
				struct mr_claim_result r;

				mr_claim_eval(&cs.v[i], &d, &r);
				mr_claim_result_free(&r);
			}
			/* and over the versions */
			d.ncfg = NCFG;
			for (i = 0; i < cs.n; i++) {
				struct mr_claim_result r;

				mr_claim_eval(&cs.v[i], &d, &r);
				mr_claim_result_free(&r);
			}
		}
		while (n > 0)
			mr_config_free(&cfg[--n]);
	}
	mr_claims_free(&cs);
	return 0;
}
