/* read: a results directory read back, strictly — see read.h. */
#include "results/read.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/safeio.h"
#include "core/tsv.h"
#include "core/util.h"
#include "proc/self.h"

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

/* The detail of every run that has none: one copy, not one a row. */
static char nodetail[] = "-";

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
			if (k->run[j].detail != nodetail)
				free(k->run[j].detail);
			free(k->run[j].log);
			free(k->run[j].machine);
			free(k->run[j].ck);
		}
		for (j = 0; j < k->nckname; j++)
			free(k->ckname[j]);
		free(k->ckname);
		mr_hash_free(&k->cknh);
		free(k->conf);
		free(k->cfg);
		free(k->run);
		free(k->ck);
		free(k->name);
		mr_hash_free(&k->cfgh);
		mr_hash_free(&k->runh);
	}
	for (i = 0; i < R->nenv; i++) {
		free(R->envk[i]);
		free(R->envv[i]);
	}
	free(R->envk);
	free(R->envv);
	free(R->k);
	free(R->dir);
	mr_hash_free(&R->kh);
	memset(R, 0, sizeof *R);
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

/* Whether the runner was told to stop (SIGINT, SIGTERM, SIGHUP: proc/self.h)
 * while reading t: then "PATH: interrupted by SIGINT" is printed, and the
 * reading stops (main exits 128 + the signal). */
static int
interrupted(const struct mr_tsv *t)
{
	const char *abbrev;

	if (!mr_spawn_interrupted)
		return 0;
	abbrev = sigabbrev_np(mr_spawn_interrupted);
	weprintf("%s: interrupted by SIG%s while reading it", t->path, abbrev ? abbrev : "?");
	return 1;
}

struct env_key {
	const struct mr_rd *R;
	const char *key;
};

static int
env_eq(const void *ctx, int i)
{
	const struct env_key *e = ctx;

	return !strcmp(e->R->envk[i], e->key);
}

/* One env.tsv row (key, value: columns ck, cv of t) into R, keys hashed
 * in *h.  0, or -1 after printing path:line:col. */
static int
env_row(struct mr_rd *R, const struct mr_tsv *t, int ck, int cv, struct mr_hash *h)
{
	const char *key = mr_tsv_get(t, ck), *val = mr_tsv_get(t, cv);
	struct env_key e = { R, key };
	uint64_t hv = mr_hash_str(MR_HASH0, key);
	int n = R->nenv;

	if (mr_hash_find(h, hv, env_eq, &e) >= 0)
		return mr_tsv_err(t, ck, "key %s again", key);
	if (!strcmp(key, MR_ENVK_PLATFORM) && !component_ok(val))
		return mr_tsv_err(t, cv, "platform \"%s\" is not usable as a directory name", val);
	if (!strcmp(key, MR_ENVK_REPEAT)) {
		long long rep;

		if (mr_tsv_int(t, cv, 1, 1000000, &rep) < 0)
			return -1;
		R->repeat = (long)rep;
	}
	PUSH(R->envk, n);
	n = R->nenv;
	PUSH(R->envv, n);
	R->envk[R->nenv] = estrdup(key);
	R->envv[R->nenv] = estrdup(val);
	if (!strcmp(key, MR_ENVK_PLATFORM))
		R->platform = R->envv[R->nenv];
	mr_hash_add(h, hv, R->nenv++);
	return 0;
}

static int
load_env(struct mr_rd *R)
{
	struct mr_hash h = { 0 };
	struct mr_tsv t;
	int ck, cv, rc;

	if (open_results_file(&t, R, MR_FILE_ENV, MR_SIO_ENV_MAX) < 0)
		return -1;
	if ((ck = mr_tsv_need(&t, "key")) < 0 || (cv = mr_tsv_need(&t, "value")) < 0)
		goto fail;
	while ((rc = mr_tsv_next(&t)) > 0)
		if (interrupted(&t) || env_row(R, &t, ck, cv, &h) < 0)
			goto fail;
	if (rc < 0)
		goto fail;
	if (!R->platform) {
		mr_errat(t.path, 0, 0, "no platform key");
		goto fail;
	}
	mr_hash_free(&h);
	mr_tsv_close(&t);
	return 0;
fail:
	mr_hash_free(&h);
	mr_tsv_close(&t);
	return -1;
}

