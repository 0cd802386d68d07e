/* evalwhen: a claim's "when" clauses (when thp=MODE,..., when kernel OP
 * V): the configs they admit, by each config's THP mode and kernel
 * version (config.h), before the combinations — see claims.h. */
#include "check/claims.h"

#include <stdlib.h>
#include <string.h>

#include "check/evalint.h"
#include "core/util.h"

/* Whether config i (its versions v, the platform's THP thp) is one c is
 * made for. */
static int
admits(const struct mr_claim *c, const struct mr_config_ver *v, const char *thp)
{
	const char *t = v->thp ? v->thp : thp;
	int i, ok = !c->nwhen_thp;

	for (i = 0; i < c->nwhen_thp; i++)
		if (t && !strcmp(t, c->when_thp[i]))
			ok = 1;
	for (i = 0; ok && i < c->nwhen_kernel; i++)
		ok = v->kernel_ver &&
		     mr_version_satisfies(v->kernel_ver, (enum mr_vop)c->when_kop[i], c->when_kver[i]);
	return ok;
}

/* Why no config is one c is made for: its clauses, then what the
 * results have (every distinct THP mode or kernel once). */
static char *
why_none(const struct mr_claim *c, const struct mr_eval_data *d, const struct mr_config_ver *ver)
{
	struct strbuf b = {0}, has = {0};
	char **seen;
	int i, j, same = 1, nseen = 0;

	sb_add(&b, "claimed only when ");
	for (i = 0; i < c->nwhen_thp; i++)
		sb_printf(&b, "%s%s", i ? "," : "thp=", c->when_thp[i]);
	for (i = 0; i < c->nwhen_kernel; i++)
		sb_printf(&b, "%skernel%s%s", i || c->nwhen_thp ? " and " : "",
			  mr_vop_names[c->when_kop[i]], c->when_kver[i]);
	for (i = 0; i < d->ncfg; i++)
		same &= !ver[i].kernel;
	if (!c->nwhen_kernel && same) {
		/* a host's results: its one THP mode */
		if (d->thp)
			sb_printf(&b, "; this platform has thp=%s", d->thp);
		else
			sb_add(&b, "; the results do not record the THP mode");
		return b.s;
	}
	seen = ecalloc(d->ncfg + 1, sizeof *seen);
	for (i = 0; i < d->ncfg; i++) {
		const char *t = ver[i].thp ? ver[i].thp : d->thp;
		char *one = c->nwhen_kernel
			? esprintf("kernel %s%s%s%s", ver[i].kernel_ver ? ver[i].kernel_ver : "not recorded",
				   ver[i].kernel ? "" : " (the host)", c->nwhen_thp ? " thp=" : "",
				   c->nwhen_thp ? (t ? t : "not recorded") : "")
			: esprintf("thp=%s", t ? t : "not recorded");

		for (j = 0; j < nseen && strcmp(seen[j], one); j++)
			;
		if (j < nseen) {
			free(one);
			continue;
		}
		sb_printf(&has, "%s%s", has.len ? ", " : "", one);
		seen[nseen++] = one;
	}
	for (j = 0; j < nseen; j++)
		free(seen[j]);
	free(seen);
	sb_printf(&b, "; the results have %s", has.s ? has.s : "no config");
	sb_free(&has);
	return b.s;
}

/* The value callback of the admitted configs: d's at the config's own
 * index. */
struct sub {
	const struct mr_eval_data *d;
	const int *map;
};

static int
sub_value(void *ctx, int i, const struct mr_ref *ref, double *out, char **why)
{
	const struct sub *s = ctx;

	return s->d->value(s->d->ctx, s->map[i], ref, out, why);
}

void
mr_claim_eval(const struct mr_claim *c, const struct mr_eval_data *d,
	      struct mr_claim_result *r)
{
	struct mr_config_ver *own = NULL;
	const struct mr_config_ver *ver = d->ver;
	struct mr_config *cfg;
	struct mr_config_ver *sver;
	struct mr_eval_data sd;
	struct sub s;
	int *map, n = 0, i, j;

	memset(r, 0, sizeof *r);
	if (!c->nwhen_thp && !c->nwhen_kernel) {
		ev_combinations(c, d, r);
		return;
	}
	if (!ver)
		ver = own = mr_config_vers(d->cfg, d->ncfg, NULL, NULL);
	map = ecalloc(d->ncfg + 1, sizeof *map);
	for (i = 0; i < d->ncfg; i++)
		if (admits(c, &ver[i], d->thp))
			map[n++] = i;
	if (n == 0) {
		r->outcome = MR_CLAIM_NODATA;
		r->detail = why_none(c, d, ver);
	} else if (n == d->ncfg) {
		ev_combinations(c, d, r);
	} else {
		cfg = ecalloc(n, sizeof *cfg);
		sver = ecalloc(n, sizeof *sver);
		for (i = 0; i < n; i++) {
			cfg[i] = d->cfg[map[i]];
			sver[i] = ver[map[i]];
		}
		s.d = d;
		s.map = map;
		sd = *d;
		sd.cfg = cfg;
		sd.ncfg = n;
		sd.ver = sver;
		sd.value = sub_value;
		sd.ctx = &s;
		ev_combinations(c, &sd, r);
		/* the combinations name d's configs */
		for (i = 0; r->comb && i < r->ncomb; i++)
			for (j = 0; r->comb[i].cfg && j < c->nref; j++)
				if (r->comb[i].cfg[j] >= 0)
					r->comb[i].cfg[j] = map[r->comb[i].cfg[j]];
		free(cfg);
		free(sver);
	}
	free(map);
	mr_config_vers_free(own, d->ncfg);
}
