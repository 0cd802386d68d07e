#include "check/baseline.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check/claims.h"
#include "core/tsv.h"
#include "core/util.h"

/* How far a median may move before it is a regression or an improvement:
 *
 *     tolerance = max(K * (max - min), rel * |median|, abs)
 *
 * K widens the spread bless measured: with the usual 3 repeats the range
 * of the samples underestimates the real spread, often by half.  The
 * floors keep a blessing that happened to be steady (max == min) from
 * turning every later wobble into a regression.  Memory is page-granular,
 * but PSS moves with whoever else maps the same libraries and some
 * allocators' figures wobble by 5-8 % between reruns, and tcmalloc grows
 * its page heap in 2 MiB steps whose count depends on thread timing, so
 * its floor is 10 % / 3 MiB; time drifts with the
 * load of the machine (a busy CI host easily doubles it), so its floor is
 * wide; counts (page faults) sit in between.  The class of a metric is
 * its unit (proto/schema.h: by the suffix of its name). */
static const struct tol_class {
	double k;           /* multiple of the measured range */
	double rel;         /* floor, fraction of the median */
	double abs;         /* floor, in the metric's unit */
} tol_classes[] = {
	[MR_UNIT_KB] = { 3, 0.10, 3072 }, /* memory, kB: see docs/formats.md */
	[MR_UNIT_MS] = { 3, 0.50, 30 },   /* time, ms */
	[MR_UNIT_COUNT] = { 3, 0.10, 1000 }, /* counts: minflt (a 2 MiB heap step is 512 faults), majflt, tree_nproc */
};

/* wait4's peak of a run counts the runner's own resident pages at the
 * fork (Linux keeps the pre-exec high-water mark): a few MiB that move
 * with the machine (the runner's text in huge pages after THP always:
 * +3.5 MiB on alloc-churn's 4 MiB peaks, 2026-12-06), so check gives a
 * maxrss_kb row 8 MiB at least (docs/formats.md, "Baselines"). */
#define MAXRSS_TOL_KB 8192.0

double
mr_bl_row_tol(const struct mr_bl_row *r)
{
	return !r->ckpt && r->metric == MR_RM_MAXRSS_KB && r->tol < MAXRSS_TOL_KB
		? MAXRSS_TOL_KB : r->tol;
}

const char *const mr_bless_ckpt_metrics[] = {
	"rss_kb", "pss_kb", "private_dirty_kb", "lazyfree_kb", "anon_kb",
	"vsz_kb", "tree_pss_kb", "tree_private_dirty_kb", NULL,
};

/* No times: they drift with the machine and its load, so a baseline of
 * them would fail on noise or be too wide to catch anything.  Time is
 * checked by claims, as ratios of configs measured side by side in one
 * run (DESIGN.md), and between result sets by `compare`.  A hand-edited
 * baseline may still carry time rows; check compares them.  What a run
 * takes is recorded in the cost rows, which nothing compares. */
const char *const mr_bless_run_metrics[] = {
	"maxrss_kb", "minflt", NULL,
};

static const char *const columns[] = {
	"config", "checkpoint", "metric", "median", "min", "max", "n", "tolerance",
};
enum { C_CONFIG, C_CKPT, C_METRIC, C_MEDIAN, C_MIN, C_MAX, C_N, C_TOL, NCOLS };

double
mr_bl_tolerance(const char *metric, double median, double min, double max)
{
	const struct tol_class *t = &tol_classes[mr_metric_unit(metric)];
	double tol;

	tol = fmax(t->k * (max - min), fmax(t->rel * fabs(median), t->abs));
	/* Whole units read better and lose nothing at these sizes. */
	return ceil(tol);
}

const char *
mr_bl_metric(const struct mr_bl_row *r)
{
	return r->ckpt ? mr_ckpt_metrics[r->metric] : mr_run_metrics[r->metric];
}

char *
mr_bl_checkpoint(const struct mr_bl_row *r)
{
	if (!r->checkpoint)
		return estrdup("-");
	if (r->seq)
		return esprintf("%s#%ld", r->checkpoint, r->seq);
	return estrdup(r->checkpoint);
}

static int
rowcmp(const struct mr_bl_row *a, const struct mr_bl_row *b)
{
	char *ca, *cb;
	int c = strcmp(a->config, b->config);

	if (c)
		return c;
	ca = mr_bl_checkpoint(a);
	cb = mr_bl_checkpoint(b);
	c = strcmp(ca, cb);
	free(ca);
	free(cb);
	if (c)
		return c;
	return strcmp(mr_bl_metric(a), mr_bl_metric(b));
}

