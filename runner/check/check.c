#include "check/check.h"

#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "check/baseline.h"
#include "check/values.h"
#include "proc/caseload.h"
#include "check/casetab.h"
#include "proto/cases.h"
#include "check/claims.h"
#include "check/upgrade.h"
#include "core/version.h"
#include "results/read.h"
#include "proc/self.h"
#include "check/stats.h"
#include "core/hash.h"
#include "core/util.h"
#include "proto/schema.h"

/* The value of a reference at config ci: the median over its ok runs. */
static int
value_cb(void *ctx, int ci, const struct mr_ref *ref, double *out, char **why)
{
	const struct mr_rd_case *k = ctx;
	double *v;
	int n = mr_rd_values(k, ci, ref, &v);

	if (n > 0)
		*out = mr_st_median(v, n);
	else
		*why = mr_rd_nodata(k, ci, ref);
	free(v);
	return n > 0 ? 0 : -1;
}

/* The host's version of allocator name, or of the libc: the leading
 * version of env.tsv's allocator.NAME.version, or of libc. */
static const char *
host_version(void *ctx, const char *name, char *buf, size_t n)
{
	const struct mr_rd *R = ctx;
	char *key;
	const char *v;

	if (!strcmp(name, MR_KEY_LIBC))
		return mr_version_lead(mr_rd_env(R, MR_ENVK_LIBC), buf, n);
	if (!strcmp(name, "kernel"))
		return mr_version_lead(mr_rd_env(R, MR_ENVK_KERNEL), buf, n);
	if (!strcmp(name, "thp") || !strncmp(name, "thp@kernel=", 11)) {
		int g = name[3] ? mr_rd_guest(R, name + 11) : 0;
		const char *v = g ? mr_rd_guest_env(R, g, MR_GUESTK_THP) : name[3] ? NULL : mr_rd_env(R, MR_ENVK_THP);

		if (!v || strlen(v) >= n)
			return NULL;
		return strcpy(buf, v);
	}
	if (!strncmp(name, "kernel=", 7)) {
		int g = mr_rd_guest(R, name + 7);
		const char *pkg = g ? mr_rd_guest_env(R, g, MR_GUESTK_PACKAGE) : NULL;

		/* Debian's version (5.10.223), not its ABI's (5.10.0-32) */
		if (pkg && strchr(pkg, ' ') && mr_version_lead(strchr(pkg, ' '), buf, n))
			return buf;
		return g ? mr_version_lead(mr_rd_guest_env(R, g, MR_GUESTK_UNAME), buf, n) : NULL;
	}
	key = esprintf(MR_ENVK_ALLOC_VERSION, name);
	v = mr_rd_env(R, key);
	free(key);
	return mr_version_lead(v, buf, n);
}

/* Whether the runner was told to stop (SIGINT, SIGTERM, SIGHUP: run/self.h)
 * while evaluating the results in dir: then "DIR: interrupted by SIGINT
 * while evaluating it" is printed, and the evaluation stops (main exits
 * 128 + the signal).  Checked at every claim, combination, run and
 * baseline row: a million rows' evaluation stops within one of them. */
static int
stopped(const char *dir)
{
	const char *abbrev;

	if (!mr_spawn_interrupted)
		return 0;
	abbrev = sigabbrev_np(mr_spawn_interrupted);
	weprintf("%s: interrupted by SIG%s while evaluating it", dir, abbrev ? abbrev : "?");
	return 1;
}

/* --- check --------------------------------------------------------------- */

/* What the expected directory says about one case. */
struct expect {
	const struct mr_claims *claims; /* the table's */
	struct mr_baseline bl;
	struct mr_baseline *gbl; /* nplat: each guest's (docs/kernels.md) */
	int *has_gbl;
	const char **gfrag;      /* nplat: its pairs (into the results' env) */
	int nplat;
};

