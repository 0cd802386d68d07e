/* evalver: versions as axes of a claim (formats.md, "Versions in claims"):
 * an allocator's versions an axis of their own, a range's combinations,
 * their labels — see evalint.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/expr.h"
#include "check/evalint.h"
#include "core/version.h"
#include "core/numfmt.h"
#include "core/util.h"

/* Whether the versions of allocator a matter to the combination: some
 * reference not pinning one takes a config of that allocator. */
int
ev_concerns(const struct ev *e, const struct vaxis *a)
{
	int i, j;

	for (j = 0; j < e->c->nref; j++) {
		if (ev_pinned(&e->c->ref[j], a->name))
			continue;
		for (i = 0; i < e->d->ncfg; i++)
			if (e->ver[i].alloc && !strcmp(e->ver[i].alloc, a->name) &&
			    ev_ref_sel(e, j, i) && ev_in_comb(e, j, i))
				return 1;
	}
	return 0;
}

/* The version of the libc the combination's value val of the libc axis
 * stands for (NULL: not known). */
const char *
ev_libc_version(const struct ev *e, const char *val)
{
	int i;

	for (i = 0; i < e->d->ncfg; i++)
		if (mr_config_same(mr_config_get(&e->d->cfg[i], MR_KEY_LIBC), val))
			return e->ver[i].libc_ver;
	return NULL;
}

/* Whether the combination is outside a range a reference names
 * (allocator=jemalloc@>=5.2 at jemalloc@5.1.0, libc>=2.41 at libc=2.36):
 * not a combination of the claim. */
int
ev_outside(const struct ev *e)
{
	int j, k, l;

	for (j = 0; j < e->c->nref; j++) {
		const struct mr_ref *ref = &e->c->ref[j];

		for (k = 0; k < ref->npairs; k++) {
			const struct mr_vpair *vp = &ref->pair[k].vp;

			if (vp->op < MR_V_LT)
				continue;
			if (vp->name) {
				for (l = 0; l < e->nvax; l++)
					if (!strcmp(e->vax[l].name, vp->name) &&
					    !mr_version_satisfies(e->vax[l].ver[e->vidx[l]],
								  vp->op, vp->version))
						return 1;
				continue;
			}
			if (ev_names(ref, ref->pair[k].key))
				continue;
			for (l = 0; l < e->nit; l++)
				if (!strcmp(e->ax[e->it[l]].key, ref->pair[k].key) &&
				    !mr_version_satisfies(ev_libc_version(e, e->ax[e->it[l]].val[e->idx[l]]),
							  vp->op, vp->version))
					return 1;
		}
	}
	return 0;
}

/* The allocators with several versions in the configs, into *out. */
int
ev_version_axes(const struct mr_eval_data *d, const struct mr_config_ver *ver,
	     struct vaxis **out)
{
	struct vaxis *v = ecalloc(d->ncfg + 1, sizeof *v);
	int n = 0, i, j, k;

	for (i = 0; i < d->ncfg; i++) {
		const char *spec = mr_config_get(&d->cfg[i], MR_KEY_ALLOCATOR);

		if (!ver[i].alloc)
			continue;
		for (j = 0; j < n; j++)
			if (!strcmp(v[j].name, ver[i].alloc))
				break;
		if (j == n) {
			v[n].name = ver[i].alloc;
			v[n].spec = ecalloc(d->ncfg, sizeof *v[n].spec);
			v[n].ver = ecalloc(d->ncfg, sizeof *v[n].ver);
			n++;
		}
		for (k = 0; k < v[j].n; k++)
			if (!strcmp(v[j].spec[k], spec))
				break;
		if (k == v[j].n) {
			v[j].spec[k] = spec;
			v[j].ver[k] = ver[i].alloc_ver;
			v[j].n++;
		}
	}
	for (i = j = 0; i < n; i++) {
		if (v[i].n > 1) {
			v[j++] = v[i];
		} else {
			free(v[i].spec);
			free(v[i].ver);
		}
	}
	*out = v;
	return j;
}

