/* blessplan: the plan of a blessing — see blessplan.h. */
#include "check/blessplan.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check/claims.h"
#include "check/stats.h"
#include "check/values.h"
#include "core/util.h"

/* Add a row for ref at config ci of k to b when some ok run measured it. */
static int
bless_row(struct mr_baseline *b, const struct mr_rd_case *k, int ci, const char *key,
	  const struct mr_ref *ref)
{
	struct mr_bl_row row = {0};
	double *v;
	int n = mr_rd_values(k, ci, ref, &v);

	if (n > 0) {
		row.config = (char *)key;
		row.checkpoint = ref->checkpoint;
		row.seq = ref->seq;
		row.ckpt = ref->ckpt;
		row.metric = ref->metric;
		row.median = mr_st_median(v, n);
		row.min = v[0];
		row.max = v[n - 1];
		row.n = n;
		row.tol = mr_bl_tolerance(mr_bl_metric(&row), row.median, row.min,
					  row.max);
		mr_baseline_add(b, &row);
	}
	free(v);
	return n > 0;
}

/* The cost row of config ci (baseline.h): the wall_ms of its ok runs that
 * ran alone.  A busy machine's runs count: a cost plans shards, it is not
 * a figure that is judged. */
static void
bless_cost(struct mr_baseline *b, const struct mr_rd_case *k, int ci, const char *key)
{
	const struct mr_rd_cfg *cf = &k->cfg[ci];
	struct mr_bl_cost c = { .config = (char *)key };
	double *v = ecalloc((size_t)cf->nrun + 1, sizeof *v);
	int n = 0, i;

	for (i = 0; i < cf->nrun; i++) {
		const struct mr_rd_run *r = &k->run[cf->run[i]];

		if (r->outcome == MR_RD_OK && !r->machine && r->overlap == 0 &&
		    r->stopped_ms == 0 && !isnan(r->m[MR_RM_WALL_MS]))
			v[n++] = r->m[MR_RM_WALL_MS];
	}
	mr_st_sort(v, n);
	if (n > 0) {
		c.median = mr_st_median(v, n);
		c.min = v[0];
		c.max = v[n - 1];
		c.n = n;
		mr_baseline_add_cost(b, &c);
	}
	free(v);
}

/* Rows of config ci, keyed key (its config on the platform); returns
 * how many. */
static int
bless_config(struct mr_baseline *b, const struct mr_rd_case *k, int ci, const char *key)
{
	const char **names;
	int nnames, rows = 0, i, m;

	/* an original's figures are its interpreter's too, whose version the
	 * platform does not name: claims only (docs/originals.md); its cost
	 * still plans the shards */
	if (mr_config_get(&k->conf[ci], MR_KEY_RUNTIME)) {
		bless_cost(b, k, ci, key);
		return 0;
	}
	for (m = 0; mr_bless_run_metrics[m]; m++) {
		struct mr_ref ref = { .metric = mr_run_metric(mr_bless_run_metrics[m]),
				      .pinned = 1 };

		if (mr_bl_timed(&k->conf[ci], mr_bless_run_metrics[m]))
			continue;
		rows += bless_row(b, k, ci, key, &ref);
	}
	/* Every checkpoint name of its ok runs, in order of appearance. */
	nnames = mr_rd_ck_names(k, ci, &names);
	for (i = 0; i < nnames; i++) {
		for (m = 0; mr_bless_ckpt_metrics[m]; m++) {
			struct mr_ref ref = {
				.ckpt = 1,
				.metric = mr_ckpt_metric(mr_bless_ckpt_metrics[m]),
				.checkpoint = (char *)names[i],
				.pinned = 1,
			};

			rows += bless_row(b, k, ci, key, &ref);
		}
	}
	free(names);
	bless_cost(b, k, ci, key);
	return rows;
}

/* Same (config, checkpoint, metric). */
static int
same_row(const struct mr_bl_row *a, const struct mr_bl_row *b)
{
	return a->ckpt == b->ckpt && a->metric == b->metric && a->seq == b->seq &&
	       !strcmp(a->config, b->config) &&
	       (!a->checkpoint || !strcmp(a->checkpoint, b->checkpoint));
}

/* Equal as written (three decimals). */
static int
same_figures(const struct mr_bl_row *a, const struct mr_bl_row *b)
{
	return fabs(a->median - b->median) < 1e-3 && fabs(a->min - b->min) < 1e-3 &&
	       fabs(a->max - b->max) < 1e-3 && a->n == b->n &&
	       fabs(a->tol - b->tol) < 1e-3;
}

/* Count how the cost rows of nb differ from those of c->ob (when
 * c->has_old). */