/* Check the checkpoints the claims name against those the case's
 * --describe declares (the results alone cannot say: a checkpoint no run
 * recorded may be one the case reaches only with other parameters, as
 * fiber-stacks' "worked" only with work_mb > 0).  A case whose binary is
 * not in cases_dir (results from elsewhere, a case no longer built) or
 * whose --describe fails is not checked: its claims are evaluated as
 * they are, and a checkpoint no run recorded skips them with
 * "no checkpoint NAME recorded".  Returns 0 or -1 (printed). */
static int
check_ckpts(const struct mr_claims *cs, const struct mr_figs *fs, struct mr_casetab *tab,
	    const char *name)
{
	const struct mr_cases_desc *desc;
	const char **names;
	int i, j, any = 0, rc = 0;

	for (i = 0; i < cs->n && !any; i++)
		for (j = 0; j < cs->v[i].nref && !any; j++)
			any = cs->v[i].ref[j].checkpoint != NULL;
	any |= fs->n > 0 || fs->key_checkpoint;
	/* the table takes no name that is a path out of cases_dir (the
	 * name comes from runs.tsv) */
	if (!any || !(desc = mr_casetab_desc(tab, name, NULL, NULL)))
		return 0;
	names = ecalloc((size_t)desc->nckpts + 1, sizeof *names);
	for (i = 0; i < desc->nckpts; i++)
		names[i] = desc->ckpts[i].name;
	if (mr_claims_check_ckpts(cs, name, names, desc->nckpts) < 0 ||
	    mr_figs_check(fs, NULL, 0, names, desc->nckpts) < 0)
		rc = -1;
	free(names);
	return rc;
}

static int load_guests(const struct mr_rd *R, const struct mr_rd_case *k, const char *exp,
		       struct expect *e);

static int
load_expected(const struct mr_rd *R, const struct mr_rd_case *k,
	      const char *exp, struct mr_casetab *tab, struct mr_vd_case *vk,
	      struct expect *e)
{
	char *dir;
	int rc;

	dir = mr_rd_path(exp, k->name);
	vk->claims_path = esprintf("%s.claims", dir);
	free(dir);
	rc = mr_casetab_claims(tab, k->name, &e->claims);
	if (rc == -1)
		return -1;
	vk->has_claims = rc == 0;
	if (vk->has_claims && e->claims->path) { /* another file (--claims) */
		free(vk->claims_path);
		vk->claims_path = estrdup(e->claims->path);
	}
	if ((rc = mr_figs_load(exp, k->name, &vk->figs)) < 0)
		return -1;
	vk->has_figs = rc == 0;
	if ((vk->has_claims && mr_claims_check_keys(e->claims, k->conf, k->ncfg) < 0) ||
	    mr_figs_check(&vk->figs, k->conf, k->ncfg, NULL, 0) < 0 ||
	    check_ckpts(e->claims, &vk->figs, tab, k->name) < 0)
		return -1;
	dir = mr_rd_path(exp, R->platform);
	vk->bl_path = esprintf("%s/%s.tsv", dir, k->name);
	free(dir);
	rc = mr_baseline_read(vk->bl_path, &e->bl);
	if (rc == -1)
		return -1;
	vk->has_bl = rc == 0;
	return load_guests(R, k, exp, e);
}

/* Each guest's baseline of case k: expected/<its platform>/<case>.tsv. */
static int
load_guests(const struct mr_rd *R, const struct mr_rd_case *k, const char *exp,
	    struct expect *e)
{
	struct mr_rd_plat *plat;
	int i, rc = 0;

	e->nplat = mr_rd_guest_plats(R, &plat);
	e->gbl = ecalloc(e->nplat + 1, sizeof *e->gbl);
	e->has_gbl = ecalloc(e->nplat + 1, sizeof *e->has_gbl);
	e->gfrag = ecalloc(e->nplat + 1, sizeof *e->gfrag);
	for (i = 0; rc == 0 && i < e->nplat; i++) {
		char *dir, *path;

		e->gfrag[i] = plat[i].frag;
		if (!plat[i].platform)
			continue;
		dir = mr_rd_path(exp, plat[i].platform);
		path = esprintf("%s/%s.tsv", dir, k->name);
		rc = mr_baseline_read(path, &e->gbl[i]);
		e->has_gbl[i] = rc == 0;
		rc = rc == -1 ? -1 : 0;
		free(path);
		free(dir);
	}
	free(plat);
	return rc;
}