/* The configs with the allocator values of vax[0..nvax-1] (allocators of
 * several versions) replaced by their names, into a fresh array; NULL
 * when there are none (the configs are their own).  An allocator with
 * one version keeps its value, and its labels their version. */
struct mr_config *
ev_name_configs(const struct mr_eval_data *d, const struct mr_config_ver *ver,
	     const struct vaxis *vax, int nvax)
{
	struct mr_config *a;
	int i, k, l;

	if (!nvax)
		return NULL;
	a = ecalloc(d->ncfg + 1, sizeof *a);
	for (i = 0; i < d->ncfg; i++) {
		struct strbuf b = {0};
		const char *why;

		for (l = 0; l < nvax && !(ver[i].alloc && !strcmp(ver[i].alloc, vax[l].name)); l++)
			;
		sb_add(&b, "");
		for (k = 0; k < d->cfg[i].n; k++)
			sb_printf(&b, "%s%s=%s", k ? "," : "", d->cfg[i].key[k],
				  strcmp(d->cfg[i].key[k], MR_KEY_ALLOCATOR) || l == nvax
				  ? d->cfg[i].val[k] : ver[i].alloc);
		/* only values change: still canonical */
		if (mr_config_parse(b.s, &a[i], &why) < 0)
			eprintf("config %s: %s", b.s, why);
		sb_free(&b);
	}
	return a;
}

/* The label of the combination: the values of the unnamed axes, an
 * allocator's name with the version it takes where its versions matter. */
void
ev_comb_label(struct strbuf *b, const struct ev *e, const int *vcon)
{
	int k, l, *done = ecalloc(e->nvax + 1, sizeof *done);

	sb_add(b, "");
	for (k = 0; k < e->nit; k++) {
		const struct mr_axis *a = &e->ax[e->it[k]];
		const char *val = a->val[e->idx[k]];

		for (l = 0; val && !strcmp(a->key, MR_KEY_ALLOCATOR) && l < e->nvax; l++)
			if (vcon[l] && !strcmp(e->vax[l].name, val)) {
				val = e->vax[l].spec[e->vidx[l]];
				done[l] = 1;
			}
		ev_pair(b, a->key, val);
	}
	/* "allocator=jemalloc@5.2.1", or where the combination's allocator
	 * is another one's, the version alone */
	for (k = 0; k < e->nit && strcmp(e->ax[e->it[k]].key, MR_KEY_ALLOCATOR); k++)
		;
	for (l = 0; l < e->nvax; l++)
		if (vcon[l] && !done[l])
			sb_printf(b, "%s%s%s", b->len ? "," : "",
				  k < e->nit ? "" : MR_KEY_ALLOCATOR "=",
				  e->vax[l].spec[e->vidx[l]]);
	free(done);
}

/* Why no combination was evaluated: every one was outside the ranges
 * the claim names ("no run has allocator=jemalloc@>=5.4"). */
char *
ev_outside_why(const struct mr_claim *c)
{
	struct strbuf list = {0}, one = {0};
	char *why;
	int j, k;

	sb_add(&list, "");
	for (j = 0; j < c->nref; j++) {
		for (k = 0; k < c->ref[j].npairs; k++) {
			if (c->ref[j].pair[k].vp.op < MR_V_LT)
				continue;
			sb_free(&one);
			sb_add(&one, "");
			mr_ref_pair_src(&one, &c->ref[j], k);
			if (!ev_has_entry(&list, one.s))
				sb_printf(&list, "%s%s", list.len ? " and " : "", one.s);
		}
	}
	why = esprintf("no run has %s", list.s);
	sb_free(&one);
	sb_free(&list);
	return why;
}

/* Whether r pins the version of the allocator called name
 * (allocator=jemalloc@5.2.1): it does not range over its versions. */
int
ev_pinned(const struct mr_ref *r, const char *name)
{
	int i;

	for (i = 0; i < r->npairs; i++)
		if (r->pair[i].vp.name && r->pair[i].vp.op == MR_V_EQ &&
		    !strcmp(r->pair[i].vp.name, name))
			return 1;
	return 0;
}
