/* wordname: what a quantity of a claim measures and where, in words
 * (wordsint.h): the metric's noun, the checkpoint, the configs' pairs
 * and how two configs differ. */
#include "check/wordsint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/words.h"
#include "core/util.h"

/* The metrics as people call them: in a claim's words (noun), and as a
 * table's row names the whole of what it measures (row; NULL: the noun).
 * maxrss_kb is wait4's peak RSS (rusage), peak_rss_kb the largest RSS
 * sampled. */
static const struct {
	const char *metric, *noun, *row;
} nouns[] = {
	{ "rss_kb", "RSS", NULL }, { "vsz_kb", "VSZ", NULL }, { "pss_kb", "PSS", NULL },
	{ "private_clean_kb", "private clean", NULL },
	{ "private_dirty_kb", "private dirty", NULL },
	{ "shared_dirty_kb", "shared dirty", NULL }, { "anon_kb", "anonymous RSS", NULL },
	{ "anon_huge_kb", "AnonHugePages", "anonymous memory in huge pages" },
	{ "lazyfree_kb", "LazyFree", NULL }, { "swap_kb", "swap", NULL },
	{ "hwm_kb", "RSS high-water mark", NULL }, { "maps", "mappings", NULL },
	{ "tree_rss_kb", "tree RSS", "RSS of the process tree" },
	{ "tree_pss_kb", "tree PSS", "PSS of the process tree" },
	{ "tree_private_dirty_kb", "tree private dirty",
	  "private dirty memory of the process tree" },
	{ "cgroup_kb", "cgroup memory", NULL }, { "t_ms", "time", NULL },
	{ "user_ms", "user CPU", "user time" }, { "sys_ms", "system CPU", "sys time" },
	{ "wall_ms", "wall time", NULL }, { "pause_ms", "pause", NULL },
	{ "maxrss_kb", "max RSS (rusage)", NULL }, { "minflt", "minor faults", NULL },
	{ "majflt", "major faults", NULL }, { "peak_rss_kb", "sampled peak RSS", NULL },
	{ "peak_tree_rss_kb", "peak tree RSS", "peak RSS of the process tree" },
	{ "cgroup_peak_kb", "cgroup peak", NULL },
};

const char *
mr_words_noun(const char *m)
{
	size_t i;

	for (i = 0; i < sizeof nouns / sizeof nouns[0]; i++)
		if (!strcmp(nouns[i].metric, m))
			return nouns[i].noun;
	return m;
}

const char *
mr_words_row_noun(const char *m)
{
	size_t i;

	for (i = 0; i < sizeof nouns / sizeof nouns[0]; i++)
		if (!strcmp(nouns[i].metric, m))
			return nouns[i].row ? nouns[i].row : nouns[i].noun;
	return m;
}

/* --- names ----------------------------------------------------------------- */

/* The allocator's name of config c, without its version, into n. */
static void
alloc_name(char *n, size_t len, const struct mr_config *c)
{
	const char *a = mr_config_get(c, MR_KEY_ALLOCATOR);

	snprintf(n, len, "%s", a ? a : "");
	if (strchr(n, '@'))
		*strchr(n, '@') = 0;
}

/* key as a reader names it in config c: an option of c's allocator
 * without its prefix (jemalloc.dirty_decay_ms -> dirty_decay_ms). */
static const char *
opt_key(const struct mr_config *c, const char *key)
{
	char an[128];
	size_t n;

	alloc_name(an, sizeof an, c);
	n = strlen(an);
	return n && !strncmp(key, an, n) && key[n] == '.' ? key + n + 1 : key;
}

/* The pair key=val of config c as a reader names it: the allocator by its
 * value, an option of c's allocator without its prefix
 * (jemalloc.dirty_decay_ms=-1 -> dirty_decay_ms=-1). */
static void
put_pair_name(struct strbuf *b, const struct mr_config *c, const char *key,
	      const char *val)
{
	sb_add(b, b->len ? " " : "");
	if (!strcmp(key, MR_KEY_ALLOCATOR))
		sb_add(b, val);
	else
		sb_printf(b, "%s=%s", opt_key(c, key), val);
}

/* Whether key is one of c's. */
static int
has_key(const struct mr_config *c, const char *key)
{
	return mr_config_get(c, key) != NULL;
}