static void
eval_claims(struct mr_vd_case *vk, const struct mr_rd *R,
	    const struct mr_rd_case *k, const struct mr_claims *cs)
{
	struct mr_config_ver *ver = mr_config_vers(k->conf, k->ncfg, host_version,
						   (void *)R);
	struct mr_eval_data d = {
		.cfg = k->conf, .ncfg = k->ncfg, .value = value_cb,
		.ctx = (void *)k, .thp = mr_rd_env(R, MR_ENVK_THP), .ver = ver,
	};
	struct mr_vd_totals *t = &vk->t;
	int i, j;

	vk->ncol = mr_upgrade_cols(k->conf, ver, k->ncfg, 0, &vk->col);
	for (i = 0; vk->has_claims && i < cs->n && !mr_spawn_interrupted; i++) {
		const struct mr_claim *c = &cs->v[i];
		int holds = c->status == MR_HOLDS;
		struct mr_claim_result res;
		enum mr_vd_word w = MR_VD_SKIPPED;
		struct mr_vd *v;

		mr_claim_eval(c, &d, &res);
		if (mr_spawn_interrupted) {
			/* cut short: mr_check_eval says so and stops */
			mr_claim_result_free(&res);
			break;
		}
		t->nclaims++;
		switch (res.outcome) {
		case MR_CLAIM_TRUE:
			w = holds ? MR_VD_HELD : MR_VD_REPRODUCES;
			*(holds ? &t->held : &t->reproduces) += 1;
			break;
		case MR_CLAIM_FALSE:
			w = holds ? MR_VD_REGRESSED : MR_VD_NOTREPRO;
			*(holds ? &t->regressed : &t->notrepro) += 1;
			break;
		case MR_CLAIM_NODATA:
			t->cskipped++;
			break;
		case MR_CLAIM_UNDEFINED:
			w = MR_VD_UNDEFINED;
			t->cundefined++;
			break;
		}
		v = mr_vd_add(vk, MR_VD_CLAIM, w);
		v->id = estrdup(c->id);
		v->holds = holds;
		v->cite = estrdup(c->cite);
		v->line = c->line;
		if (vk->ncol) {
			v->cells = ecalloc(vk->ncol, sizeof *v->cells);
			for (j = 0; j < vk->ncol; j++)
				v->cells[j] = (int)mr_upgrade_cell(&res, c->nref, holds,
								   k->conf, &vk->col[j]);
		}
		if (c->since_name) {
			v->since = esprintf(strcmp(c->since_name, MR_KEY_KERNEL) ? "%s@%s" : "%s %s",
					    c->since_name, c->since_version);
			v->news = mr_upgrade_since(c, &res, k->conf, ver, k->ncfg,
						   &v->since_detail);
		}
		/* the result's strings change hands */
		v->detail = res.detail;
		v->words = res.words;
		res.words = NULL;
		v->lines = res.lines;
		v->nlines = res.nlines;
		res.detail = NULL;
		res.lines = NULL;
		res.nlines = 0;
		mr_claim_result_free(&res);
	}
	mr_config_vers_free(ver, k->ncfg);
}

/* The sum of the wall_ms of config ci's runs that measured it. */
static double
cfg_wall_ms(const struct mr_rd_case *k, int ci)
{
	const struct mr_rd_cfg *c = &k->cfg[ci];
	double sum = 0;
	int j;

	for (j = 0; j < c->nrun; j++) {
		double ms = k->run[c->run[j]].m[MR_RM_WALL_MS];

		if (!isnan(ms))
			sum += ms;
	}
	return sum;
}

