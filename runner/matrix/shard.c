/* shard: the split of (case, config) pairs over N jobs (shard.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix/shard.h"
#include "core/util.h"

int
mr_shard_parse(const char *s, int *k, int *n)
{
	const char *slash = strchr(s, '/');
	char *a;
	long long x, y;
	int rc;

	if (!slash || strspn(s, "0123456789/") != strlen(s))
		return -1;
	a = estrndup(s, (size_t)(slash - s));
	rc = parse_ll(a, &x) < 0 || parse_ll(slash + 1, &y) < 0 ? -1 : 0;
	free(a);
	if (rc < 0 || y < 1 || y > MR_SHARD_MAX || x < 1 || x > y)
		return -1;
	*k = (int)x;
	*n = (int)y;
	return 0;
}

static const double *sort_cost;

/* Falling cost, then the earlier pair. */
static int
by_cost(const void *a, const void *b)
{
	int i = *(const int *)a, j = *(const int *)b;

	if (sort_cost[i] != sort_cost[j])
		return sort_cost[i] > sort_cost[j] ? -1 : 1;
	return (i > j) - (i < j);
}

void
mr_shard_plan(const double *cost, int npair, int nshard, int *bin)
{
	int *order = ecalloc((size_t)npair + 1, sizeof *order);
	double *load = ecalloc((size_t)nshard, sizeof *load);
	int i, b, best;

	for (i = 0; i < npair; i++)
		order[i] = i;
	sort_cost = cost;
	qsort(order, (size_t)npair, sizeof *order, by_cost);
	for (i = 0; i < npair; i++) {
		for (best = 0, b = 1; b < nshard; b++)
			if (load[b] < load[best])
				best = b;
		load[best] += cost[order[i]];
		bin[order[i]] = best + 1;
	}
	free(order);
	free(load);
}

uint64_t
mr_shard_hash(uint64_t h, const char *casename, const char *config, int bin)
{
	char tail[16];
	const char *parts[3] = { casename, config, tail };
	int i;

	snprintf(tail, sizeof tail, "%d", bin);
	for (i = 0; i < 3; i++) {
		const unsigned char *p = (const unsigned char *)parts[i];

		for (; *p; p++)
			h = (h ^ *p) * UINT64_C(1099511628211);
		h = (h ^ '\t') * UINT64_C(1099511628211);
	}
	return h;
}