/* A key a config has not: "K unset"; the model's runtime as "runtime=c". */
static void
put_unset(struct strbuf *b, const char *key)
{
	if (!strcmp(key, MR_KEY_RUNTIME))
		sb_printf(b, "%s%s=%s", b->len ? " " : "", key, MR_RUNTIME_MODEL);
	else
		sb_printf(b, "%s%s unset", b->len ? " " : "", key);
}

/* The pairs of config x that config y does not have the same, the
 * allocator first; where x has none of them (it leaves the keys unset),
 * "K unset". */
void
mr_wd_put_cfg_diff(struct strbuf *b, const struct mr_config *x, const struct mr_config *y)
{
	size_t start = b->len;
	int i, pass;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < x->n; i++) {
			if ((pass == 0) != !strcmp(x->key[i], MR_KEY_ALLOCATOR))
				continue;
			if (!mr_config_same(x->val[i], mr_config_get(y, x->key[i])))
				put_pair_name(b, x, x->key[i], x->val[i]);
		}
	if (b->len > start)
		return;
	for (i = 0; i < y->n; i++)
		if (!has_key(x, y->key[i]))
			put_unset(b, opt_key(x, y->key[i]));
}

/* The pairs reference r names, with the values of config c (a bound has
 * no other side to tell it from). */
void
mr_wd_put_ref_pairs(struct strbuf *b, const struct mr_ref *r, const struct mr_config *c)
{
	int k, pass;

	for (pass = 0; pass < 2; pass++)
		for (k = 0; k < r->npairs; k++) {
			const char *v = mr_config_get(c, r->pair[k].key);

			if ((pass == 0) != !strcmp(r->pair[k].key, MR_KEY_ALLOCATOR))
				continue;
			if (v)
				put_pair_name(b, c, r->pair[k].key, v);
			else
				put_unset(b, r->pair[k].key);
		}
}

/* What q measures: "RSS", "CPU time (user+sys)". */
void
mr_wd_put_metric(struct strbuf *b, const struct qty *q)
{
	const char *ma = mr_wd_metric_name(q->a);

	if (q->kind != Q_SUM) {
		sb_add(b, mr_words_noun(ma));
	} else if ((!strcmp(ma, "user_ms") && !strcmp(mr_wd_metric_name(q->b), "sys_ms")) ||
		   (!strcmp(ma, "sys_ms") && !strcmp(mr_wd_metric_name(q->b), "user_ms"))) {
		sb_add(b, "CPU time (user+sys)");
	} else {
		sb_printf(b, "%s + %s", mr_words_noun(ma), mr_words_noun(mr_wd_metric_name(q->b)));
	}
}

static void
put_ckname(struct strbuf *b, const struct mr_ref *r)
{
	sb_add(b, r->checkpoint);
	if (r->seq)
		sb_printf(b, "#%ld", r->seq);
}

/* When q is measured: "at cleared", "from start to forked"; nothing for a
 * run metric (a figure of the whole run). */
void
mr_wd_put_when(struct strbuf *b, const struct qty *q)
{
	if (q->kind == Q_GROWTH) {
		sb_add(b, "from ");
		put_ckname(b, q->b);
		sb_add(b, " to ");
		put_ckname(b, q->a);
	} else if (q->a->ckpt) {
		sb_add(b, "at ");
		put_ckname(b, q->a);
	}
}

/* The configs of a Q_CFGDIFF: "madvise=free minus madvise=dontneed". */
void
mr_wd_put_cfgdiff(struct strbuf *b, const struct wctx *w, const struct qty *q)
{
	struct strbuf x = {0}, y = {0};

	sb_add(&x, "");
	sb_add(&y, "");
	mr_wd_put_cfg_diff(&x, &w->cfg[q->cfg], &w->cfg[q->cfg2]);
	mr_wd_put_cfg_diff(&y, &w->cfg[q->cfg2], &w->cfg[q->cfg]);
	sb_printf(b, "%s%s minus %s", b->len ? " " : "", x.s, y.s);
	sb_free(&x);
	sb_free(&y);
}

/* s appended to b after a space when both have text. */
void
mr_wd_put_word(struct strbuf *b, const char *s)
{
	if (s && *s)
		sb_printf(b, "%s%s", b->len && b->s[b->len - 1] != ' ' ? " " : "", s);
}
