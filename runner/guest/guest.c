/* guest: a session across kernels, one qemu guest per (kernel, machine
 * settings) — see guest.h. */
#include "guest/guest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "release/release.h"
#include "results/write.h"
#include "session/configs.h"
#include "guest/guestmem.h"
#include "guest/guestrun.h"

/* The machine's settings a guest takes: the axis, the word on the kernel
 * command line the guest's init reads, the values it takes (NULL: a
 * number up to max). */
static const struct knob {
	const char *key, *param, *words;
	long max;
} knobs[MR_GUEST_NKNOB] = {
	{ "kernel.thp", "mr.thp", " always madvise never ", 0 },
	{ "kernel.thp.defrag", "mr.defrag", " always defer defer-madvise madvise never ", 0 },
	{ "kernel.khugepaged.max_ptes_none", "mr.ptes_none", NULL, 511 },
	{ "kernel.khugepaged.scan_sleep_millisecs", "mr.scan_sleep", NULL, 86400000 },
};

static int
is_guest_key(const char *k)
{
	return strcmp(k, "kernel") == 0 || strncmp(k, "kernel.", 7) == 0;
}

int
mr_guest_wanted(const struct mr_matrix_axis *ax, int nax)
{
	int i;

	for (i = 0; i < nax; i++)
		if (is_guest_key(ax[i].key))
			return 1;
	return 0;
}

/* The guest's environment variables: 0, or -1 (printed). */
static int
check_env(void)
{
	static const char *const names[] = { "MEMREPRO_GUEST_MEM_MIB", "MEMREPRO_GUEST_TIMEOUT", NULL };
	int i;

	for (i = 0; names[i]; i++) {
		const char *v = getenv(names[i]);

		if (v && *v && !mr_guest_env_long(names[i])) {
			weprintf("%s '%s': want a whole number above 0 (%s)", names[i], v,
				 i == 0 ? "MiB" : "seconds");
			return -1;
		}
	}
	return 0;
}

struct mr_matrix_axis *
mr_guest_profile_axes(const struct mr_matrix_axis *ax, int nax, int *n)
{
	/* MR_GUEST_KERNELS and MR_GUEST_THPS, as axis values */
	static char *kernels[] = { "5.10", "6.1", "6.12", "7.2" };
	static char *thps[] = { "always", "madvise" };
	static const struct mr_matrix_axis add[] = {
		{ "kernel", kernels, 4 },
		{ "kernel.thp", thps, 2 },
	};
	struct mr_matrix_axis *r = ecalloc((size_t)nax + 3, sizeof *r);
	int i, j;

	for (i = 0; i < nax; i++)
		r[i] = ax[i];
	*n = nax;
	for (j = 0; j < 2; j++) {
		for (i = 0; i < nax && strcmp(ax[i].key, add[j].key); i++)
			;
		if (i == nax)
			r[(*n)++] = add[j];
	}
	return r;
}

/* Check the guest's axes: *kax the kernel axis, kn[j] knob j's axis (-1:
 * none), *host whether kernel=host is asked.  0, or -1 (printed). */
static int
check(const struct mr_matrix_axis *ax, int nax, int *kax, int *kn, int *host)
{
	int i, j, v, any = 0;

	*kax = -1;
	*host = 0;
	for (j = 0; j < MR_GUEST_NKNOB; j++)
		kn[j] = -1;
	for (i = 0; i < nax; i++) {
		if (!is_guest_key(ax[i].key))
			continue;
		if (strcmp(ax[i].key, "kernel") == 0) {
			*kax = i;
			for (v = 0; v < ax[i].nvals; v++)
				if (strcmp(ax[i].vals[v], "host") == 0)
					*host = 1;
			continue;
		}
		for (j = 0; j < MR_GUEST_NKNOB && strcmp(knobs[j].key, ax[i].key); j++)
			;
		if (j == MR_GUEST_NKNOB) {
			weprintf("--axis %s: no such machine setting of a guest (kernel.thp, kernel.thp.defrag, kernel.khugepaged.max_ptes_none, kernel.khugepaged.scan_sleep_millisecs)",
				 ax[i].key);
			return -1;
		}
		kn[j] = i;
		any = 1;
		for (v = 0; v < ax[i].nvals; v++) {
			const char *val = ax[i].vals[v];
			char *w = esprintf(" %s ", val);
			long long n = -1;
			int ok = knobs[j].words ? strstr(knobs[j].words, w) != NULL :
				 parse_ll(val, &n) == 0 && n >= 0 && n <= knobs[j].max;

			free(w);
			if (!ok || strchr(val, ' ')) {
				if (knobs[j].words)
					weprintf("--axis %s=%s: want one of%s", ax[i].key, val, knobs[j].words);
				else
					weprintf("--axis %s=%s: want a number from 0 to %ld", ax[i].key, val,
						 knobs[j].max);
				return -1;
			}
		}
	}
	if (any && (*kax < 0 || *host)) {
		weprintf("--axis kernel.*: the machine's memory settings are set inside a guest only, never on the host: give --axis kernel=VERSION without host (kernel=6.12)");
		return -1;
	}
	return 0;
}

