/* read: a results directory read back, strictly — see read.h. */
#include "results/read.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/safeio.h"
#include "core/tsv.h"
#include "core/util.h"

/* Append a zeroed element to array p of n elements, growing it by powers
 * of two; evaluates to a pointer to the new element. */
#define PUSH(p, n)                                                          \
	((((n) & ((n) - 1)) == 0                                            \
		  ? (void)((p) = erealloc((p), sizeof *(p) * ((n) ? 2 * (n) : 1))) \
		  : (void)0),                                               \
	 memset(&(p)[(n)], 0, sizeof *(p)), &(p)[(n)++])

char *
mr_rd_path(const char *dir, const char *name)
{
	return mr_sio_path(dir, name);
}

/* Safe as one path component: [A-Za-z0-9._+@-]+, not starting with '.'
 * ('@' from an allocator's version: jemalloc@5.2.1). */
static int
component_ok(const char *s)
{
	if (!*s || *s == '.')
		return 0;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			 "0123456789._+@-") == strlen(s);
}

void
mr_rd_free(struct mr_rd *R)
{
	int i, j;

	for (i = 0; i < R->nk; i++) {
		struct mr_rd_case *k = &R->k[i];

		for (j = 0; j < k->ncfg; j++) {
			mr_config_free(&k->conf[j]);
			free(k->cfg[j].label);
			free(k->cfg[j].run);
		}
		for (j = 0; j < k->nrun; j++) {
			free(k->run[j].detail);
			free(k->run[j].log);
			free(k->run[j].machine);
			free(k->run[j].ck);
		}
		for (j = 0; j < k->nck; j++)
			free(k->ck[j].name);
		free(k->conf);
		free(k->cfg);
		free(k->run);
		free(k->ck);
		free(k->name);
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

struct mr_rd_case *
mr_rd_case(const struct mr_rd *R, const char *name)
{
	int i;

	for (i = 0; i < R->nk; i++)
		if (!strcmp(R->k[i].name, name))
			return &R->k[i];
	return NULL;
}

int
mr_rd_cfg(const struct mr_rd_case *k, const char *str)
{
	int i;

	for (i = 0; i < k->ncfg; i++)
		if (!strcmp(k->conf[i].str, str))
			return i;
	return -1;
}

/* A relative path whose every component is component_ok: no "..", no
 * leading "/", nothing hidden. */
static int
inside_path(const char *p)
{
	char *copy = estrdup(p), *c, *save = NULL;
	int ok = *p && *p != '/' && !strstr(p, "//") && p[strlen(p) - 1] != '/';

	for (c = strtok_r(copy, "/", &save); ok && c; c = strtok_r(NULL, "/", &save))
		ok = component_ok(c);
	free(copy);
	return ok;
}

int
mr_rd_run_of(const struct mr_rd_case *k, int cfg, long repeat)
{
	int i;

	for (i = 0; i < k->cfg[cfg].nrun; i++)
		if (k->run[k->cfg[cfg].run[i]].repeat == repeat)
			return k->cfg[cfg].run[i];
	return -1;
}

/* Open a required TSV file of the results, through safeio.h (never a
 * symbolic link, only a regular file of at most cap bytes); 0 or -1
 * (printed). */
static int
open_results_file(struct mr_tsv *t, const struct mr_rd *R, const char *name,
		  off_t cap)
{
	int rc = mr_tsv_open_in(t, R->dir, name, cap);

	if (rc == -ENOENT) {
		char *path = mr_rd_path(R->dir, name);

		mr_errat(path, 0, 0, "no such file (is %s a results directory?)",
			 R->dir);
		free(path);
	}
	return rc < 0 ? -1 : 0;
}

/* Figures no run can have: every one is a size in KiB, a time in ms or a
 * count, so never negative; none beyond these (a size past the 64-bit
 * address space, a time of three years, a count of 10^15) is a
 * measurement. */
#define MAX_KB 18014398509481984.0 /* 2^54 KiB: 2^64 bytes */
#define MAX_MS 1e11
#define MAX_COUNT 1e15
#define MAX_NPROC 4194304.0 /* the kernel's PID_MAX_LIMIT */

int
mr_rd_metric_num(const struct mr_tsv *t, int col, int dash_ok, double *out)
{
	const char *name = t->cols[col];
	double max = MAX_COUNT;
	const char *unit = "";

	if (mr_tsv_num(t, col, dash_ok, out) < 0)
		return -1;
	if (!strcmp(name, mr_ckpt_metrics[MR_CK_TREE_NPROC])) {
		max = MAX_NPROC;
	} else if (mr_metric_unit(name) == MR_UNIT_KB) {
		max = MAX_KB;
		unit = " KiB";
	} else if (mr_metric_unit(name) == MR_UNIT_MS) {
		max = MAX_MS;
		unit = " ms";
	}
	if (!isnan(*out) && (*out < 0 || *out > max))
		return mr_tsv_err(t, col, "%s %s out of range (0..%.0f%s)", name,
				  mr_tsv_get(t, col), max, unit);
	return 0;
}

static int
load_env(struct mr_rd *R)
{
	struct mr_tsv t;
	int ck, cv, rc, i;

	if (open_results_file(&t, R, "env.tsv", MR_SIO_ENV_MAX) < 0)
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

/* The columns of runs.tsv in a file: col[] by enum mr_runs_col, -1 for
 * one it does not have. */
struct runs_cols {
	int col[MR_RUNS_NCOLS];
};

/* The figures, overlap, stopped_ms, detail and log of the current row of
 * t into r: 0, or -1 after printing path:line:col. */
static int
run_fields(const struct mr_tsv *t, const struct runs_cols *c, struct mr_rd_run *r)
{
	int clog = c->col[MR_RUNS_LOG], cover = c->col[MR_RUNS_OVERLAP];
	int cstop = c->col[MR_RUNS_STOPPED_MS], i;
	int cother = c->col[MR_RUNS_OTHER_CPU_MS], cmach = c->col[MR_RUNS_MACHINE];

	for (i = 0; i < MR_NRUN_METRICS; i++) {
		int mc = c->col[MR_RUNS_METRIC_COL(i)];

		if (mc < 0)
			r->m[i] = NAN;
		else if (mr_rd_metric_num(t, mc, 1, &r->m[i]) < 0)
			return -1;
	}
	if (cover >= 0 && strcmp(mr_tsv_get(t, cover), "-") != 0) {
		long long ov;

		if (mr_tsv_int(t, cover, 0, 1000000, &ov) < 0)
			return -1;
		r->overlap = (long)ov;
	}
	if (cstop >= 0 && strcmp(mr_tsv_get(t, cstop), "-") != 0) {
		long long st;

		if (mr_tsv_int(t, cstop, 0, 100000000000LL, &st) < 0)
			return -1;
		r->stopped_ms = (long)st;
	}
	r->other_cpu_ms = -1;
	if (cother >= 0 && strcmp(mr_tsv_get(t, cother), "-") != 0) {
		long long ms;

		if (mr_tsv_int(t, cother, 0, 2000000000LL, &ms) < 0)
			return -1;
		r->other_cpu_ms = (long)ms;
	}
	if (cmach >= 0 && strcmp(mr_tsv_get(t, cmach), "-") && *mr_tsv_get(t, cmach))
		r->machine = estrdup(mr_tsv_get(t, cmach));
	r->detail = estrdup(mr_tsv_get(t, c->col[MR_RUNS_DETAIL]));
	if (clog >= 0 && strcmp(mr_tsv_get(t, clog), "-") &&
	    *mr_tsv_get(t, clog)) {
		/* Results may come from elsewhere: a log is read (its
		 * tail goes into reports), so it must lie inside the
		 * results directory. */
		if (!inside_path(mr_tsv_get(t, clog)))
			return mr_tsv_err(t, clog, "log \"%s\" is not a path inside the results directory",
					  mr_tsv_get(t, clog));
		r->log = estrdup(mr_tsv_get(t, clog));
	}
	return 0;
}

static int
load_runs(struct mr_rd *R)
{
	/* The columns every runs.tsv has; the figures, log, overlap (not
	 * before -j) and stopped_ms (newer still) may be missing. */
	static const int req[] = {
		MR_RUNS_CASE, MR_RUNS_CONFIG, MR_RUNS_REPEAT, MR_RUNS_OUTCOME, MR_RUNS_DETAIL,
	};
	struct runs_cols cols;
	const int *col = cols.col;
	struct mr_tsv t;
	int rc, i;

	if (open_results_file(&t, R, "runs.tsv", MR_SIO_TSV_MAX) < 0)
		return -1;
	for (i = 0; i < MR_RUNS_NCOLS; i++)
		cols.col[i] = mr_tsv_col(&t, mr_runs_cols[i]);
	for (i = 0; i < (int)(sizeof req / sizeof *req); i++)
		if (mr_tsv_need(&t, mr_runs_cols[req[i]]) < 0)
			goto fail;
	while ((rc = mr_tsv_next(&t)) > 0) {
		const char *name = mr_tsv_get(&t, col[MR_RUNS_CASE]);
		const char *cstr = mr_tsv_get(&t, col[MR_RUNS_CONFIG]);
		const char *oc = mr_tsv_get(&t, col[MR_RUNS_OUTCOME]);
		struct mr_rd_case *k;
		struct mr_rd_run *r;
		long long repeat;
		int ci, o, prev;

		if (!component_ok(name)) {
			mr_tsv_err(&t, col[MR_RUNS_CASE], "bad case name \"%s\"", name);
			goto fail;
		}
		if (mr_tsv_int(&t, col[MR_RUNS_REPEAT], 1, 1000000, &repeat) < 0)
			goto fail;
		o = mr_outcome(oc);
		if (o < 0) {
			mr_tsv_err(&t, col[MR_RUNS_OUTCOME], "unknown outcome \"%s\" (%s)", oc,
				   mr_outcome_list());
			goto fail;
		}
		k = mr_rd_case(R, name);
		if (!k) {
			k = PUSH(R->k, R->nk);
			k->name = estrdup(name);
		}
		ci = mr_rd_cfg(k, cstr);
		if (ci < 0) {
			struct mr_config c;
			const char *why;

			if (mr_config_parse(cstr, &c, &why) < 0) {
				mr_tsv_err(&t, col[MR_RUNS_CONFIG], "bad config \"%s\": %s",
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
		prev = mr_rd_run_of(k, ci, (long)repeat);
		if (prev >= 0) {
			mr_tsv_err(&t, col[MR_RUNS_REPEAT],
				   "run of %s, %s, repeat %lld again (first on line %ld)",
				   name, cstr, repeat, k->run[prev].line);
			goto fail;
		}
		r = PUSH(k->run, k->nrun);
		r->cfg = ci;
		r->repeat = (long)repeat;
		r->outcome = (enum mr_rd_outcome)o;
		r->line = t.line;
		if (run_fields(&t, &cols, r) < 0)
			goto fail;
		*PUSH(k->cfg[ci].run, k->cfg[ci].nrun) = k->nrun - 1;
		if (o == MR_RD_OK)
			k->cfg[ci].nok++;
		else if (o == MR_RD_SKIPPED)
			k->cfg[ci].nskip++;
		else
			k->cfg[ci].nfail++;
	}
	if (rc < 0)
		goto fail;
	mr_tsv_close(&t);
	for (i = 0; i < R->nk; i++) {
		struct mr_rd_case *k = &R->k[i];
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
load_checkpoints(struct mr_rd *R)
{
	/* The columns every checkpoints.tsv has: the first ones, up to the
	 * metrics (which may be missing). */
	enum { C_CASE = MR_CKPTS_CASE, C_CONFIG = MR_CKPTS_CONFIG, C_REPEAT = MR_CKPTS_REPEAT,
	       C_CKPT = MR_CKPTS_CHECKPOINT, C_SEQ = MR_CKPTS_SEQ, NREQ = MR_CKPTS_METRIC_COL(0) };
	struct mr_tsv t;
	int col[NREQ], mcol[MR_NCKPT_METRICS], rc, i;

	if (open_results_file(&t, R, "checkpoints.tsv", MR_SIO_TSV_MAX) < 0)
		return -1;
	for (i = 0; i < NREQ; i++)
		if ((col[i] = mr_tsv_need(&t, mr_ckpts_cols[i])) < 0)
			goto fail;
	for (i = 0; i < MR_NCKPT_METRICS; i++)
		mcol[i] = mr_tsv_col(&t, mr_ckpt_metrics[i]);
	while ((rc = mr_tsv_next(&t)) > 0) {
		const char *name = mr_tsv_get(&t, col[C_CKPT]);
		struct mr_rd_ck row;
		struct mr_rd_case *k;
		struct mr_rd_run *r;
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
			else if (mr_rd_metric_num(&t, mcol[i], 1, &row.m[i]) < 0)
				goto fail;
		}
		/* A record of a run with no row in runs.tsv belongs to a run
		 * that was interrupted: it has no outcome, so it is not used. */
		k = mr_rd_case(R, mr_tsv_get(&t, col[C_CASE]));
		if (!k || (ci = mr_rd_cfg(k, mr_tsv_get(&t, col[C_CONFIG]))) < 0 ||
		    (ri = mr_rd_run_of(k, ci, (long)repeat)) < 0)
			continue;
		r = &k->run[ri];
		for (i = 0; i < r->nck; i++) {
			const struct mr_rd_ck *c = &k->ck[r->ck[i]];

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

int
mr_rd_load(struct mr_rd *R, const char *dir)
{
	memset(R, 0, sizeof *R);
	R->dir = estrdup(dir);
	if (load_env(R) < 0 || load_runs(R) < 0 || load_checkpoints(R) < 0)
		return -1;
	return 0;
}

int
mr_rd_select(const struct mr_rd *R, const char *const *names, int **sel)
{
	int n = 0, i, j;

	*sel = ecalloc(R->nk + 1, sizeof **sel);
	if (!names || !names[0]) {
		for (i = 0; i < R->nk; i++)
			(*sel)[n++] = i;
		return n;
	}
	for (i = 0; names[i]; i++) {
		struct mr_rd_case *k = mr_rd_case(R, names[i]);
		int idx;

		if (!k) {
			char *path = mr_rd_path(R->dir, "runs.tsv");

			mr_errat(path, 0, 0, "no runs of case %s", names[i]);
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

const char *
mr_rd_env(const struct mr_rd *R, const char *key)
{
	int i;

	for (i = 0; i < R->nenv; i++)
		if (!strcmp(R->envk[i], key))
			return R->envv[i];
	return NULL;
}
