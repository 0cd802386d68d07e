/* hash: indices found by their key's hash — see hash.h. */
#include "core/hash.h"

#include <stdlib.h>
#include <string.h>

#include "core/util.h"

#define FNV_PRIME UINT64_C(1099511628211)

uint64_t
mr_hash_str(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * FNV_PRIME;
	/* a separator, so that ("ab", "c") and ("a", "bc") differ */
	return (h ^ 0xff) * FNV_PRIME;
}

uint64_t
mr_hash_num(uint64_t h, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++, v >>= 8)
		h = (h ^ (v & 0xff)) * FNV_PRIME;
	return h;
}

/* The slot of hv's probe sequence to start at: FNV's low bits are weak
 * for short keys, so its high bits are folded in. */
static size_t
home(uint64_t hv, size_t cap)
{
	return (size_t)(hv ^ (hv >> 29) ^ (hv >> 47)) & (cap - 1);
}

int
mr_hash_find(const struct mr_hash *h, uint64_t hv, mr_hash_eq_fn *eq, const void *ctx)
{
	size_t s;

	if (!h->cap)
		return -1;
	/* at most half full: an empty slot ends every probe */
	for (s = home(hv, h->cap); h->idx[s] >= 0; s = (s + 1) & (h->cap - 1))
		if (h->hv[s] == hv && eq(ctx, h->idx[s]))
			return h->idx[s];
	return -1;
}

static void
put(struct mr_hash *h, uint64_t hv, int i)
{
	size_t s;

	for (s = home(hv, h->cap); h->idx[s] >= 0; s = (s + 1) & (h->cap - 1))
		;
	h->hv[s] = hv;
	h->idx[s] = i;
}

void
mr_hash_add(struct mr_hash *h, uint64_t hv, int i)
{
	if (2 * (h->n + 1) > h->cap) {
		struct mr_hash old = *h;
		size_t s;

		h->cap = old.cap ? 2 * old.cap : 16;
		h->hv = ecalloc(h->cap, sizeof *h->hv);
		h->idx = emalloc(h->cap * sizeof *h->idx);
		memset(h->idx, 0xff, h->cap * sizeof *h->idx); /* every slot -1 */
		for (s = 0; s < old.cap; s++)
			if (old.idx[s] >= 0)
				put(h, old.hv[s], old.idx[s]);
		free(old.hv);
		free(old.idx);
	}
	put(h, hv, i);
	h->n++;
}

void
mr_hash_free(struct mr_hash *h)
{
	free(h->hv);
	free(h->idx);
	memset(h, 0, sizeof *h);
}