static void
cost_diff(struct mr_bless_case *c)
{
	const struct mr_baseline *ob = c->has_old ? &c->ob : NULL, *nb = &c->nb;
	int i;

	for (i = 0; i < nb->ncost; i++) {
		const struct mr_bl_cost *n = &nb->cost[i];
		const struct mr_bl_cost *o = ob ? mr_baseline_cost(ob, n->config) : NULL;

		if (!o)
			c->cost_added++;
		else if (fabs(o->median - n->median) >= 1e-3 || fabs(o->min - n->min) >= 1e-3 ||
			 fabs(o->max - n->max) >= 1e-3 || o->n != n->n)
			c->cost_changed++;
	}
	for (i = 0; ob && i < ob->ncost; i++)
		c->cost_gone += !mr_baseline_cost(nb, ob->cost[i].config);
}

/* Add a change to c, labelled with the config of r (o or n). */
static void
add_change(struct mr_bless_case *c, char mark, const struct mr_bl_row *o,
	   const struct mr_bl_row *n, const struct mr_bl_row *r)
{
	const char *config = r->config;
	int ci = mr_rd_cfg(c->k, config);
	struct mr_bless_change *ch;

	c->ch = erealloc(c->ch, ((size_t)c->nch + 1) * sizeof *c->ch);
	ch = &c->ch[c->nch++];
	ch->mark = mark;
	ch->o = o;
	ch->n = n;
	ch->r = r;
	ch->label = estrdup(ci >= 0 ? c->k->cfg[ci].label : config);
}

/* What writing c->nb over c->ob (when c->has_old) changes: rows whose
 * median moved beyond the old tolerance ("~") or within it ("."), new
 * ("+") and gone ("-") rows. */
static void
diff(struct mr_bless_case *c)
{
	const struct mr_baseline *ob = c->has_old ? &c->ob : NULL, *nb = &c->nb;
	char *matched = ecalloc((ob ? ob->nrow : 0) + 1, 1);
	int i, j;

	for (i = 0; i < nb->nrow; i++) {
		const struct mr_bl_row *n = &nb->row[i], *o = NULL;

		for (j = 0; ob && j < ob->nrow; j++) {
			if (!matched[j] && same_row(&ob->row[j], n)) {
				o = &ob->row[j];
				matched[j] = 1;
				break;
			}
		}
		if (!o) {
			c->added++;
		} else if (same_figures(o, n)) {
			c->same++;
		} else if (fabs(n->median - o->median) > o->tol) {
			c->moved++;
			add_change(c, '~', o, n, n);
		} else {
			c->within++;
			add_change(c, '.', o, n, n);
		}
	}
	for (j = 0; ob && j < ob->nrow; j++)
		c->gone += !matched[j];
	cost_diff(c);
	/* A new row is one no old row has the key of. */
	for (i = 0; ob && i < nb->nrow; i++) {
		for (j = 0; j < ob->nrow; j++)
			if (same_row(&ob->row[j], &nb->row[i]))
				break;
		if (j == ob->nrow)
			add_change(c, '+', NULL, &nb->row[i], &nb->row[i]);
	}
	for (j = 0; ob && j < ob->nrow; j++)
		if (!matched[j])
			add_change(c, '-', &ob->row[j], NULL, &ob->row[j]);
	free(matched);
	c->differs = c->moved || c->within || c->added || c->gone ||
		     c->cost_added || c->cost_changed || c->cost_gone;
}

/* Header keys of ob that nb lacks (an allocator only the other profile's
 * results named), so the kept rows' provenance stays in the file. */
static void
keep_keys(struct mr_baseline *nb, const struct mr_baseline *ob)
{
	int i, j, n = nb->nkv;

	for (i = 0; i < ob->nkv; i++) {
		for (j = 0; j < n && strcmp(nb->key[j], ob->key[i]) != 0; j++)
			;
		if (j == n)
			mr_baseline_kv(nb, ob->key[i], ob->val[i]);
	}
}

/* Whether config ci of k follows an allocator's clock and every ok run of
 * it had a busy machine: then no figure of it is pinned (check/values.c),
 * and its old rows stand. */
static int
busy_clock(const struct mr_rd_case *k, int ci)
{
	int i;

	if (ci < 0 || !mr_bl_clocks_conf(&k->conf[ci]))
		return 0;
	for (i = 0; i < k->cfg[ci].nrun; i++) {
		const struct mr_rd_run *r = &k->run[k->cfg[ci].run[i]];

		if (r->outcome == MR_RD_OK && !mr_rd_busy(r))
			return 0;
	}
	return 1;
}

/* Carry over the rows and cost rows of c->ob whose config the results do
 * not have (another profile's configs: the quick profile's beside the
 * full one's), so that blessing one profile keeps the others'; and the
 * rows of a config whose runs a busy machine stretched (busy_clock). */