/* The session's cases and matrices (on the guests' axes). */
struct sess {
	struct mr_cases_desc *cases;
	int ncases, built;
	struct mr_matrix *mats;
};

static void
sess_free(struct sess *s)
{
	int i;

	for (i = 0; i < s->built; i++)
		mr_matrix_free(&s->mats[i]);
	for (i = 0; i < s->ncases; i++)
		mr_cases_free(&s->cases[i]);
	free(s->mats);
	free(s->cases);
}

/* The runs each guest makes: every case's configs, every repeat. */
static int
pairs_of(const struct mr_session_opts *o, const struct mr_matrix_axis *hax, int nhax,
	 struct sess *s, struct mr_guest_pair **pairs, char ***names)
{
	struct mr_configs_opts co = { 0 };
	int n = 0, i, k, rc;

	co.cases_dir = o->cases_dir;
	co.names = o->names;
	co.nnames = o->nnames;
	co.axes = hax;
	co.nax = nhax;
	co.quick = o->quick;
	co.versions = o->versions;
	co.originals = o->originals;
	co.expected_dir = o->expected_dir;
	co.tab = o->tab; /* the command's table: each case described once */
	rc = mr_configs_build(&co, &s->cases, &s->ncases, &s->mats, &s->built);
	*pairs = NULL;
	*names = ecalloc((size_t)s->ncases + 1, sizeof **names);
	for (i = 0; rc == 0 && i < s->built; i++) {
		(*names)[i] = estrdup(s->cases[i].name);
		for (k = 0; k < s->mats[i].n; k++) {
			const struct mr_matrix_cfg *cf = &s->mats[i].cfg[k];

			*pairs = erealloc(*pairs, sizeof **pairs * (size_t)(n + 1));
			(*pairs)[n].casename = estrdup(s->cases[i].name);
			(*pairs)[n].config = estrdup(cf->canon);
			(*pairs)[n++].repeats = o->quick && cf->runtime ? 1 : (int)o->repeat;
		}
	}
	return rc < 0 ? -1 : n;
}

/* The groups: every kernel but host x every value of every setting. */
static int
groups(const struct mr_matrix_axis *ax, int kax, const int *kn, struct mr_kernel *ks,
       char **kwhy, struct mr_guest_group **gs)
{
	int n = 0, v, j, combos = 1, c;

	for (j = 0; j < MR_GUEST_NKNOB; j++)
		if (kn[j] >= 0)
			combos *= ax[kn[j]].nvals;
	*gs = ecalloc((size_t)(ax[kax].nvals * combos) + 1, sizeof **gs);
	for (v = 0; v < ax[kax].nvals; v++) {
		if (strcmp(ax[kax].vals[v], "host") == 0)
			continue;
		for (c = 0; c < combos; c++) {
			struct mr_guest_group *g = &(*gs)[n];
			struct strbuf f = { 0 }, a = { 0 };
			int rest = c;

			g->index = n + 1;
			g->kspec = ax[kax].vals[v];
			g->k = kwhy[v] ? NULL : &ks[v];
			g->kwhy = kwhy[v];
			sb_printf(&f, "kernel=%s", g->kspec);
			for (j = MR_GUEST_NKNOB - 1; j >= 0; j--) {
				const struct mr_matrix_axis *k = kn[j] >= 0 ? &ax[kn[j]] : NULL;

				if (!k)
					continue;
				sb_printf(&f, ",%s=%s", k->key, k->vals[rest % k->nvals]);
				if (j == 0) /* kernel.thp */
					g->thp = k->vals[rest % k->nvals];
				/* defer+madvise: '+' is no axis value's */
				sb_printf(&a, "%s%s=%s", a.len ? " " : "", knobs[j].param,
					  strcmp(k->vals[rest % k->nvals], "defer-madvise") ? k->vals[rest % k->nvals] :
					  "defer+madvise");
				rest /= k->nvals;
			}
			g->frag = mr_guest_config(NULL, f.s);
			sb_free(&f);
			g->append = a.s ? a.s : estrdup("");
			n++;
		}
	}
	return n;
}

