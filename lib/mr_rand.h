/* mr_rand: the cases' pseudo-random numbers.  A case's sizes and victims
 * come from a fixed seed, so every run of a config allocates the same
 * sequence and its figures repeat.  No state of its own: the case keeps
 * the seed.  Inline, no malloc, fit for measured code. */
#ifndef MR_RAND_H
#define MR_RAND_H

#include <stdint.h>

/* The seed most cases take (the golden ratio's 64-bit fraction). */
#define MR_RAND_SEED 0x9e3779b97f4a7c15ull

/* Marsaglia's xorshift64 (13, 7, 17): the next value of *s, never 0 when
 * *s is not. */
static inline uint64_t mr_xorshift64(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

#endif
