#include "compare.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "baseline.h"
#include "claims.h"
#include "tsv.h"
#include "util.h"

/* Append a zeroed element to array p of n elements, growing it by powers
 * of two; evaluates to a pointer to the new element. */
#define PUSH(p, n)                                                          \
	((((n) & ((n) - 1)) == 0                                            \
		  ? (void)((p) = erealloc((p), sizeof *(p) * ((n) ? 2 * (n) : 1))) \
		  : (void)0),                                               \
	 memset(&(p)[(n)], 0, sizeof *(p)), &(p)[(n)++])

enum outcome { O_OK, O_FAILED, O_CRASHED, O_TIMEOUT, O_EXEC_FAILED,
	       O_SKIPPED, O_BAD_OUTPUT, NOUTCOMES };

static const char *const outcomes[NOUTCOMES] = {
	"ok", "failed", "crashed", "timeout", "exec-failed", "skipped",
	"bad-output",
};

/* One row of runs.tsv. */
struct run {
	int cfg;                   /* index into the case's configs */
	long repeat;               /* 1..N */
	enum outcome outcome;
	char *detail;              /* "-" when none (owned) */
	char *log;                 /* relative to the results, NULL if none (owned) */
	long line;                 /* in runs.tsv */
	double m[MR_NRUN_METRICS]; /* NAN: not measured */
	int *ck;                   /* its rows in the case's ck[] (owned) */
	int nck;
};

/* One row of checkpoints.tsv. */
struct ckrow {
	char *name;                 /* checkpoint name (owned) */
	long seq;                   /* occurrence, from 1 */
	double m[MR_NCKPT_METRICS]; /* NAN: not measured */
};

/* What we know of a config of a case, beside its mr_config. */
struct cfg {
	char *label;   /* short form: only the keys that vary (owned) */
	int *run;      /* its runs in the case's run[] (owned) */
	int nrun;
	int nok, nskip, nfail;
};

struct kase {
	char *name;             /* (owned) */
	struct mr_config *conf; /* its configs in order of appearance */
	struct cfg *cfg;        /* parallel to conf */
	int ncfg;
	struct run *run;
	int nrun;
	struct ckrow *ck;
	int nck;
	char *claims_path;      /* <expected>/<case>.claims (owned) */
	struct mr_claims claims;
	int has_claims;
	char *bl_path;          /* <expected>/<platform>/<case>.tsv (owned) */
	struct mr_baseline bl;
	int has_bl;
};

struct results {
	char *dir;        /* as given, without trailing slashes (owned) */
	char **envk, **envv; /* env.tsv (owned) */
	int nenv;
	const char *platform; /* into envv */
	struct kase *k;   /* cases in order of appearance in runs.tsv */
	int nk;
};

/* Counts of verdicts, per case and overall. */
struct totals {
	int nclaims, held, reproduces, regressed, notrepro, cskipped;
	int has_claims, has_bl;
	int bheld, bregressed, bimproved, bmissing;
	int rok, rfailed, rskipped;
};

static char *
join(const char *dir, const char *name)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	return esprintf("%.*s/%s", (int)n, dir, name);
}

/* Safe as one path component: [A-Za-z0-9._+-]+, not starting with '.'. */
static int
component_ok(const char *s)
{
	if (!*s || *s == '.')
		return 0;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			 "0123456789._+-") == strlen(s);
}