/* The columns of runs.tsv in a file: col[] by enum mr_runs_col, -1 for
 * one it does not have. */
struct runs_cols {
	int col[MR_RUNS_NCOLS];
};

/* The accel column of the current row of t into *a: host, tcg or kvm
 * (a run that never started: `-`, host); 0, or -1 after printing
 * path:line:col. */
static int
run_accel(const struct mr_tsv *t, int col, enum mr_rd_accel *a)
{
	static const char *const words[] = { "host", "tcg", "kvm" };
	const char *s = mr_tsv_get(t, col);
	int i;

	*a = MR_RD_HOST;
	if (strcmp(s, "-") == 0)
		return 0;
	for (i = 0; i < 3; i++)
		if (strcmp(s, words[i]) == 0) {
			*a = (enum mr_rd_accel)i;
			return 0;
		}
	return mr_tsv_err(t, col, "unknown accel \"%s\" (host, tcg or kvm)", s);
}

/* The figures, overlap, stopped_ms, accel, detail and log of the current row of
 * t into r: 0, or -1 after printing path:line:col. */
static int
run_fields(const struct mr_tsv *t, const struct runs_cols *c, struct mr_rd_run *r)
{
	int clog = c->col[MR_RUNS_LOG], cover = c->col[MR_RUNS_OVERLAP];
	int cstop = c->col[MR_RUNS_STOPPED_MS], i;
	int cother = c->col[MR_RUNS_OTHER_CPU_MS], cmach = c->col[MR_RUNS_MACHINE];
	int caccel = c->col[MR_RUNS_ACCEL];

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
	if (caccel >= 0 && run_accel(t, caccel, &r->accel) < 0)
		return -1;
	r->detail = strcmp(mr_tsv_get(t, c->col[MR_RUNS_DETAIL]), "-")
		    ? estrdup(mr_tsv_get(t, c->col[MR_RUNS_DETAIL])) : nodetail;
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

/* The index of case name in R, added when new. */
static struct mr_rd_case *
case_of(struct mr_rd *R, const char *name)
{
	struct mr_rd_case *k = mr_rd_case(R, name);

	if (!k) {
		k = PUSH(R->k, R->nk);
		k->name = estrdup(name);
		mr_rd_index_case(R, R->nk - 1);
	}
	return k;
}

/* The index of config cstr (column col of t) in k, added when new: -1
 * after printing path:line:col when it is not canonical. */
static int
cfg_of(struct mr_rd_case *k, const struct mr_tsv *t, int col, const char *cstr)
{
	int ci = mr_rd_cfg(k, cstr);
	struct mr_config c;
	const char *why;

	if (ci >= 0)
		return ci;
	if (mr_config_parse(cstr, &c, &why) < 0)
		return mr_tsv_err(t, col, "bad config \"%s\": %s", cstr, why);
	/* conf[] and cfg[] are parallel, counted by ncfg. */
	ci = k->ncfg;
	*PUSH(k->conf, ci) = c;
	ci = k->ncfg;
	PUSH(k->cfg, ci);
	mr_rd_index_cfg(k, k->ncfg);
	return k->ncfg++;
}

/* The current row of runs.tsv (t, its columns c) into R.  0, or -1
 * after printing path:line:col. */
static int
run_row(struct mr_rd *R, const struct mr_tsv *t, const struct runs_cols *c)
{
	const int *col = c->col;
	const char *name = mr_tsv_get(t, col[MR_RUNS_CASE]);
	const char *cstr = mr_tsv_get(t, col[MR_RUNS_CONFIG]);
	const char *oc = mr_tsv_get(t, col[MR_RUNS_OUTCOME]);
	struct mr_rd_case *k;
	struct mr_rd_run *r;
	long long repeat;
	int ci, o, prev;

	if (!component_ok(name))
		return mr_tsv_err(t, col[MR_RUNS_CASE], "bad case name \"%s\"", name);
	if (mr_tsv_int(t, col[MR_RUNS_REPEAT], 1, 1000000, &repeat) < 0)
		return -1;
	/* env.tsv says how many repeats the run made: a row beyond them
	 * was not measured by it (and would weigh in every median) */
	if (R->repeat && repeat > R->repeat)
		return mr_tsv_err(t, col[MR_RUNS_REPEAT],
				  "repeat %lld of %s, %s beyond " MR_FILE_ENV "'s repeat %ld", repeat,
				  name, cstr, R->repeat);
	o = mr_outcome(oc);
	if (o < 0)
		return mr_tsv_err(t, col[MR_RUNS_OUTCOME], "unknown outcome \"%s\" (%s)", oc,
				  mr_outcome_list());
	k = case_of(R, name);
	if ((ci = cfg_of(k, t, col[MR_RUNS_CONFIG], cstr)) < 0)
		return -1;
	prev = mr_rd_run_of(k, ci, (long)repeat);
	if (prev >= 0)
		return mr_tsv_err(t, col[MR_RUNS_REPEAT],
				  "run of %s, %s, repeat %lld again (first on line %ld)",
				  name, cstr, repeat, k->run[prev].line);
	r = PUSH(k->run, k->nrun);
	r->cfg = ci;
	r->repeat = (long)repeat;
	r->outcome = (enum mr_rd_outcome)o;
	r->line = t->line;
	mr_rd_index_run(k, k->nrun - 1);
	if (run_fields(t, c, r) < 0)
		return -1;
	*PUSH(k->cfg[ci].run, k->cfg[ci].nrun) = k->nrun - 1;
	if (o == MR_RD_OK)
		k->cfg[ci].nok++;
	else if (o == MR_RD_SKIPPED)
		k->cfg[ci].nskip++;
	else
		k->cfg[ci].nfail++;
	return 0;
}

/* The short labels of every case's configs: the axes of a case found
 * once, not once per config. */
static void
labels(struct mr_rd *R)
{
	int i, j;

	for (i = 0; i < R->nk; i++) {
		struct mr_rd_case *k = &R->k[i];
		struct mr_axis *ax;
		int nax = mr_config_axes(k->conf, k->ncfg, &ax);

		for (j = 0; j < k->ncfg; j++)
			k->cfg[j].label = mr_config_label_of(&k->conf[j], ax, nax);
		mr_config_axes_free(ax, nax);
	}
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
	struct mr_tsv t;
	int rc, i;

	if (open_results_file(&t, R, MR_FILE_RUNS, MR_SIO_TSV_MAX) < 0)
		return -1;
	for (i = 0; i < MR_RUNS_NCOLS; i++)
		cols.col[i] = mr_tsv_col(&t, mr_runs_cols[i]);
	for (i = 0; i < (int)(sizeof req / sizeof *req); i++)
		if (mr_tsv_need(&t, mr_runs_cols[req[i]]) < 0)
			goto fail;
	while ((rc = mr_tsv_next(&t)) > 0)
		if (interrupted(&t) || run_row(R, &t, &cols) < 0)
			goto fail;
	if (rc < 0)
		goto fail;
	mr_tsv_close(&t);
	labels(R);
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

/* A checkpoint row of a run: (case, run, name, seq), hashed across the
 * cases (the case is in the hash; eq looks in the case's own rows). */
struct ck_key {
	const struct mr_rd_case *k;
	int run;
	const char *name;
	long seq;
};

static int
ck_eq(const void *ctx, int i)
{
	const struct ck_key *c = ctx;
	const struct mr_rd_ck *row = &c->k->ck[i];

	return row->run == c->run && row->seq == c->seq && !strcmp(row->name, c->name);
}

static int
ckname_eq(const void *ctx, int i)
{
	const struct ck_key *c = ctx;

	return !strcmp(c->k->ckname[i], c->name);
}

/* k's one copy of the checkpoint name of key. */
static char *
ckname_of(struct mr_rd_case *k, const struct ck_key *key)
{
	uint64_t hv = mr_hash_str(MR_HASH0, key->name);
	int i = mr_hash_find(&k->cknh, hv, ckname_eq, key);

	if (i < 0) {
		i = k->nckname;
		*PUSH(k->ckname, k->nckname) = estrdup(key->name);
		mr_hash_add(&k->cknh, hv, i);
	}
	return k->ckname[i];
}

/* The current row of checkpoints.tsv (t; col: its first columns, mcol:
 * its metrics') into R, its key hashed in *h.  0, or -1 after printing
 * path:line:col. */
static int
ck_row(struct mr_rd *R, const struct mr_tsv *t, const int *col, const int *mcol,
       struct mr_hash *h)
{
	const char *name = mr_tsv_get(t, col[MR_CKPTS_CHECKPOINT]);
	struct mr_rd_ck row = { 0 };
	struct mr_rd_case *k;
	struct ck_key key;
	long long repeat, seq;
	uint64_t hv;
	int ci, ri, i;

	if (mr_tsv_int(t, col[MR_CKPTS_REPEAT], 1, 1000000, &repeat) < 0 ||
	    mr_tsv_int(t, col[MR_CKPTS_SEQ], 1, 1000000000, &seq) < 0)
		return -1;
	if (!ckname_ok(name))
		return mr_tsv_err(t, col[MR_CKPTS_CHECKPOINT], "bad checkpoint name \"%s\"", name);
	for (i = 0; i < MR_NCKPT_METRICS; i++) {
		if (mcol[i] < 0)
			row.m[i] = NAN;
		else if (mr_rd_metric_num(t, mcol[i], 1, &row.m[i]) < 0)
			return -1;
	}
	/* A record of a run with no row in runs.tsv belongs to a run that
	 * was interrupted: it has no outcome, so it is not used. */
	k = mr_rd_case(R, mr_tsv_get(t, col[MR_CKPTS_CASE]));
	if (!k || (ci = mr_rd_cfg(k, mr_tsv_get(t, col[MR_CKPTS_CONFIG]))) < 0 ||
	    (ri = mr_rd_run_of(k, ci, (long)repeat)) < 0)
		return 0;
	key = (struct ck_key){ k, ri, name, (long)seq };
	hv = mr_hash_num(mr_hash_num(mr_hash_str(MR_HASH0, name), (uint64_t)(k - R->k)),
			 (uint64_t)ri);
	hv = mr_hash_num(hv, (uint64_t)seq);
	if (mr_hash_find(h, hv, ck_eq, &key) >= 0)
		return mr_tsv_err(t, col[MR_CKPTS_SEQ], "checkpoint %s #%lld of this run again",
				  name, seq);
	row.name = ckname_of(k, &key);
	row.seq = (long)seq;
	row.run = ri;
	*PUSH(k->ck, k->nck) = row;
	*PUSH(k->run[ri].ck, k->run[ri].nck) = k->nck - 1;
	mr_hash_add(h, hv, k->nck - 1);
	return 0;
}

static int
load_checkpoints(struct mr_rd *R)
{
	/* The columns every checkpoints.tsv has: the first ones, up to the
	 * metrics (which may be missing). */
	enum { NREQ = MR_CKPTS_METRIC_COL(0) };
	struct mr_hash h = { 0 };
	struct mr_tsv t;
	int col[NREQ], mcol[MR_NCKPT_METRICS], rc = -1, i;

	if (open_results_file(&t, R, MR_FILE_CKPTS, MR_SIO_TSV_MAX) < 0)
		return -1;
	for (i = 0; i < NREQ; i++)
		if ((col[i] = mr_tsv_need(&t, mr_ckpts_cols[i])) < 0)
			goto out;
	for (i = 0; i < MR_NCKPT_METRICS; i++)
		mcol[i] = mr_tsv_col(&t, mr_ckpt_metrics[i]);
	while ((rc = mr_tsv_next(&t)) > 0)
		if (interrupted(&t) || ck_row(R, &t, col, mcol, &h) < 0) {
			rc = -1;
			break;
		}
out:
	mr_hash_free(&h);
	mr_tsv_close(&t);
	return rc < 0 ? -1 : 0;
}

int
mr_rd_load(struct mr_rd *R, const char *dir)
{
	memset(R, 0, sizeof *R);
	R->dir = estrdup(dir);
	if (load_env(R) < 0 || load_runs(R) < 0 || load_checkpoints(R) < 0)
		return -1;
	mr_rd_share(R);
	return 0;
}