static void
keep_others(struct mr_bless_case *c)
{
	const struct mr_baseline *ob = &c->ob;
	int i;

	for (i = 0; i < ob->nrow; i++)
		if (mr_rd_cfg(c->k, ob->row[i].config) < 0 ||
		    busy_clock(c->k, mr_rd_cfg(c->k, ob->row[i].config))) {
			mr_baseline_add(&c->nb, &ob->row[i]);
			c->kept++;
		}
	for (i = 0; i < ob->ncost; i++)
		if (mr_rd_cfg(c->k, ob->cost[i].config) < 0)
			mr_baseline_add_cost(&c->nb, &ob->cost[i]);
	if (c->kept)
		keep_keys(&c->nb, ob);
}

int
mr_bless_open(const struct mr_check_opts *o, struct mr_bless *b)
{
	const char *exp = o->expected_dir ? o->expected_dir : "expected";
	time_t now = time(NULL);
	struct tm tm;
	char *env;

	memset(b, 0, sizeof *b);
	if (mr_rd_load(&b->R, o->results_dir) < 0 ||
	    (b->nsel = mr_rd_select(&b->R, o->cases, &b->sel)) < 0) {
		free(b->sel);
		mr_rd_free(&b->R);
		return MR_USAGE;
	}
	/* SOURCE_DATE_EPOCH makes a blessing reproducible byte for byte. */
	if ((env = getenv("SOURCE_DATE_EPOCH")) && *env) {
		long long e;

		if (parse_ll(env, &e) == 0)
			now = (time_t)e;
	}
	gmtime_r(&now, &tm);
	strftime(b->date, sizeof b->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
	b->exp = exp;
	b->dir = mr_rd_path(exp, b->R.platform);
	b->nplat = mr_rd_guest_plats(&b->R, &b->plat);
	return MR_OK;
}

void
mr_bless_case(const struct mr_bless *b, int i, struct mr_bless_case *c)
{
	const struct mr_rd_case *k = &b->R.k[b->sel[i]];
	struct mr_baseline *nb = &c->nb;
	int j;

	memset(c, 0, sizeof *c);
	c->k = k;
	mr_baseline_kv(nb, "case", k->name);
	mr_baseline_kv(nb, "blessed", b->date);
	mr_baseline_kv(nb, "results", b->R.dir);
	for (j = 0; j < b->R.nenv; j++)
		mr_baseline_kv(nb, b->R.envk[j], b->R.envv[j]);
	for (j = 0; j < k->ncfg; j++) {
		const struct mr_rd_cfg *cf = &k->cfg[j];
		struct mr_bless_left *l;
		/* a guest's configs are its platform's (b->frag) */
		char *key = mr_rd_plat_config(&k->conf[j], b->frag);

		if (!key)
			continue;
		if (cf->nok == cf->nrun) {
			bless_config(nb, k, j, key);
			free(key);
			continue;
		}
		free(key);
		c->left = erealloc(c->left, ((size_t)c->nleft + 1) * sizeof *c->left);
		l = &c->left[c->nleft++];
		l->label = cf->label;
		/* nodata explains a config without any ok run; a partly
		 * failed one is said here. */
		if (cf->nok > 0)
			l->why = esprintf("%d of %d repeats not ok", cf->nrun - cf->nok,
					  cf->nrun);
		else
			l->why = mr_rd_nodata(k, j, &(struct mr_ref){ .metric = 0 });
	}
	if (nb->nrow == 0)
		return;
	nb->path = esprintf("%s/%s.tsv", b->dir, k->name);
	/* An unreadable old baseline (printed) is replaced. */
	c->has_old = mr_baseline_read(nb->path, &c->ob) == 0;
	for (j = 0; j < k->ncfg; j++)
		c->busy += busy_clock(k, j);
	if (c->has_old)
		keep_others(c);
	diff(c);
}

int
mr_bless_mkdir(const struct mr_bless *b)
{
	int rc = mkdir_p(b->dir);

	if (rc < 0) {
		errno = -rc;
		weprintf("mkdir %s:", b->dir);
		return -1;
	}
	return 0;
}

int
mr_bless_write(const struct mr_bless_case *c)
{
	return mr_baseline_write(&c->nb, c->nb.path);
}

void
mr_bless_case_free(struct mr_bless_case *c)
{
	int i;

	for (i = 0; i < c->nleft; i++)
		free(c->left[i].why);
	for (i = 0; i < c->nch; i++)
		free(c->ch[i].label);
	free(c->left);
	free(c->ch);
	mr_baseline_free(&c->nb);
	if (c->has_old)
		mr_baseline_free(&c->ob);
	memset(c, 0, sizeof *c);
}

int
mr_bless_platform(struct mr_bless *b, int i)
{
	const char *p = i ? b->plat[i - 1].platform : b->R.platform;

	free(b->dir);
	b->dir = NULL;
	b->frag = i ? b->plat[i - 1].frag : NULL;
	if (!p)
		return -1;
	b->dir = mr_rd_path(b->exp, p);
	return 0;
}

void
mr_bless_close(struct mr_bless *b)
{
	free(b->plat);
	free(b->dir);
	free(b->sel);
	mr_rd_free(&b->R);
}
