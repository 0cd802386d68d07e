/* redis-frag: a Redis cache's mem_fragmentation_ratio is mostly RSS
 * overhead, not fragmentation: jemalloc keeps the pages of replaced values
 * dirty for reuse, and MEMORY PURGE hands them back.
 *
 * Source (the text relied on is seeds/007_adc2f00d10b0688c.txt): redis/redis#4751,
 * "Active defrag not working on Redis 4.0.3 ?" (issue, 2018-03-12), Redis
 * 4.0.6 with jemalloc 4.0.3 "as a RAM cache, and fragmentation becomes a
 * problem after a few days of uptime"; a maintainer (oranagra,
 * 2018-03-13) reads the allocator's own figures:
 *
 *   Allocated: 786298648, active: 788901888, metadata: 21534720,
 *   resident: 867696640, mapped: 817889280
 *   Allocator fragmentation = 788901888/786298648 = 1.003 (0.3%)
 *   Allocator metadata = 21534720/867696640 = 0.02 (2%)
 *   Allocator RSS overhead = 867696640/788901888 = 1.099 (10%)
 *
 * "the metric shown in redis as mem_fragmentation_ratio is in fact the
 * process RSS overhead, and not fragmentation at all.  the actual
 * fragmentation that is defragmentable memory is just 0.3%"; "The 10%
 * Allocator RSS overhead is in this case mainly pages that the allocator
 * used in the past and didn't return to the OS in order to re-use in the
 * future (an optimization).  you can reclaim these by calling MEMORY
 * PURGE, but after traffic they might grow back."  (Redis later split the
 * INFO figures accordingly: allocator_frag_ratio, allocator_rss_ratio;
 * redis/redis-doc#1608.)
 *
 * In one sentence: a cache replaces values of one size by values of
 * another, jemalloc's slabs of the old size empty out and their pages
 * stay dirty in the arena until they decay (10 s by default in jemalloc
 * 5) or are purged, so RSS runs ahead of what is allocated while the
 * slabs in use are nearly full.
 *
 * Mechanism (jemalloc 5.3 as its manual, jemalloc(3), describes
 * opt.dirty_decay_ms and arena.<i>.purge; the source not read).
 * Small allocations live in slabs of their size class; a slab whose last
 * region is freed goes back to the arena as a dirty extent, resident,
 * kept for reuse by any size class.  Dirty extents are purged
 * (MADV_DONTNEED, or MADV_FREE and later) as dirty_decay_ms elapses, on
 * later allocator calls or by a background thread when enabled; mallctl
 * "arena.<all>.purge" (what Redis's MEMORY PURGE calls) purges them now.
 * "active" counts the pages of slabs and large extents in use,
 * "allocated" the bytes of the regions in them: their ratio is the true
 * fragmentation; "resident" adds the dirty extents (and metadata).
 *
 * What is modelled, after Redis's keyspace (per key an entry, a key
 * string and a value: their sizes assumed, Redis's source not read):
 * `keys` keys, each an entry of 24 bytes, a key of 24 bytes and a value of
 * a size drawn at random between 16 bytes and value_max (log-uniform: the
 * report's values' sizes are not given), in a ring of slots; then
 * `rounds` rounds of a TTL cache's traffic: `churn` percent of the keys
 * are set anew, then as many of the oldest expire (freed: written
 * together, they free whole slabs), the cache over days;
 * checkpoint `churned` (the report's INFO); then MEMORY PURGE: mallctl
 * "arena.4096.purge" when the allocator has mallctl (jemalloc; Redis
 * builds on the others do nothing), checkpoint `purged`.  The case prints
 * what it has allocated (malloc_usable_size of every live block) and, under
 * jemalloc, its stats.allocated, active and resident, at `churned` and
 * `purged`, and the ratios the report computed.
 *
 * Measured (x86_64, Linux 6.18, glibc 2.36, jemalloc 5.3.0, 2 CPUs; by
 * hand, the full size): jemalloc allocated 171,586,480, active x 1.002
 * of that, resident x 1.254 of active at churned (the report: 1.003 and
 * 1.099), RSS 205.2 MiB; after the purge resident x 1.042, RSS
 * 170.9 MiB, where it was when the keys were first loaded (169.0).  glibc:
 * 168.2 MiB loaded, 184.8 churned and purged.  Quick: expected/redis-frag.claims.
 *
 * Left out: Redis itself (its event loop, clients' buffers, expiry and
 * eviction, LUA, the RDB fork; the original, cases/redis-frag.redis, runs
 * this workload on Debian's redis-server: runtime=redis@6,7,8), active
 * defrag (the report's question: with 0.3 % to defragment there is
 * nothing for it to do), jemalloc 4.0.3's own
 * purging (ratio-based: lg_dirty_mult; the host's jemalloc is 5.3's decay).
 */
