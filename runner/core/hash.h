/* hash: an open-addressing table from a key's hash to an index into the
 * caller's own array, so that a lookup costs the same at 10 rows as at
 * 10^6 (the readers of a results directory look up every row's case,
 * config and run).
 *
 * The table keeps no keys: the caller hashes its key (mr_hash_str,
 * mr_hash_num, chained from MR_HASH0) and says, through eq, whether the
 * element at an index is the key it looks for.  Linear probing, at most
 * half full; indices are >= 0.
 */
#ifndef MR_HASH_H
#define MR_HASH_H

#include <stddef.h>
#include <stdint.h>

#define MR_HASH0 UINT64_C(14695981039346656037)

struct mr_hash {
	uint64_t *hv; /* each slot's hash (owned) */
	int *idx;     /* each slot's index; -1: empty (owned) */
	size_t cap;   /* slots: 0 or a power of two */
	size_t n;     /* indices held */
};

/* Whether the caller's element i is the key looked for (ctx: the key). */
typedef int mr_hash_eq_fn(const void *ctx, int i);

/* h chained with the bytes of s (FNV-1a), or with the number v. */
uint64_t mr_hash_str(uint64_t h, const char *s);
uint64_t mr_hash_num(uint64_t h, uint64_t v);

/* The index stored under hash hv whose element eq calls the key, or -1.
 * h may be zeroed and never added to. */
int mr_hash_find(const struct mr_hash *h, uint64_t hv, mr_hash_eq_fn *eq,
		 const void *ctx);

/* Store index i (>= 0) under hash hv; the caller has made sure that its
 * key is not there yet (mr_hash_find). */
void mr_hash_add(struct mr_hash *h, uint64_t hv, int i);

/* Free the slots; h is zeroed, ready for use again. */
void mr_hash_free(struct mr_hash *h);

#endif