static int
rowpcmp(const void *a, const void *b)
{
	return rowcmp(*(const struct mr_bl_row *const *)a,
		      *(const struct mr_bl_row *const *)b);
}

void
mr_baseline_kv(struct mr_baseline *b, const char *key, const char *val)
{
	b->key = erealloc(b->key, sizeof *b->key * (b->nkv + 1));
	b->val = erealloc(b->val, sizeof *b->val * (b->nkv + 1));
	b->key[b->nkv] = estrdup(key);
	b->val[b->nkv] = estrdup(val);
	b->nkv++;
}

void
mr_baseline_add(struct mr_baseline *b, const struct mr_bl_row *r)
{
	struct mr_bl_row *n;

	b->row = erealloc(b->row, sizeof *b->row * (b->nrow + 1));
	n = &b->row[b->nrow++];
	*n = *r;
	n->config = estrdup(r->config);
	n->checkpoint = r->checkpoint ? estrdup(r->checkpoint) : NULL;
}

void
mr_baseline_add_cost(struct mr_baseline *b, const struct mr_bl_cost *c)
{
	b->cost = erealloc(b->cost, sizeof *b->cost * (b->ncost + 1));
	b->cost[b->ncost] = *c;
	b->cost[b->ncost].config = estrdup(c->config);
	b->ncost++;
}

const struct mr_bl_cost *
mr_baseline_cost(const struct mr_baseline *b, const char *config)
{
	int i;

	for (i = 0; i < b->ncost; i++)
		if (!strcmp(b->cost[i].config, config))
			return &b->cost[i];
	return NULL;
}

void
mr_baseline_free(struct mr_baseline *b)
{
	int i;

	for (i = 0; i < b->nkv; i++) {
		free(b->key[i]);
		free(b->val[i]);
	}
	for (i = 0; i < b->nrow; i++) {
		free(b->row[i].config);
		free(b->row[i].checkpoint);
	}
	for (i = 0; i < b->ncost; i++)
		free(b->cost[i].config);
	free(b->cost);
	free(b->key);
	free(b->val);
	free(b->row);
	free(b->path);
	memset(b, 0, sizeof *b);
}

static int
ckname_ok(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      *s == '_' || *s == '-'))
			return 0;
	return 1;
}

/* The config of the row in t is canonical: 0, or -1 (printed). */
static int
config_ok(struct mr_tsv *t, const int *col)
{
	const char *why;
	struct mr_config cfg;

	if (mr_config_parse(mr_tsv_get(t, col[C_CONFIG]), &cfg, &why) < 0)
		return mr_tsv_err(t, col[C_CONFIG], "bad config \"%s\": %s",
				  mr_tsv_get(t, col[C_CONFIG]), why);
	mr_config_free(&cfg);
	return 0;
}

/* The median, min, max and n of the row in t; 0 or -1 (printed). */
static int
read_figures(struct mr_tsv *t, const int *col, double *median, double *min,
	     double *max, long *n)
{
	long long v;

	if (mr_tsv_num(t, col[C_MEDIAN], 0, median) < 0 ||
	    mr_tsv_num(t, col[C_MIN], 0, min) < 0 ||
	    mr_tsv_num(t, col[C_MAX], 0, max) < 0 ||
	    mr_tsv_int(t, col[C_N], 1, 1000000, &v) < 0)
		return -1;
	*n = (long)v;
	return 0;
}

/* A cost row of t (its metric is MR_BL_COST) into c; 0 or -1 (printed). */
static int
read_cost(struct mr_tsv *t, const int *col, struct mr_bl_cost *c)
{
	const char *ck = mr_tsv_get(t, col[C_CKPT]), *tol = mr_tsv_get(t, col[C_TOL]);

	memset(c, 0, sizeof *c);
	c->line = t->line;
	if (config_ok(t, col) < 0)
		return -1;
	if (strcmp(ck, "-"))
		return mr_tsv_err(t, col[C_CKPT],
				  "a %s row is what a whole run takes: its checkpoint must be -, got \"%s\"",
				  MR_BL_COST, ck);
	if (read_figures(t, col, &c->median, &c->min, &c->max, &c->n) < 0)
		return -1;
	if (c->median < 0)
		return mr_tsv_err(t, col[C_MEDIAN], "negative cost %s",
				  mr_tsv_get(t, col[C_MEDIAN]));
	/* A tolerance would read as if check compared the row. */
	if (strcmp(tol, "-"))
		return mr_tsv_err(t, col[C_TOL],
				  "a %s row is never compared: its tolerance must be -, got \"%s\"",
				  MR_BL_COST, tol);
	c->config = estrdup(mr_tsv_get(t, col[C_CONFIG]));
	return 0;
}