#include "mr_case.h"
#include "mr_ckpt.h"

#include <dlfcn.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct mr_param params[] = {
	{ "keys", "1000000", "100000", "int:1..100000000", NULL,
	  "keys in the cache (not in the report: its used_memory was ~786 MB)" },
	{ "value_max", "1024", NULL, "int:16..1048576", NULL,
	  "largest value in bytes; sizes log-uniform from 16 (not in the report)" },
	{ "churn", "10", NULL, "int:1..100", NULL,
	  "percent of the keys set anew each round, the oldest as many expiring after them" },
	{ "rounds", "4", NULL, "int:0..1000", NULL,
	  "rounds of new keys and expiry (the report: a few days of a RAM cache)" },
	{ 0 }
};

static const struct mr_checkpoint_desc checkpoints[] = {
	{ "start", "before the first key" },
	{ "loaded", "every key set once" },
	{ "churned", "after the rounds of new keys and expiry (the report's INFO)" },
	{ "purged", "after MEMORY PURGE (jemalloc's arena.<all>.purge; nothing elsewhere)" },
	{ 0 }
};

static const struct mr_case desc = {
	.name = "redis-frag",
	.title = "A Redis cache's fragmentation ratio is jemalloc's dirty pages, not fragmentation; MEMORY PURGE returns them",
	.source = "redis/redis#4751 (Redis 4.0.6, jemalloc 4.0.3, 2018): allocated 786,298,648, "
		  "active 788,901,888, resident 867,696,640: fragmentation 0.3 %, RSS overhead 10 %",
	.params = params,
	.checkpoints = checkpoints,
	.timeout_s = 120,
	.mechanism = "purging",
};

/* A key's three allocations, as Redis's dictEntry, key sds, value sds. */
struct entry {
	char *key;
	char *val;
	void *next; /* the dict's chain link: unused, its size is the point */
};

typedef int (*mallctl_fn)(const char *, void *, size_t *, void *, size_t);

static size_t value_max;

static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* A value's size, log-uniform from 16 bytes to value_max. */
static size_t value_size(uint64_t *s)
{
	size_t n = 16;

	while (n * 2 <= value_max && next_rand(s) % 2)
		n *= 2;
	n += next_rand(s) % n;
	return n > value_max ? value_max : n;
}

static char *new_value(uint64_t *s)
{
	size_t n = value_size(s);
	char *v = malloc(n);

	if (!v)
		mr_fail("malloc(%zu):", n);
	memset(v, 'v', n);
	return v;
}

/* A key set: its entry, key and value, allocated together. */
static struct entry *new_entry(size_t serial, uint64_t *s)
{
	struct entry *e = malloc(sizeof *e);
	char *k = malloc(24);

	if (!e || !k)
		mr_fail("malloc:");
	snprintf(k, 24, "key:%zu", serial);
	e->key = k;
	e->val = new_value(s);
	e->next = NULL;
	return e;
}

static void free_entry(struct entry *e)
{
	mr_keep(e->val);
	free(e->key);
	free(e->val);
	free(e);
}