/* Each distinct kernel of the axis fetched: 0, or -1 (a kernel no release
 * has: printed).  One that cannot be had now gets its why. */
static int
kernels(const struct mr_matrix_axis *k, struct mr_kernel *ks, char **kwhy)
{
	int v;

	for (v = 0; v < k->nvals; v++) {
		struct strbuf why = { 0 };
		int g;

		if (strcmp(k->vals[v], "host") == 0)
			continue;
		g = mr_kernel_get(k->vals[v], &ks[v], &why);
		if (g == MR_REL_NOVERSION) {
			weprintf("--axis kernel=%s: %s", k->vals[v], why.s);
			sb_free(&why);
			return -1;
		}
		if (g != MR_REL_OK)
			kwhy[v] = estrdup(why.len ? why.s : "cannot be had");
		sb_free(&why);
	}
	return 0;
}

int
mr_guest_session(const struct mr_session_opts *o)
{
	struct mr_matrix_axis *hax = ecalloc((size_t)o->nax + 1, sizeof *hax);
	struct mr_kernel *ks = NULL;
	struct mr_guest_group *gs = NULL;
	struct mr_guest_pair *pairs = NULL;
	struct mr_session_opts so = *o;
	struct sess ss = { 0 };
	char **kwhy = NULL, **names = NULL, *outdir = NULL;
	int kn[MR_GUEST_NKNOB], kax, host, nhax = 0, i, ng = 0, np = -1, rc = MR_USAGE;

	if (check(o->axes, o->nax, &kax, kn, &host) < 0 || check_env() < 0)
		goto out;
	if (o->resume || o->shard_n) {
		weprintf("--axis kernel: %s cannot take guests yet (docs/kernels.md, \"Not yet\")",
			 o->resume ? "--resume" : "--shard");
		goto out;
	}
	for (i = 0; i < o->nax; i++)
		if (!is_guest_key(o->axes[i].key))
			hax[nhax++] = o->axes[i];
	ks = ecalloc((size_t)o->axes[kax].nvals, sizeof *ks);
	kwhy = ecalloc((size_t)o->axes[kax].nvals, sizeof *kwhy);
	if (kernels(&o->axes[kax], ks, kwhy) < 0)
		goto out;
	outdir = o->out ? estrdup(o->out) : mr_results_default_dir();
	so.axes = hax;
	so.nax = nhax;
	so.out = outdir;
	so.then = NULL;
	if (host) {
		rc = mr_session_run(&so);
		if (rc == MR_USAGE || rc >= 128)
			goto out;
	} else if (mr_mkdir_out(outdir) < 0) {
		weprintf("results directory %s:", outdir);
		goto out;
	} else {
		rc = MR_OK;
	}
	if ((np = pairs_of(o, hax, nhax, &ss, &pairs, &names)) < 0) {
		rc = MR_USAGE;
		goto out;
	}
	ng = groups(o->axes, kax, kn, ks, kwhy, &gs);
	for (i = 0; i < ng; i++) {
		struct strbuf why = { 0 };

		gs[i].mem_mib = mr_guest_mem(ss.cases, ss.built, ss.mats, o->expected_dir,
					     gs[i].k ? gs[i].k->upstream : "0", gs[i].thp, &why);
		gs[i].mem_why = why.s;
		if (mr_guest_run(o, hax, nhax, outdir, &gs[i], pairs, np) != MR_OK)
			rc = MR_FAILED;
	}
	if (!host && !o->quiet)
		fprintf(o->progress ? o->progress : stdout, "results: %s\n", outdir);
	if (o->then) {
		int t = o->then(o->ctx, outdir, (const char *const *)names);

		if (t != MR_OK && rc == MR_OK)
			rc = t;
	}
out:
	for (i = 0; i < ng; i++) {
		free(gs[i].frag);
		free(gs[i].append);
		free(gs[i].mem_why);
	}
	for (i = 0; i < np; i++) {
		free((char *)pairs[i].casename);
		free((char *)pairs[i].config);
	}
	for (i = 0; names && names[i]; i++)
		free(names[i]);
	for (i = 0; kwhy && i < o->axes[kax].nvals; i++) {
		free(kwhy[i]);
		mr_kernel_free(&ks[i]);
	}
	sess_free(&ss);
	free(names);
	free(pairs);
	free(gs);
	free(kwhy);
	free(ks);
	free(hax);
	free(outdir);
	return rc;
}
