/* claims: reading a claims file, and checking it against the configs and
 * checkpoints of its case — see claims.h.  The lexer and the parser are in
 * lex.c and parse.c, the evaluation in eval.c. */
#include "check/claims.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/suggest.h"
#include "core/tsv.h"
#include "core/util.h"

void
mr_claims_free(struct mr_claims *cs)
{
	size_t i;

	for (i = 0; i < cs->nmem; i++)
		free(cs->mem[i]);
	free(cs->mem);
	free(cs->path);
	memset(cs, 0, sizeof *cs);
}

/* Whether the version ver of a config (NULL: not spelt by it) may be one
 * vp admits. */
static int
may_admit(const struct mr_vpair *vp, const char *ver)
{
	return !ver || mr_version_satisfies(ver, vp->op, vp->version);
}

int
mr_ref_selects(const struct mr_ref *ref, const struct mr_config *c)
{
	int k;

	for (k = 0; k < ref->nunset; k++)
		if (mr_config_get(c, ref->unset[k]))
			return 0;
	for (k = 0; k < ref->npairs; k++) {
		const struct mr_vpair *vp = &ref->pair[k].vp;
		const char *v = mr_config_get(c, ref->pair[k].key), *at;

		if (vp->name && v) {
			/* allocator=NAME[@...]: NAME, any version it admits */
			at = strchr(v, '@');
			if (strncmp(v, vp->name, at ? (size_t)(at - v) : strlen(v)) ||
			    strlen(vp->name) != (at ? (size_t)(at - v) : strlen(v)) ||
			    !may_admit(vp, at ? at + 1 : NULL))
				return 0;
		} else if (vp->op != MR_V_ANY && !vp->name) {
			/* libc: unset is the host's, not known here */
			if (!may_admit(vp, v))
				return 0;
		} else if (!strcmp(ref->pair[k].key, MR_KEY_RUNTIME) &&
			   !strcmp(ref->pair[k].val, MR_RUNTIME_MODEL)) {
			if (v)
				return 0;
		} else if (!strcmp(ref->pair[k].key, MR_KEY_RUNTIME) &&
			   !strcmp(ref->pair[k].val, MR_RUNTIME_ANY)) {
			if (!v)
				return 0;
		} else if (!mr_config_same(v, ref->pair[k].val)) {
			return 0;
		}
	}
	return 1;
}

void
mr_ref_pair_src(struct strbuf *b, const struct mr_ref *ref, int k)
{
	const struct mr_vpair *vp = &ref->pair[k].vp;

	if (!vp->name && vp->op >= MR_V_LT)
		sb_printf(b, "%s%s%s", ref->pair[k].key, mr_vop_names[vp->op], vp->version);
	else
		sb_printf(b, "%s=%s", ref->pair[k].key, ref->pair[k].val);
}


int
mr_claims_read(const char *path, struct mr_claims *cs)
{
	struct strbuf b = {0};
	int rc;

	memset(cs, 0, sizeof *cs);
	if ((rc = mr_read_text(path, MR_CLAIMS_MAX_BYTES, "claims file", &b)) < 0)
		return rc;
	rc = mr_claims_parse(path, b.s, b.len, cs);
	sb_free(&b);
	return rc;
}

/* Every key of cfg[0..n-1], once each, comma-separated, into b. */
static void
known_keys(struct strbuf *b, const struct mr_config *cfg, int n)
{
	const char **seen = ecalloc(1, sizeof *seen);
	int nseen = 0, i, j, k;

	sb_add(b, "");
	for (i = 0; i < n; i++) {
		for (j = 0; j < cfg[i].n; j++) {
			for (k = 0; k < nseen; k++)
				if (!strcmp(seen[k], cfg[i].key[j]))
					break;
			if (k < nseen)
				continue;
			seen = erealloc(seen, sizeof *seen * (nseen + 1));
			seen[nseen++] = cfg[i].key[j];
			sb_printf(b, "%s%s", b->len ? ", " : "", cfg[i].key[j]);
		}
	}
	free(seen);
}

int
mr_claims_check_keys(const struct mr_claims *cs, const struct mr_config *cfg,
		     int n)
{
	struct strbuf b = {0};
	int i, j, k, l;

	if (n == 0)
		return 0;
	for (i = 0; i < cs->n; i++) {
		for (j = 0; j < cs->v[i].nref; j++) {
			const struct mr_ref *r = &cs->v[i].ref[j];

			for (k = 0; k < r->npairs; k++) {
				for (l = 0; l < n; l++)
					if (mr_config_get(&cfg[l], r->pair[k].key))
						break;
				/* pressure is the runner's axis, off unless
				 * asked for: without it the claim is skipped
				 * ("no run has pressure=..."), not an error */
				if (l < n || strcmp(r->pair[k].key, "pressure") == 0 ||
				    strcmp(r->pair[k].key, MR_KEY_RUNTIME) == 0)
					continue;
				/* libc: a run without the axis has the host's,
				 * which the pair is held against */
				if (strcmp(r->pair[k].key, MR_KEY_LIBC) == 0)
					continue;
				/* the key of an axis directive: the run may have
				 * had none of the allocator it adds configs to */
				for (l = 0; l < cs->naxis && strcmp(cs->axis[l].key, r->pair[k].key); l++)
					;
				if (l < cs->naxis)
					continue;
				known_keys(&b, cfg, n);
				mr_errat(cs->path, r->pair[k].line, r->pair[k].col,
					 "unknown parameter \"%s\" (the runs of this case have %s)",
					 r->pair[k].key, b.s);
				sb_free(&b);
				return -1;
			}
		}
	}
	return 0;
}

int
mr_claims_check_ckpts(const struct mr_claims *cs, const char *casename,
		      const char *const *names, int n)
{
	struct strbuf b = {0};
	int i, j, k, best, bd;

	for (i = 0; i < cs->n; i++) {
		for (j = 0; j < cs->v[i].nref; j++) {
			const struct mr_ref *r = &cs->v[i].ref[j];

			if (!r->checkpoint)
				continue;
			for (k = 0; k < n; k++)
				if (!strcmp(names[k], r->checkpoint))
					break;
			if (k < n)
				continue;
			best = -1;
			bd = 3;
			sb_add(&b, "");
			for (k = 0; k < n; k++) {
				int d = mr_edit_distance(r->checkpoint, names[k]);

				if (d < bd) {
					bd = d;
					best = k;
				}
				sb_printf(&b, "%s%s", k ? ", " : "", names[k]);
			}
			if (best >= 0)
				mr_errat(cs->path, r->cline, r->ccol,
					 "unknown checkpoint \"%s\" of case %s (did you mean %s?); checkpoints: %s",
					 r->checkpoint, casename, names[best], b.s);
			else
				mr_errat(cs->path, r->cline, r->ccol,
					 "unknown checkpoint \"%s\" of case %s; checkpoints: %s",
					 r->checkpoint, casename, n ? b.s : "none");
			sb_free(&b);
			return -1;
		}
	}
	return 0;
}