static size_t live_bytes(struct entry **table, size_t cap)
{
	size_t i, sum = malloc_usable_size(table);

	for (i = 0; i < cap; i++)
		if (table[i])
			sum += malloc_usable_size(table[i]) + malloc_usable_size(table[i]->key) +
			       malloc_usable_size(table[i]->val);
	return sum;
}

/* jemalloc's stats.<name> after an epoch refresh; 0 without mallctl. */
static size_t je_stat(mallctl_fn mallctl, const char *name)
{
	uint64_t epoch = 1;
	size_t v = 0, len = sizeof v, elen = sizeof epoch;

	if (!mallctl || mallctl("epoch", &epoch, &elen, &epoch, elen) != 0 ||
	    mallctl(name, &v, &len, NULL, 0) != 0)
		return 0;
	return v;
}

/* One line of what the report read, at a checkpoint.  stdio: after it. */
static void report(const char *at, mallctl_fn mallctl, size_t live)
{
	size_t alloc = je_stat(mallctl, "stats.allocated"), active = je_stat(mallctl, "stats.active");
	size_t resident = je_stat(mallctl, "stats.resident");
	char line[512];
	int len;

	if (alloc && active)
		len = snprintf(line, sizeof line,
			       "redis-frag %s: live %zu bytes; jemalloc allocated %zu, active %zu, resident %zu: "
			       "fragmentation %.3f, RSS overhead %.3f\n",
			       at, live, alloc, active, resident, (double)active / (double)alloc,
			       (double)resident / (double)active);
	else
		len = snprintf(line, sizeof line, "redis-frag %s: live %zu bytes (no mallctl: not jemalloc)\n",
			       at, live);
	if (len > 0)
		(void)!write(1, line, (size_t)len < sizeof line ? (size_t)len : sizeof line - 1);
}

int main(int argc, char **argv)
{
	struct entry **table;
	mallctl_fn mallctl;
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	size_t keys, churn, rounds, i, r, live_churned, live_purged;
	size_t batch, cap, head = 0, serial;
	int purged = -1;

	mr_case_init(&desc, argc, argv);
	keys = (size_t)mr_param_int("keys");
	value_max = (size_t)mr_param_int("value_max");
	churn = (size_t)mr_param_int("churn");
	rounds = (size_t)mr_param_int("rounds");
	serial = keys;
	*(void **)&mallctl = dlsym(RTLD_DEFAULT, "mallctl");
	mr_checkpoint("start");

	batch = keys * churn / 100;
	if (batch == 0)
		batch = 1;
	cap = keys + batch;
	table = calloc(cap, sizeof *table);
	if (!table)
		mr_fail("calloc:");
	for (i = 0; i < keys; i++)
		table[i] = new_entry(i, &seed);
	mr_checkpoint("loaded");

	/* A TTL cache: each round the new keys come, then the oldest as many
	 * expire; the table is a ring of cap slots, head the oldest. */
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < batch; i++)
			table[(head + keys + i) % cap] = new_entry(serial++, &seed);
		for (i = 0; i < batch; i++) {
			free_entry(table[(head + i) % cap]);
			table[(head + i) % cap] = NULL;
		}
		head = (head + batch) % cap;
	}
	mr_checkpoint("churned");
	live_churned = live_bytes(table, cap);
	report("churned", mallctl, live_churned);

	if (mallctl)
		purged = mallctl("arena.4096.purge", NULL, NULL, NULL, 0);
	mr_checkpoint("purged");
	live_purged = live_bytes(table, cap);
	report("purged", mallctl, live_purged);

	for (i = 0; i < cap; i++)
		if (table[i])
			free_entry(table[i]);
	free(table);
	{
		char line[160];
		int len = snprintf(line, sizeof line, "redis-frag: %zu keys, values up to %zu bytes, %zu rounds of %zu %%; "
				   "MEMORY PURGE %s\n", keys, value_max, rounds, churn,
				   purged == 0 ? "purged" : mallctl ? "failed" : "not jemalloc: nothing");

		if (len > 0)
			(void)!write(1, line, (size_t)len < sizeof line ? (size_t)len : sizeof line - 1);
	}
	return MR_EXIT_OK;
}