static void
eval_runs(struct mr_vd_case *vk, const struct mr_rd *R,
	  const struct mr_rd_case *k)
{
	struct mr_vd_totals *t = &vk->t;
	int i, j;

	for (i = 0; i < k->nrun && !mr_spawn_interrupted; i++) {
		const struct mr_rd_run *r = &k->run[i];
		struct mr_vd *v;

		if (r->outcome == MR_RD_OK) {
			t->rok++;
			continue;
		}
		if (r->outcome == MR_RD_SKIPPED) {
			t->rskipped++;
			continue;
		}
		t->rfailed++;
		v = mr_vd_add(vk, MR_VD_RUN, MR_VD_FAILED);
		v->config = estrdup(k->conf[r->cfg].str);
		v->label = estrdup(k->cfg[r->cfg].label);
		v->repeat = r->repeat;
		v->outcome = mr_rd_outcomes[r->outcome];
		v->detail = estrdup(r->detail);
		if (r->log)
			v->log = mr_rd_path(R->dir, r->log);
	}
	for (i = 0; i < k->ncfg && !mr_spawn_interrupted; i++) {
		const struct mr_rd_cfg *c = &k->cfg[i];
		struct mr_vd *v;

		if (!c->nskip)
			continue;
		for (j = 0; j < c->nrun; j++)
			if (k->run[c->run[j]].outcome == MR_RD_SKIPPED)
				break;
		v = mr_vd_add(vk, MR_VD_CONFIG, MR_VD_SKIPPED);
		v->config = estrdup(k->conf[i].str);
		v->label = estrdup(c->label);
		v->detail = estrdup(k->run[c->run[j]].detail);
		v->nskip = c->nskip;
		v->nrun = c->nrun;
	}
}

/* The runs of the selected cases during which the machine changed, one
 * line per distinct change, and how many ran on a busy machine. */
static void
machine_notes(struct mr_vds *vs, const struct mr_rd *R, const int *sel, int nsel)
{
	enum { MAX = 16 };
	const char *what[MAX];
	char *first[MAX];
	long n[MAX];
	int nw = 0, more = 0, i, j, w;
	double share = NAN;

	for (i = 0; i < nsel; i++) {
		const struct mr_rd_case *k = &R->k[sel[i]];

		for (j = 0; j < k->nrun; j++) {
			const struct mr_rd_run *r = &k->run[j];

			if (r->outcome == MR_RD_OK && !r->machine && mr_rd_busy(r)) {
				vs->nbusy++;
				share = r->session_share;
			}
			if (!r->machine)
				continue;
			for (w = 0; w < nw && strcmp(what[w], r->machine); w++)
				;
			if (w == nw && nw == MAX) {
				more++;
				continue;
			}
			if (w == nw) {
				what[nw] = r->machine;
				first[nw] = esprintf("%s %s #%ld", k->name, k->conf[r->cfg].str,
						     r->repeat);
				n[nw++] = 0;
			}
			n[w]++;
		}
	}
	vs->changed = ecalloc((size_t)nw + 2, sizeof *vs->changed);
	for (w = 0; w < nw; w++) {
		vs->changed[vs->nchanged++] =
			esprintf("the machine changed: %s (%ld %s not judged, the first %s)",
				 what[w], n[w], n[w] == 1 ? "run" : "runs", first[w]);
		free(first[w]);
	}
	if (more)
		vs->changed[vs->nchanged++] =
			esprintf("the machine changed in %d more runs, in other ways: not judged", more);
	if (vs->nbusy && !isnan(share) && share > MR_RD_BUSY_SHARE)
		vs->busy = esprintf("the machine was busy: other programs used %.0f %% of a CPU over the runs: "
				    "times, and the figures an allocator's clock moves, are not judged",
				    100 * share);
	else if (vs->nbusy)
		vs->busy = esprintf("the machine was busy during %d %s (other programs used over a quarter of a CPU): "
				    "%s times, and the figures an allocator's clock moves, are not judged",
				    vs->nbusy, vs->nbusy == 1 ? "run" : "runs", vs->nbusy == 1 ? "its" : "their");
}