/* One row of t into r; 0 or -1 (printed). */
static int
read_row(struct mr_tsv *t, const int *col, struct mr_bl_row *r)
{
	const char *ck = mr_tsv_get(t, col[C_CKPT]);
	const char *metric = mr_tsv_get(t, col[C_METRIC]);

	memset(r, 0, sizeof *r);
	r->line = t->line;
	if (config_ok(t, col) < 0)
		return -1;
	if (strcmp(ck, "-")) {
		char *name = estrdup(ck), *hash = strchr(name, '#');
		long long seq = 0;

		if (hash) {
			*hash = '\0';
			if (parse_ll(hash + 1, &seq) < 0 || seq < 1) {
				free(name);
				return mr_tsv_err(t, col[C_CKPT],
						  "expected a checkpoint name, name#N or -, got \"%s\"",
						  ck);
			}
		}
		if (!ckname_ok(name)) {
			free(name);
			return mr_tsv_err(t, col[C_CKPT],
					  "expected a checkpoint name, name#N or -, got \"%s\"",
					  ck);
		}
		r->checkpoint = name;
		r->seq = (long)seq;
		r->ckpt = 1;
		r->metric = mr_ckpt_metric(metric);
		if (r->metric < 0) {
			free(name);
			r->checkpoint = NULL;
			return mr_tsv_err(t, col[C_METRIC],
					  "unknown checkpoint metric \"%s\"", metric);
		}
	} else {
		r->metric = mr_run_metric(metric);
		if (r->metric < 0)
			return mr_tsv_err(t, col[C_METRIC],
					  "unknown run metric \"%s\" (checkpoint is -)",
					  metric);
	}
	if (read_figures(t, col, &r->median, &r->min, &r->max, &r->n) < 0 ||
	    mr_tsv_num(t, col[C_TOL], 0, &r->tol) < 0)
		goto fail;
	if (r->tol < 0) {
		mr_tsv_err(t, col[C_TOL], "negative tolerance %s",
			   mr_tsv_get(t, col[C_TOL]));
		goto fail;
	}
	r->config = estrdup(mr_tsv_get(t, col[C_CONFIG]));
	return 0;
fail:
	free(r->checkpoint);
	r->checkpoint = NULL;
	return -1;
}

int
mr_baseline_read(const char *path, struct mr_baseline *b)
{
	struct mr_tsv t;
	struct mr_bl_row **sorted = NULL;
	int col[NCOLS], i, rc;

	memset(b, 0, sizeof *b);
	rc = mr_tsv_open(&t, path);
	if (rc < 0)
		return rc;
	b->path = estrdup(path);
	for (i = 0; i < t.ncomments; i++) {
		char *tab = strchr(t.comments[i], '\t');

		/* Free-text comments are allowed; "key<TAB>value" is kept. */
		if (tab) {
			*tab = '\0';
			mr_baseline_kv(b, t.comments[i], tab + 1);
			*tab = '\t';
		}
	}
	for (i = 0; i < NCOLS; i++)
		if ((col[i] = mr_tsv_need(&t, columns[i])) < 0)
			goto fail;
	for (;;) {
		struct mr_bl_row r;

		rc = mr_tsv_next(&t);
		if (rc < 0)
			goto fail;
		if (rc == 0)
			break;
		if (!strcmp(mr_tsv_get(&t, col[C_METRIC]), MR_BL_COST)) {
			struct mr_bl_cost c;
			const struct mr_bl_cost *was;

			if (read_cost(&t, col, &c) < 0)
				goto fail;
			if ((was = mr_baseline_cost(b, c.config))) {
				mr_errat(path, c.line, 1, "%s %s again (first on line %ld)",
					 c.config, MR_BL_COST, was->line);
				free(c.config);
				goto fail;
			}
			b->cost = erealloc(b->cost, sizeof *b->cost * (b->ncost + 1));
			b->cost[b->ncost++] = c;
			continue;
		}
		if (read_row(&t, col, &r) < 0)
			goto fail;
		b->row = erealloc(b->row, sizeof *b->row * (b->nrow + 1));
		b->row[b->nrow++] = r;
	}
	/* The same (config, checkpoint, metric) twice is a mistake: which
	 * one would count? */
	sorted = emalloc(sizeof *sorted * (b->nrow ? b->nrow : 1));
	for (i = 0; i < b->nrow; i++)
		sorted[i] = &b->row[i];
	qsort(sorted, b->nrow, sizeof *sorted, rowpcmp);
	for (i = 1; i < b->nrow; i++) {
		if (!rowcmp(sorted[i - 1], sorted[i])) {
			const struct mr_bl_row *x = sorted[i - 1], *y = sorted[i];

			if (x->line > y->line)
				x = sorted[i], y = sorted[i - 1];
			mr_errat(path, y->line, 1,
				 "%s %s%s%s again (first on line %ld)", y->config,
				 mr_bl_metric(y), y->checkpoint ? "@" : "",
				 y->checkpoint ? y->checkpoint : "", x->line);
			goto fail;
		}
	}
	free(sorted);
	mr_tsv_close(&t);
	return 0;
fail:
	free(sorted);
	mr_tsv_close(&t);
	mr_baseline_free(b);
	return -1;
}

