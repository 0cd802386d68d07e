/* evalint: what the files of a claim's evaluation share (eval.c the
 * combinations, evalver.c the versions as axes, tally.c the verdict and
 * its words).  Private to runner/check/eval*.c and tally.c. */
#ifndef MR_EVALINT_H
#define MR_EVALINT_H

#include "check/lex.h"
#include "core/util.h"

/* Where a cause takes the configs it applies to. */
#define WHAT "\001"

/* Why combinations were skipped, grouped by cause: "no data for A and B
 * (skipped: libfoo not found)" reads better than the same cause twice. */
struct skips {
	int n;
	char **cause;          /* "no data for " WHAT " (why)", ... */
	struct strbuf *what;   /* the configs or selections, joined by " and " */
	struct skipset *set;   /* each cause's entries in what, hashed */
};

/* The versions of one allocator in the configs, an axis of their own
 * when there are several: jemalloc, jemalloc@5.2.1, jemalloc@5.3.0. */
struct vaxis {
	const char *name;   /* the allocator's name (into d's versions) */
	const char **spec;  /* its allocator values, in order of appearance */
	const char **ver;   /* their versions (NULL: not known) */
	int n;
};

/* One evaluation of a claim: the axes, the current combination, and what
 * is worked out once per claim. */
struct ev {
	const struct mr_claim *c;
	const struct mr_eval_data *d;
	const struct mr_config_ver *ver; /* d->ncfg */
	const struct mr_config *acfg; /* the configs the axes are of: d->cfg,
	                                 or copies whose allocator values are
	                                 the names (the versions are vax) */
	const struct mr_axis *ax;
	const int *it;       /* axes some reference leaves unnamed */
	const int *idx;      /* ... the value each takes */
	int nit;
	const struct vaxis *vax; /* allocators with several versions */
	const int *vidx;     /* ... the version each takes */
	int nvax;
	char *exact;         /* [nref * MR_REF_MAX_PAIRS]: an exact version
	                        pair whose value is spelt so by some config
	                        (it takes that config, not the host's of the
	                        same version) */
	char *anyrun;        /* [nref * MR_REF_MAX_PAIRS]: some config has
	                        the pair (ev_pair_ok), whatever the
	                        combination: worked out once, not per
	                        combination (that cost configs^2) */
	struct mr_axis *lax;  /* the axes of d->cfg, for labels (a skip's) */
	int nlax;
	struct ev_refidx *ri; /* [nref]: each reference's configs by their
	                         values on the axes it leaves unnamed
	                         (evalidx.c) */
};

/* What the combinations came to so far, for the detail of the result. */
struct tally {
	struct strbuf first_true, first_false, falselabels;
	struct strbuf first_undef, undeflabels;
	struct skips sk;
};

int ev_has_entry(const struct strbuf *list, const char *e);
void ev_skips_add(struct skips *sk, char *cause, char *what);
void ev_put_cause(struct strbuf *b, const char *cause, const char *what);
void ev_skips_join(struct strbuf *b, const struct skips *sk, int max);
void ev_skips_free(struct skips *sk);
void ev_comb_judge(const struct mr_claim *c, const double *val, const char *label, struct strbuf *line, struct mr_claim_result *r, struct tally *t);
void ev_summarize(struct mr_claim_result *r, const struct tally *t);
int ev_concerns(const struct ev *e, const struct vaxis *a);
const char *ev_libc_version(const struct ev *e, const char *val);
int ev_outside(const struct ev *e);
int ev_version_axes(const struct mr_eval_data *d, const struct mr_config_ver *ver, struct vaxis **out);
struct mr_config *ev_name_configs(const struct mr_eval_data *d, const struct mr_config_ver *ver, const struct vaxis *vax, int nvax);
void ev_comb_label(struct strbuf *b, const struct ev *e, const int *vcon);
char *ev_outside_why(const struct mr_claim *c);
int ev_pinned(const struct mr_ref *r, const char *name);

/* Helpers of eval.c the others use. */
int ev_names(const struct mr_ref *r, const char *key);
void ev_pair(struct strbuf *b, const char *key, const char *val);
int ev_pair_ok(const struct ev *e, int j, int k, int i);
int ev_ref_sel(const struct ev *e, int j, int i);
int ev_in_comb(const struct ev *e, int j, int i);

/* evalidx.c: the index of e's references (ev_ref_sel's configs grouped
 * by the values of e->it's axes they leave unnamed), built once it[] is
 * known; the configs of reference j whose values are the current
 * combination's on those axes, ascending, n of them (NULL: none). */
struct ev_refidx *ev_index_build(const struct ev *e);
const int *ev_index_members(const struct ev *e, int j, int *n);
void ev_index_free(struct ev_refidx *ri, int nref);

/* Evaluate c over every config of d, its "when" clauses aside
 * (eval.c); mr_claim_eval (evalwhen.c) first keeps the configs they
 * admit. */
void ev_combinations(const struct mr_claim *c, const struct mr_eval_data *d,
		     struct mr_claim_result *r);

#endif