int
mr_check_eval(const struct mr_check_opts *o, struct mr_vds *vs)
{
	const char *exp = o->expected_dir ? o->expected_dir : "expected";
	struct mr_rd own = { 0 };
	const struct mr_rd *R = o->rd ? o->rd : &own;
	struct mr_casetab owntab = { 0 }, *tab = o->tab ? o->tab : &owntab;
	struct expect *e = NULL;
	int *sel = NULL, nsel = 0, i, j, rc = MR_USAGE;

	memset(vs, 0, sizeof *vs);
	if (!o->tab)
		mr_casetab_init(&owntab, o->cases_dir, exp);
	if ((!o->rd && mr_rd_load(&own, o->results_dir) < 0) ||
	    (nsel = mr_rd_select(R, o->cases, &sel)) < 0)
		goto out;
	vs->results = estrdup(R->dir);
	vs->platform = estrdup(R->platform);
	vs->expected = estrdup(exp);
	machine_notes(vs, R, sel, nsel);
	if (R->nk == 0) {
		/* A runner that ran nothing must not pass. */
		vs->norun = 1;
		vs->status = MR_FAILED;
		rc = MR_OK;
		goto out;
	}
	/* Read every expectation before evaluating anything: bad input is
	 * an error, not half a table. */
	vs->k = ecalloc(nsel + 1, sizeof *vs->k);
	e = ecalloc(nsel + 1, sizeof *e);
	for (i = 0; i < nsel; i++, vs->nk++) {
		vs->k[i].name = estrdup(R->k[sel[i]].name);
		if (load_expected(R, &R->k[sel[i]], exp, tab, &vs->k[i], &e[i]) < 0) {
			vs->nk++;
			goto out;
		}
	}
	for (i = 0; i < nsel; i++) {
		const struct mr_rd_case *k = &R->k[sel[i]];
		struct mr_vd_case *vk = &vs->k[i];

		vk->cfg = ecalloc(k->ncfg + 1, sizeof *vk->cfg);
		for (j = 0; j < k->ncfg; j++, vk->ncfg++) {
			vk->cfg[j].config = estrdup(k->conf[j].str);
			vk->cfg[j].label = estrdup(k->cfg[j].label);
			vk->cfg[j].nok = k->cfg[j].nok;
			vk->cfg[j].nfail = k->cfg[j].nfail;
			vk->cfg[j].nskip = k->cfg[j].nskip;
			vk->cfg[j].wall_ms = cfg_wall_ms(k, j);
		}
		vk->t.has_claims = vk->has_claims;
		eval_claims(vk, R, k, e[i].claims);
		if (stopped(R->dir))
			goto out;
		eval_runs(vk, R, k);
		if (stopped(R->dir))
			goto out;
		mr_check_baseline(vk, k, &e[i].bl, vk->has_bl, NULL);
		for (j = 0; j < e[i].nplat; j++)
			mr_check_baseline(vk, k, &e[i].gbl[j], e[i].has_gbl[j],
					  e[i].gfrag[j]);
		if (stopped(R->dir))
			goto out;
		mr_vd_totals_add(&vs->all, &vk->t);
	}
	vs->status = vs->all.regressed || vs->all.bregressed || vs->all.rfailed
		     ? MR_FAILED : MR_OK;
	rc = MR_OK;
out:
	for (i = 0; e && i < vs->nk; i++) {
		mr_baseline_free(&e[i].bl);
		for (j = 0; j < e[i].nplat; j++)
			mr_baseline_free(&e[i].gbl[j]);
		free(e[i].gbl);
		free(e[i].has_gbl);
		free(e[i].gfrag);
	}
	free(e);
	free(sel);
	if (!o->rd)
		mr_rd_free(&own);
	if (!o->tab)
		mr_casetab_free(&owntab);
	if (rc != MR_OK)
		mr_vds_free(vs);
	return rc;
}