static int
dblcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median of v[0..n-1], n > 0; sorts v. */
static double
median(double *v, int n)
{
	qsort(v, n, sizeof *v, dblcmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void
results_free(struct results *R)
{
	int i, j;

	for (i = 0; i < R->nk; i++) {
		struct kase *k = &R->k[i];

		for (j = 0; j < k->ncfg; j++) {
			mr_config_free(&k->conf[j]);
			free(k->cfg[j].label);
			free(k->cfg[j].run);
		}
		for (j = 0; j < k->nrun; j++) {
			free(k->run[j].detail);
			free(k->run[j].log);
			free(k->run[j].ck);
		}
		for (j = 0; j < k->nck; j++)
			free(k->ck[j].name);
		free(k->conf);
		free(k->cfg);
		free(k->run);
		free(k->ck);
		free(k->name);
		free(k->claims_path);
		free(k->bl_path);
		mr_claims_free(&k->claims);
		mr_baseline_free(&k->bl);
	}
	for (i = 0; i < R->nenv; i++) {
		free(R->envk[i]);
		free(R->envv[i]);
	}
	free(R->envk);
	free(R->envv);
	free(R->k);
	free(R->dir);
	memset(R, 0, sizeof *R);
}

static struct kase *
find_case(struct results *R, const char *name)
{
	int i;

	for (i = 0; i < R->nk; i++)
		if (!strcmp(R->k[i].name, name))
			return &R->k[i];
	return NULL;
}

static int
find_cfg(const struct kase *k, const char *str)
{
	int i;

	for (i = 0; i < k->ncfg; i++)
		if (!strcmp(k->conf[i].str, str))
			return i;
	return -1;
}

static int
find_run(const struct kase *k, int cfg, long repeat)
{
	int i;

	for (i = 0; i < k->cfg[cfg].nrun; i++)
		if (k->run[k->cfg[cfg].run[i]].repeat == repeat)
			return k->cfg[cfg].run[i];
	return -1;
}

/* Open a required TSV file of the results; 0 or -1 (printed). */
static int
open_results_file(struct mr_tsv *t, const struct results *R, const char *name)
{
	char *path = join(R->dir, name);
	int rc = mr_tsv_open(t, path);

	if (rc == -ENOENT)
		mr_errat(path, 0, 0, "no such file (is %s a results directory?)",
			 R->dir);
	free(path);
	return rc < 0 ? -1 : 0;
}

static int
load_env(struct results *R)
{
	struct mr_tsv t;
	int ck, cv, rc, i;

	if (open_results_file(&t, R, "env.tsv") < 0)
		return -1;
	if ((ck = mr_tsv_need(&t, "key")) < 0 || (cv = mr_tsv_need(&t, "value")) < 0)
		goto fail;
	while ((rc = mr_tsv_next(&t)) > 0) {
		const char *key = mr_tsv_get(&t, ck), *val = mr_tsv_get(&t, cv);

		for (i = 0; i < R->nenv; i++) {
			if (!strcmp(R->envk[i], key)) {
				mr_tsv_err(&t, ck, "key %s again", key);
				goto fail;
			}
		}
		if (!strcmp(key, "platform") && !component_ok(val)) {
			mr_tsv_err(&t, cv, "platform \"%s\" is not usable as a directory name",
				   val);
			goto fail;
		}
		R->envk = erealloc(R->envk, sizeof *R->envk * (R->nenv + 1));
		R->envv = erealloc(R->envv, sizeof *R->envv * (R->nenv + 1));
		R->envk[R->nenv] = estrdup(key);
		R->envv[R->nenv] = estrdup(val);
		if (!strcmp(key, "platform"))
			R->platform = R->envv[R->nenv];
		R->nenv++;
	}
	if (rc < 0)
		goto fail;
	if (!R->platform) {
		mr_errat(t.path, 0, 0, "no platform key");
		goto fail;
	}
	mr_tsv_close(&t);
	return 0;
fail:
	mr_tsv_close(&t);
	return -1;
}

static int
load_runs(struct results *R)
{
	enum { C_CASE, C_CONFIG, C_REPEAT, C_OUTCOME, C_DETAIL, NREQ };
	static const char *const req[NREQ] = {
		"case", "config", "repeat", "outcome", "detail",
	};
	struct mr_tsv t;
	int col[NREQ], mcol[MR_NRUN_METRICS], clog, rc, i;

	if (open_results_file(&t, R, "runs.tsv") < 0)
		return -1;
	for (i = 0; i < NREQ; i++)
		if ((col[i] = mr_tsv_need(&t, req[i])) < 0)
			goto fail;
	for (i = 0; i < MR_NRUN_METRICS; i++)
		mcol[i] = mr_tsv_col(&t, mr_run_metrics[i]);
	clog = mr_tsv_col(&t, "log");
	while ((rc = mr_tsv_next(&t)) > 0) {
		const char *name = mr_tsv_get(&t, col[C_CASE]);
		const char *cstr = mr_tsv_get(&t, col[C_CONFIG]);
		const char *oc = mr_tsv_get(&t, col[C_OUTCOME]);
		struct kase *k;
		struct run *r;
		long long repeat;
		int ci, o, prev;

		if (!component_ok(name)) {
			mr_tsv_err(&t, col[C_CASE], "bad case name \"%s\"", name);
			goto fail;
		}
		if (mr_tsv_int(&t, col[C_REPEAT], 1, 1000000, &repeat) < 0)
			goto fail;
		for (o = 0; o < NOUTCOMES; o++)
			if (!strcmp(oc, outcomes[o]))
				break;
		if (o == NOUTCOMES) {
			mr_tsv_err(&t, col[C_OUTCOME],
				   "unknown outcome \"%s\" (ok, failed, crashed, timeout, exec-failed, skipped, bad-output)",
				   oc);
			goto fail;
		}
		k = find_case(R, name);
		if (!k) {
			k = PUSH(R->k, R->nk);
			k->name = estrdup(name);
		}
		ci = find_cfg(k, cstr);
		if (ci < 0) {
			struct mr_config c;
			const char *why;

			if (mr_config_parse(cstr, &c, &why) < 0) {
				mr_tsv_err(&t, col[C_CONFIG], "bad config \"%s\": %s",
					   cstr, why);
				goto fail;
			}
			/* conf[] and cfg[] are parallel, counted by ncfg. */
			ci = k->ncfg;
			*PUSH(k->conf, ci) = c;
			ci = k->ncfg;
			PUSH(k->cfg, ci);
			ci = k->ncfg++;
		}
		prev = find_run(k, ci, (long)repeat);
		if (prev >= 0) {
			mr_tsv_err(&t, col[C_REPEAT],
				   "run of %s, %s, repeat %lld again (first on line %ld)",
				   name, cstr, repeat, k->run[prev].line);
			goto fail;
		}
		r = PUSH(k->run, k->nrun);
		r->cfg = ci;
		r->repeat = (long)repeat;
		r->outcome = (enum outcome)o;
		r->line = t.line;
		for (i = 0; i < MR_NRUN_METRICS; i++) {
			if (mcol[i] < 0)
				r->m[i] = NAN;
			else if (mr_tsv_num(&t, mcol[i], 1, &r->m[i]) < 0)
				goto fail;
		}
		r->detail = estrdup(mr_tsv_get(&t, col[C_DETAIL]));
		if (clog >= 0 && strcmp(mr_tsv_get(&t, clog), "-") &&
		    *mr_tsv_get(&t, clog))
			r->log = estrdup(mr_tsv_get(&t, clog));
		*PUSH(k->cfg[ci].run, k->cfg[ci].nrun) = k->nrun - 1;
		if (o == O_OK)
			k->cfg[ci].nok++;
		else if (o == O_SKIPPED)
			k->cfg[ci].nskip++;
		else
			k->cfg[ci].nfail++;
	}
	if (rc < 0)
		goto fail;
	mr_tsv_close(&t);
	for (i = 0; i < R->nk; i++) {
		struct kase *k = &R->k[i];
		int j;

		for (j = 0; j < k->ncfg; j++)
			k->cfg[j].label = mr_config_label(k->conf, k->ncfg, j);
	}
	return 0;
fail:
	mr_tsv_close(&t);
	return -1;
}

static int
ckname_ok(const char *s)
{
	return *s && strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_-") == strlen(s);
}

static int
load_checkpoints(struct results *R)
{
	enum { C_CASE, C_CONFIG, C_REPEAT, C_CKPT, C_SEQ, NREQ };
	static const char *const req[NREQ] = {
		"case", "config", "repeat", "checkpoint", "seq",
	};
	struct mr_tsv t;
	int col[NREQ], mcol[MR_NCKPT_METRICS], rc, i;

	if (open_results_file(&t, R, "checkpoints.tsv") < 0)
		return -1;
	for (i = 0; i < NREQ; i++)
		if ((col[i] = mr_tsv_need(&t, req[i])) < 0)
			goto fail;
	for (i = 0; i < MR_NCKPT_METRICS; i++)
		mcol[i] = mr_tsv_col(&t, mr_ckpt_metrics[i]);
	while ((rc = mr_tsv_next(&t)) > 0) {
		const char *name = mr_tsv_get(&t, col[C_CKPT]);
		struct ckrow row;
		struct kase *k;
		struct run *r;
		long long repeat, seq;
		int ci, ri;

		if (mr_tsv_int(&t, col[C_REPEAT], 1, 1000000, &repeat) < 0 ||
		    mr_tsv_int(&t, col[C_SEQ], 1, 1000000000, &seq) < 0)
			goto fail;
		if (!ckname_ok(name)) {
			mr_tsv_err(&t, col[C_CKPT], "bad checkpoint name \"%s\"", name);
			goto fail;
		}
		for (i = 0; i < MR_NCKPT_METRICS; i++) {
			if (mcol[i] < 0)
				row.m[i] = NAN;
			else if (mr_tsv_num(&t, mcol[i], 1, &row.m[i]) < 0)
				goto fail;
		}
		/* A record of a run with no row in runs.tsv belongs to a run
		 * that was interrupted: it has no outcome, so it is not used. */
		k = find_case(R, mr_tsv_get(&t, col[C_CASE]));
		if (!k || (ci = find_cfg(k, mr_tsv_get(&t, col[C_CONFIG]))) < 0 ||
		    (ri = find_run(k, ci, (long)repeat)) < 0)
			continue;
		r = &k->run[ri];
		for (i = 0; i < r->nck; i++) {
			const struct ckrow *c = &k->ck[r->ck[i]];

			if (c->seq == seq && !strcmp(c->name, name)) {
				mr_tsv_err(&t, col[C_SEQ], "checkpoint %s #%lld of this run again",
					   name, seq);
				goto fail;
			}
		}
		row.name = estrdup(name);
		row.seq = (long)seq;
		*PUSH(k->ck, k->nck) = row;
		*PUSH(r->ck, r->nck) = k->nck - 1;
	}
	if (rc < 0)
		goto fail;
	mr_tsv_close(&t);
	return 0;
fail:
	mr_tsv_close(&t);
	return -1;
}

static int
load_results(struct results *R, const char *dir)
{
	memset(R, 0, sizeof *R);
	R->dir = estrdup(dir);
	if (load_env(R) < 0 || load_runs(R) < 0 || load_checkpoints(R) < 0)
		return -1;
	return 0;
}

/* The cases to look at, as indices into R->k; -1 (printed) when a case
 * asked for has no runs. */
static int
select_cases(struct results *R, const struct mr_cmp_opts *o, int **sel)
{
	int n = 0, i, j;

	*sel = ecalloc(R->nk + 1, sizeof **sel);
	if (!o->cases || !o->cases[0]) {
		for (i = 0; i < R->nk; i++)
			(*sel)[n++] = i;
		return n;
	}
	for (i = 0; o->cases[i]; i++) {
		struct kase *k = find_case(R, o->cases[i]);
		int idx;

		if (!k) {
			char *path = join(R->dir, "runs.tsv");

			mr_errat(path, 0, 0, "no runs of case %s", o->cases[i]);
			free(path);
			free(*sel);
			*sel = NULL;
			return -1;
		}
		idx = (int)(k - R->k);
		for (j = 0; j < n; j++)
			if ((*sel)[j] == idx)
				break;
		if (j == n)
			(*sel)[n++] = idx;
	}
	return n;
}

/* --- values -------------------------------------------------------------- */

/* The checkpoint row of run r named name (seq 0: its last occurrence). */
static const struct ckrow *
ck_row(const struct kase *k, const struct run *r, const char *name, long seq)
{
	const struct ckrow *best = NULL;
	int i;

	for (i = 0; i < r->nck; i++) {
		const struct ckrow *c = &k->ck[r->ck[i]];

		if (strcmp(c->name, name))
			continue;
		if (seq ? c->seq == seq : (!best || c->seq > best->seq))
			best = c;
	}
	return best;
}

/* The value of ref in one ok run, NAN when there is none. */
static double
run_value(const struct kase *k, const struct run *r, const struct mr_ref *ref)
{
	const struct ckrow *c;

	if (!ref->ckpt)
		return r->m[ref->metric];
	c = ck_row(k, r, ref->checkpoint, ref->seq);
	return c ? c->m[ref->metric] : NAN;
}

/* Values of ref over the ok runs of config ci into a fresh array. */
static int
values(const struct kase *k, int ci, const struct mr_ref *ref, double **out)
{
	const struct cfg *c = &k->cfg[ci];
	int n = 0, i;

	*out = ecalloc(c->nrun + 1, sizeof **out);
	for (i = 0; i < c->nrun; i++) {
		const struct run *r = &k->run[c->run[i]];
		double v;

		if (r->outcome != O_OK)
			continue;
		v = run_value(k, r, ref);
		if (!isnan(v))
			(*out)[n++] = v;
	}
	return n;
}

/* Why config ci has no value for ref. */
static char *
nodata(const struct kase *k, int ci, const struct mr_ref *ref)
{
	const struct cfg *c = &k->cfg[ci];
	const char *metric = ref->ckpt ? mr_ckpt_metrics[ref->metric]
				       : mr_run_metrics[ref->metric];
	int i;

	if (c->nok == 0) {
		for (i = 0; i < c->nrun; i++) {
			const struct run *r = &k->run[c->run[i]];

			if (r->outcome == O_SKIPPED)
				return esprintf("skipped: %s", r->detail);
		}
		for (i = 0; i < c->nrun; i++) {
			const struct run *r = &k->run[c->run[i]];

			if (strcmp(r->detail, "-"))
				return esprintf("%s: %s", outcomes[r->outcome], r->detail);
			return esprintf("%s", outcomes[r->outcome]);
		}
		return estrdup("no runs");
	}
	if (ref->ckpt) {
		for (i = 0; i < c->nrun; i++) {
			const struct run *r = &k->run[c->run[i]];

			if (r->outcome == O_OK && ck_row(k, r, ref->checkpoint, ref->seq))
				return esprintf("%s not measured at checkpoint %s",
						metric, ref->checkpoint);
		}
		if (ref->seq)
			return esprintf("no checkpoint %s#%ld recorded", ref->checkpoint,
					ref->seq);
		return esprintf("no checkpoint %s recorded", ref->checkpoint);
	}
	return esprintf("%s not measured", metric);
}

static int
value_cb(void *ctx, int ci, const struct mr_ref *ref, double *out, char **why)
{
	const struct kase *k = ctx;
	double *v;
	int n = values(k, ci, ref, &v);

	if (n > 0)
		*out = median(v, n);
	else
		*why = nodata(k, ci, ref);
	free(v);
	return n > 0 ? 0 : -1;
}

/* --- check --------------------------------------------------------------- */

static int
load_expected(struct results *R, struct kase *k, const char *exp)
{
	char *dir;
	int rc;

	dir = join(exp, k->name);
	k->claims_path = esprintf("%s.claims", dir);
	free(dir);
	rc = mr_claims_read(k->claims_path, &k->claims);
	if (rc == -1)
		return -1;
	k->has_claims = rc == 0;
	if (k->has_claims &&
	    mr_claims_check_keys(&k->claims, k->conf, k->ncfg) < 0)
		return -1;
	dir = join(exp, R->platform);
	k->bl_path = esprintf("%s/%s.tsv", dir, k->name);
	free(dir);
	rc = mr_baseline_read(k->bl_path, &k->bl);
	if (rc == -1)
		return -1;
	k->has_bl = rc == 0;
	return 0;
}

static const char *
plural(int n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

static void
print_totals(FILE *f, const char *name, const struct totals *t)
{
	fprintf(f, "%s: ", name);
	if (t->has_claims) {
		fprintf(f, "%d %s held, %d reproduces, %d regressed", t->held,
			plural(t->held, "claim", "claims"), t->reproduces, t->regressed);
		if (t->notrepro)
			fprintf(f, ", %d %s not reproduce", t->notrepro,
				plural(t->notrepro, "does", "do"));
		if (t->cskipped)
			fprintf(f, ", %d skipped", t->cskipped);
	} else {
		fputs("no claims", f);
	}
	if (t->has_bl) {
		fprintf(f, "; baseline %d held, %d regressed, %d improved",
			t->bheld, t->bregressed, t->bimproved);
		if (t->bmissing)
			fprintf(f, ", %d not measured", t->bmissing);
	} else {
		fputs("; no baseline", f);
	}
	fprintf(f, "; %d %s ok, %d failed", t->rok, plural(t->rok, "run", "runs"),
		t->rfailed);
	if (t->rskipped)
		fprintf(f, ", %d skipped", t->rskipped);
	fputc('\n', f);
}

static void
add_totals(struct totals *a, const struct totals *b)
{
	a->nclaims += b->nclaims;
	a->held += b->held;
	a->reproduces += b->reproduces;
	a->regressed += b->regressed;
	a->notrepro += b->notrepro;
	a->cskipped += b->cskipped;
	a->has_claims |= b->has_claims;
	a->has_bl |= b->has_bl;
	a->bheld += b->bheld;
	a->bregressed += b->bregressed;
	a->bimproved += b->bimproved;
	a->bmissing += b->bmissing;
	a->rok += b->rok;
	a->rfailed += b->rfailed;
	a->rskipped += b->rskipped;
}

#define INDENT "  "

static void
check_claims(FILE *f, const struct kase *k, int verbose, struct totals *t)
{
	struct mr_eval_data d = {
		.cfg = k->conf, .ncfg = k->ncfg, .value = value_cb,
		.ctx = (void *)k,
	};
	struct mr_claim_result *res;
	const char **verdict;
	int w = 0, vw = 0, i, j;

	if (!k->has_claims) {
		fprintf(f, INDENT "(no claims: %s does not exist)\n", k->claims_path);
		return;
	}
	/* Evaluate first: the columns are as wide as their widest entry. */
	res = ecalloc(k->claims.n + 1, sizeof *res);
	verdict = ecalloc(k->claims.n + 1, sizeof *verdict);
	for (i = 0; i < k->claims.n; i++) {
		const struct mr_claim *c = &k->claims.v[i];
		int holds = c->status == MR_HOLDS;

		mr_claim_eval(c, &d, &res[i]);
		t->nclaims++;
		switch (res[i].outcome) {
		case MR_CLAIM_TRUE:
			verdict[i] = holds ? "held" : "reproduces";
			*(holds ? &t->held : &t->reproduces) += 1;
			break;
		case MR_CLAIM_FALSE:
			verdict[i] = holds ? "regressed" : "does not reproduce";
			*(holds ? &t->regressed : &t->notrepro) += 1;
			break;
		case MR_CLAIM_NODATA:
			verdict[i] = "skipped";
			t->cskipped++;
			break;
		}
		if ((int)strlen(c->id) > w)
			w = (int)strlen(c->id);
		if (res[i].outcome != MR_CLAIM_NODATA && (int)strlen(verdict[i]) > vw)
			vw = (int)strlen(verdict[i]);
	}
	for (i = 0; i < k->claims.n; i++) {
		const struct mr_claim *c = &k->claims.v[i];

		if (res[i].outcome == MR_CLAIM_NODATA)
			fprintf(f, INDENT "claim  %-*s  skipped (%s)\n", w, c->id,
				res[i].detail);
		else
			fprintf(f, INDENT "claim  %-*s  %-*s  %s\n", w, c->id, vw,
				verdict[i], res[i].detail);
		fprintf(f, INDENT "       %-*s  \"%s\"\n", w, "", c->cite);
		if (verbose)
			for (j = 0; j < res[i].nlines; j++)
				fprintf(f, INDENT "       %-*s    %s\n", w, "",
					res[i].lines[j]);
		mr_claim_result_free(&res[i]);
	}
	free(res);
	free(verdict);
}

static void
check_runs(FILE *f, const struct results *R, const struct kase *k,
	   struct totals *t)
{
	int w = 0, i, j;

	for (i = 0; i < k->nrun; i++) {
		const struct run *r = &k->run[i];
		int n = (int)strlen(k->cfg[r->cfg].label);

		if (r->outcome != O_OK && r->outcome != O_SKIPPED)
			n += 5; /* " #123" */
		if (r->outcome != O_OK && n > w)
			w = n;
	}

	for (i = 0; i < k->nrun; i++) {
		const struct run *r = &k->run[i];
		char *name;

		if (r->outcome == O_OK) {
			t->rok++;
			continue;
		}
		if (r->outcome == O_SKIPPED) {
			t->rskipped++;
			continue;
		}
		t->rfailed++;
		name = esprintf("%s #%ld", k->cfg[r->cfg].label, r->repeat);
		fprintf(f, INDENT "%-6s  %-*s  failed (%s", "run", w, name,
			outcomes[r->outcome]);
		if (strcmp(r->detail, "-"))
			fprintf(f, ": %s", r->detail);
		fputc(')', f);
		if (r->log) {
			char *log = join(R->dir, r->log);

			fprintf(f, "; log %s", log);
			free(log);
		}
		fputc('\n', f);
		free(name);
	}
	for (i = 0; i < k->ncfg; i++) {
		const struct cfg *c = &k->cfg[i];

		if (!c->nskip)
			continue;
		for (j = 0; j < c->nrun; j++)
			if (k->run[c->run[j]].outcome == O_SKIPPED)
				break;
		fprintf(f, INDENT "%-6s  %-*s  skipped (%s)", "config", w, c->label,
			k->run[c->run[j]].detail);
		if (c->nskip < c->nrun)
			fprintf(f, " in %d of %d repeats", c->nskip, c->nrun);
		fputc('\n', f);
	}
}

static void
check_baseline(FILE *f, const struct results *R, const struct kase *k,
	       int verbose, struct totals *t)
{
	const struct mr_baseline *b = &k->bl;
	char *done = ecalloc(b->nrow + 1, 1);
	int *inbl = ecalloc(k->ncfg + 1, sizeof *inbl);
	int notrun = 0, notrun_cfgs = 0, w = 0, mw = 0, i, j;

	for (i = 0; i < k->ncfg; i++)
		if ((int)strlen(k->cfg[i].label) > w)
			w = (int)strlen(k->cfg[i].label);
	for (i = 0; i < b->nrow; i++) {
		char *ck = mr_bl_checkpoint(&b->row[i]);
		int n = (int)(strlen(mr_bl_metric(&b->row[i])) + 1 + strlen(ck));

		if (n > mw)
			mw = n;
		free(ck);
	}

	if (!k->has_bl) {
		fprintf(f, INDENT "no baseline for platform %s: comparing claims only\n",
			R->platform);
		free(done);
		free(inbl);
		return;
	}
	t->has_bl = 1;
	for (i = 0; i < b->nrow; i++) {
		const char *cstr = b->row[i].config;
		int ci = find_cfg(k, cstr);
		int held = 0, regressed = 0, improved = 0, missing = 0;
		struct strbuf lines = {0};

		if (done[i])
			continue;
		if (ci < 0 || k->cfg[ci].nok == 0) {
			/* Not run here (another profile, a skipped or failed
			 * config, reported above): nothing to compare. */
			for (j = i; j < b->nrow; j++) {
				if (!done[j] && !strcmp(b->row[j].config, cstr)) {
					done[j] = 1;
					notrun++;
				}
			}
			notrun_cfgs++;
			continue;
		}
		inbl[ci] = 1;
		sb_add(&lines, "");
		for (j = i; j < b->nrow; j++) {
			const struct mr_bl_row *row = &b->row[j];
			struct mr_ref ref = {0};
			char obs[48], med[48], tol[48], *ck, *what;
			const char *verdict;
			double *v, x;
			int n;

			if (done[j] || strcmp(row->config, cstr))
				continue;
			done[j] = 1;
			ref.ckpt = row->ckpt;
			ref.metric = row->metric;
			ref.checkpoint = row->checkpoint;
			ref.seq = row->seq;
			n = values(k, ci, &ref, &v);
			ck = mr_bl_checkpoint(row);
			what = row->checkpoint ? esprintf("%s@%s", mr_bl_metric(row), ck)
					       : estrdup(mr_bl_metric(row));
			free(ck);
			if (n == 0) {
				missing++;
				sb_printf(&lines, INDENT "          %-*s  not measured\n",
					  mw, what);
				free(v);
				free(what);
				continue;
			}
			x = median(v, n);
			free(v);
			if (x > row->median + row->tol) {
				verdict = "regressed";
				regressed++;
			} else if (x < row->median - row->tol) {
				verdict = "improved";
				improved++;
			} else {
				verdict = "held";
				held++;
			}
			if (verbose || strcmp(verdict, "held"))
				sb_printf(&lines,
					  INDENT "          %-*s  %-9s  observed %s, expected %s +/- %s\n",
					  mw, what, verdict, mr_fmt_num(obs, x),
					  mr_fmt_num(med, row->median),
					  mr_fmt_num(tol, row->tol));
			free(what);
		}
		fprintf(f, INDENT "%-8s  %-*s  %d held", "baseline", w,
			k->cfg[ci].label, held);
		if (regressed)
			fprintf(f, ", %d regressed", regressed);
		if (improved)
			fprintf(f, ", %d improved", improved);
		if (missing)
			fprintf(f, ", %d not measured", missing);
		fputc('\n', f);
		/* Held rows only when verbose; a regressed, improved or
		 * vanished figure always. */
		fputs(lines.s, f);
		sb_free(&lines);
		t->bheld += held;
		t->bregressed += regressed;
		t->bimproved += improved;
		t->bmissing += missing;
	}
	for (i = 0; i < k->ncfg; i++)
		if (!inbl[i] && k->cfg[i].nok > 0)
			fprintf(f, INDENT "%-8s  %-*s  not in baseline\n", "baseline", w,
				k->cfg[i].label);
	if (notrun)
		fprintf(f, INDENT "%-8s  %d %s of %d %s not run here: not compared\n",
			"baseline", notrun, plural(notrun, "row", "rows"),
			notrun_cfgs, plural(notrun_cfgs, "config", "configs"));
	free(done);
	free(inbl);
}

int
mr_check(const struct mr_cmp_opts *o)
{
	const char *exp = o->expected_dir ? o->expected_dir : "expected";
	FILE *f = o->out ? o->out : stdout;
	struct results R;
	struct totals all = {0};
	int *sel = NULL, nsel, i;

	if (load_results(&R, o->results_dir) < 0 ||
	    (nsel = select_cases(&R, o, &sel)) < 0)
		goto usage;
	if (R.nk == 0) {
		/* A runner that ran nothing must not pass. */
		char *path = join(R.dir, "runs.tsv");

		fprintf(f, "%s: no runs: nothing to check\n", path);
		free(path);
		free(sel);
		results_free(&R);
		return MR_FAILED;
	}
	/* Read every expectation before printing anything: bad input is an
	 * error, not half a table. */
	for (i = 0; i < nsel; i++)
		if (load_expected(&R, &R.k[sel[i]], exp) < 0)
			goto usage;
	for (i = 0; i < nsel; i++) {
		const struct kase *k = &R.k[sel[i]];
		struct totals t = {0};

		t.has_claims = k->has_claims;
		fprintf(f, "%s\n", k->name);
		check_claims(f, k, o->verbose, &t);
		check_runs(f, &R, k, &t);
		check_baseline(f, &R, k, o->verbose, &t);
		print_totals(f, k->name, &t);
		add_totals(&all, &t);
		if (i + 1 < nsel)
			fputc('\n', f);
	}
	if (nsel > 1) {
		fputc('\n', f);
		print_totals(f, "total", &all);
	}
	fflush(f);
	free(sel);
	results_free(&R);
	return all.regressed || all.bregressed || all.rfailed ? MR_FAILED : MR_OK;
usage:
	free(sel);
	results_free(&R);
	return MR_USAGE;
}

/* --- bless --------------------------------------------------------------- */

/* Add a row for ref at config ci of k to b when some ok run measured it. */
static int
bless_row(struct mr_baseline *b, const struct kase *k, int ci,
	  const struct mr_ref *ref)
{
	struct mr_bl_row row = {0};
	double *v;
	int n = values(k, ci, ref, &v);

	if (n > 0) {
		row.config = k->conf[ci].str;
		row.checkpoint = ref->checkpoint;
		row.seq = ref->seq;
		row.ckpt = ref->ckpt;
		row.metric = ref->metric;
		row.median = median(v, n); /* sorts v */
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

/* Rows of config ci; returns how many. */
static int
bless_config(struct mr_baseline *b, const struct kase *k, int ci)
{
	const struct cfg *c = &k->cfg[ci];
	const char **names = NULL;
	int nnames = 0, rows = 0, i, j, m;

	for (m = 0; mr_bless_run_metrics[m]; m++) {
		struct mr_ref ref = { .metric = mr_run_metric(mr_bless_run_metrics[m]) };

		rows += bless_row(b, k, ci, &ref);
	}
	/* Every checkpoint name of its ok runs, in order of appearance. */
	for (i = 0; i < c->nrun; i++) {
		const struct run *r = &k->run[c->run[i]];

		if (r->outcome != O_OK)
			continue;
		for (j = 0; j < r->nck; j++) {
			const char *name = k->ck[r->ck[j]].name;
			int l;

			for (l = 0; l < nnames; l++)
				if (!strcmp(names[l], name))
					break;
			if (l == nnames)
				*PUSH(names, nnames) = name;
		}
	}
	for (i = 0; i < nnames; i++) {
		for (m = 0; mr_bless_ckpt_metrics[m]; m++) {
			struct mr_ref ref = {
				.ckpt = 1,
				.metric = mr_ckpt_metric(mr_bless_ckpt_metrics[m]),
				.checkpoint = (char *)names[i],
			};

			rows += bless_row(b, k, ci, &ref);
		}
	}
	free(names);
	return rows;
}

int
mr_bless(const struct mr_cmp_opts *o)
{
	const char *exp = o->expected_dir ? o->expected_dir : "expected";
	FILE *f = o->out ? o->out : stdout;
	struct results R;
	char date[64], *dir = NULL, *env;
	time_t now = time(NULL);
	struct tm tm;
	int *sel = NULL, nsel, written = 0, failed = 0, i, j;

	if (load_results(&R, o->results_dir) < 0 ||
	    (nsel = select_cases(&R, o, &sel)) < 0) {
		free(sel);
		results_free(&R);
		return MR_USAGE;
	}
	/* SOURCE_DATE_EPOCH makes a blessing reproducible byte for byte. */
	if ((env = getenv("SOURCE_DATE_EPOCH")) && *env) {
		long long e;

		if (parse_ll(env, &e) == 0)
			now = (time_t)e;
	}
	gmtime_r(&now, &tm);
	strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
	dir = join(exp, R.platform);
	if ((i = mkdir_p(dir)) < 0) {
		errno = -i;
		weprintf("mkdir %s:", dir);
		free(dir);
		free(sel);
		results_free(&R);
		return MR_FAILED;
	}
	for (i = 0; i < nsel; i++) {
		const struct kase *k = &R.k[sel[i]];
		struct mr_baseline b = {0};
		char *path = esprintf("%s/%s.tsv", dir, k->name);
		int nconf = 0;

		mr_baseline_kv(&b, "case", k->name);
		mr_baseline_kv(&b, "blessed", date);
		mr_baseline_kv(&b, "results", R.dir);
		for (j = 0; j < R.nenv; j++)
			mr_baseline_kv(&b, R.envk[j], R.envv[j]);
		for (j = 0; j < k->ncfg; j++) {
			const struct cfg *c = &k->cfg[j];

			if (c->nok < c->nrun) {
				char *why = nodata(k, j, &(struct mr_ref){ .metric = 0 });

				/* nodata explains a config without any ok run;
				 * a partly failed one is said here. */
				if (c->nok > 0) {
					free(why);
					why = esprintf("%d of %d repeats not ok",
						       c->nrun - c->nok, c->nrun);
				}
				fprintf(f, "%s: left out %s: %s\n", k->name, c->label, why);
				free(why);
				continue;
			}
			if (bless_config(&b, k, j) > 0)
				nconf++;
		}
		if (b.nrow == 0) {
			fprintf(f, "%s: nothing to bless: no config ran ok in every repeat\n",
				k->name);
		} else if (mr_baseline_write(&b, path) < 0) {
			failed++;
		} else {
			fprintf(f, "%s: wrote %s (%d %s, %d rows)\n", k->name, path,
				nconf, plural(nconf, "config", "configs"), b.nrow);
			written++;
		}
		mr_baseline_free(&b);
		free(path);
	}
	fflush(f);
	free(dir);
	free(sel);
	results_free(&R);
	return written && !failed ? MR_OK : MR_FAILED;
}