/* A number as a TSV field: integers as such, others with up to three
 * decimals. */
static void
putnum(FILE *f, double v)
{
	char buf[64];
	size_t n;

	if (v == floor(v) && fabs(v) < 1e15) {
		fprintf(f, "%.0f", v == 0 ? 0.0 : v);
		return;
	}
	snprintf(buf, sizeof buf, "%.3f", v);
	n = strlen(buf);
	while (n > 0 && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n > 0 && buf[n - 1] == '.')
		buf[--n] = '\0';
	fputs(buf, f);
}

/* The median, min, max and n columns, each followed by a tab. */
static void
putfigures(FILE *f, double median, double min, double max, long n)
{
	putnum(f, median);
	fputc('\t', f);
	putnum(f, min);
	fputc('\t', f);
	putnum(f, max);
	fprintf(f, "\t%ld\t", n);
}

static int
costpcmp(const void *a, const void *b)
{
	return strcmp((*(const struct mr_bl_cost *const *)a)->config,
		      (*(const struct mr_bl_cost *const *)b)->config);
}

/* Print s with tabs and newlines as spaces (they would break the line). */
static void
putclean(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, f);
}

int
mr_baseline_write(const struct mr_baseline *b, const char *path)
{
	const char *slash = strrchr(path, '/');
	char *tmp;
	const struct mr_bl_row **sorted;
	const struct mr_bl_cost **costs;
	FILE *f;
	int fd, i, j, err = 0;

	if (slash)
		tmp = esprintf("%.*s/.%s.XXXXXX", (int)(slash - path), path, slash + 1);
	else
		tmp = esprintf(".%s.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		weprintf("%s: cannot create a temporary file:", tmp);
		free(tmp);
		return -1;
	}
	/* mkstemp makes 0600; a baseline is meant to be read and committed. */
	if (fchmod(fd, 0644) < 0 || !(f = fdopen(fd, "w"))) {
		weprintf("%s:", tmp);
		close(fd);
		unlink(tmp);
		free(tmp);
		return -1;
	}
	for (i = 0; i < b->nkv; i++) {
		fputs("# ", f);
		putclean(f, b->key[i]);
		fputc('\t', f);
		putclean(f, b->val[i]);
		fputc('\n', f);
	}
	for (j = 0; j < NCOLS; j++)
		fprintf(f, "%s%c", columns[j], j + 1 < NCOLS ? '\t' : '\n');
	sorted = emalloc(sizeof *sorted * (b->nrow ? b->nrow : 1));
	for (i = 0; i < b->nrow; i++)
		sorted[i] = &b->row[i];
	qsort(sorted, b->nrow, sizeof *sorted, rowpcmp);
	for (i = 0; i < b->nrow; i++) {
		const struct mr_bl_row *r = sorted[i];
		char *ck = mr_bl_checkpoint(r);

		fprintf(f, "%s\t%s\t%s\t", r->config, ck, mr_bl_metric(r));
		putfigures(f, r->median, r->min, r->max, r->n);
		putnum(f, r->tol);
		fputc('\n', f);
		free(ck);
	}
	free(sorted);
	costs = emalloc(sizeof *costs * (b->ncost ? b->ncost : 1));
	for (i = 0; i < b->ncost; i++)
		costs[i] = &b->cost[i];
	qsort(costs, b->ncost, sizeof *costs, costpcmp);
	for (i = 0; i < b->ncost; i++) {
		fprintf(f, "%s\t-\t%s\t", costs[i]->config, MR_BL_COST);
		putfigures(f, costs[i]->median, costs[i]->min, costs[i]->max, costs[i]->n);
		fputs("-\n", f);
	}
	free(costs);
	errno = 0;
	if (fflush(f) != 0 || ferror(f) || fsync(fileno(f)) < 0)
		err = errno ? errno : EIO;
	if (fclose(f) != 0 && !err)
		err = errno;
	if (!err && rename(tmp, path) < 0)
		err = errno;
	if (err) {
		errno = err;
		weprintf("%s:", path);
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}
