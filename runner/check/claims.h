/* claims: the claim language of expected/<case>.claims (docs/formats.md),
 * and the evaluation of a claim over the configs of one case.  The metric
 * names it may use are the schema's (proto/schema.h), configs are
 * results/config.h's.
 *
 * A claims file is parsed whole into a struct mr_claims; the first error
 * is printed as "path:line:column: message" and parsing stops.  The files
 * of the module: claims.c (reading and checking a file), lex.c (the arena
 * and the lexer), parse.c (the parser), eval.c (the evaluation).
 */
#ifndef MR_CLAIMS_H
#define MR_CLAIMS_H

#include <stddef.h>

#include "results/config.h"
#include "core/version.h"
#include "core/numfmt.h"
#include "proto/schema.h"

/* --- claims ------------------------------------------------------------ */

/* Bounds of the claims language: a file beyond them is bad input, so a
 * pathological file can neither overflow the stack (the parser and the
 * evaluator recurse over the expression) nor take quadratic time. */
enum {
	MR_CLAIMS_MAX_BYTES = 1 << 20, /* size of a claims file */
	MR_CLAIMS_MAX = 4096,          /* claims in a file */
	MR_CLAIM_MAX_TERMS = 256,      /* numbers and references in a claim */
	MR_CLAIM_MAX_DEPTH = 64,       /* nesting of parentheses and unary minus */
	MR_REF_MAX_PAIRS = 32,         /* key=value pairs in a reference */
};

/* The keys whose values carry versions (docs/formats.md, "Versions in
 * claims"): allocator=NAME[@VERSION] and libc=VERSION. */
#define MR_KEY_ALLOCATOR "allocator"
#define MR_KEY_LIBC "libc"
/* The kernel axis (docs/kernels.md): kernel=W runs in a guest of that
 * kernel; no pair (or kernel=host) on the host.  "when kernel OP V" and
 * "reported since kernel V" compare its version. */
#define MR_KEY_KERNEL "kernel"
/* The runtime axis (MR_KEY_RUNTIME, proto/schema.h): a reference without
 * a pair of it is to the model; runtime=c names the model too. */
/* runtime=*: every original the results ran, one at a time (the claim
 * ranges over them as over an axis it leaves unnamed). */
#define MR_RUNTIME_ANY "*"

/* The version a pair of a reference names: allocator=NAME@[OP]VERSION,
 * libc=VERSION, libc OP VERSION.  Every other pair: op MR_V_ANY, name
 * and version NULL. */
struct mr_vpair {
	enum mr_vop op;    /* MR_V_ANY: no version named */
	char *name;        /* allocator: the name ("jemalloc"); else NULL */
	char *version;     /* the version named, or NULL */
};

/* One key=value pair of a reference. */
struct mr_refpair {
	char *key;          /* the parameter named */
	char *val;          /* as written after the key's "=" (a libc
	                       range: the version) */
	struct mr_vpair vp; /* the version the pair names */
	int line, col;      /* where the key is written */
};

/* A reference: metric[@checkpoint[#seq]][[key=value,...]]. */
struct mr_ref {
	int ckpt;          /* 1: a checkpoint metric, 0: a run metric */
	int metric;        /* index into mr_ckpt_metrics or mr_run_metrics */
	char *checkpoint;  /* checkpoint name, NULL for a run metric */
	int cline, ccol;   /* where the checkpoint name is written */
	long seq;          /* occurrence of the checkpoint, 0: the last one */
	int npairs;        /* number of key=value pairs named */
	struct mr_refpair *pair; /* the npairs pairs, in the arena */
	int line, col;     /* where the reference starts */
	char **unset;      /* the keys of the file's axis directives this
	                      reference leaves unnamed: it takes only configs
	                      without them (the ones the directive did not
	                      add); in the arena */
	int nunset;
	int pinned;        /* a baseline row's, not a claim's: a figure
	                      pinned to a platform, which an allocator's
	                      clock moves on a busy machine (check/values.c) */
};

enum mr_expr_kind { MR_E_NUM, MR_E_REF, MR_E_NEG, MR_E_ADD, MR_E_SUB,
		    MR_E_MUL, MR_E_DIV };

struct mr_expr {
	enum mr_expr_kind kind;
	int paren;            /* written in parentheses */
	int konst;            /* names no metric: its value is num */
	double num;           /* MR_E_NUM, or konst: its value */
	char *text;           /* MR_E_NUM: as written */
	int line, col;        /* where it starts (its "(" when paren) */
	int ref;              /* MR_E_REF: index into the claim's ref[] */
	struct mr_expr *a, *b; /* operands (b: binary only) */
};

enum mr_op { MR_LT, MR_LE, MR_GT, MR_GE };

struct mr_cmp {
	struct mr_expr *l, *r; /* the two sides */
	enum mr_op op;
};

enum mr_status {
	MR_HOLDS,    /* must hold; failing fails the check */
	MR_REPORTED, /* the report said so; reproduces or not, never fails */
};

struct mr_claim {
	char *id;            /* [a-z0-9-]+, unique in the file */
	enum mr_status status;
	char *cite;          /* the report's figure, quotes removed */
	struct mr_cmp *cmp;  /* comparisons, all must hold */
	int ncmp;
	struct mr_ref *ref;  /* every reference, in order of writing */
	int nref;
	char *since_name;    /* "reported since NAME@VERSION": the allocator
	                        (or "libc", or "kernel": "since kernel 6.7"
	                        too) whose VERSION the report's effect
	                        is gone since; NULL: no since */
	char *since_version;
	char *unless_name;   /* "unless NAME@[OP]VERSION": configs of the
	                        allocator NAME at such a version are not the
	                        claim's (what it depends on); NULL: none */
	int unless_op;       /* enum mr_vop: MR_V_EQ or a bound */
	char *unless_version;
	char **when_thp;     /* "when thp=M,...": the platform THP modes the
	                        claim is made for; NULL (nwhen_thp 0): any */
	int nwhen_thp;
	int when_kop[2];     /* "when kernel OP V [and kernel OP V]": enum
	                        mr_vop, the bounds of the kernels (a config's
	                        kernel version, config.h) the claim is made
	                        for; nwhen_kernel 0: any */
	char *when_kver[2];
	int nwhen_kernel;
	int line, col;       /* where the claim starts */
};

/* A directive "axis KEY=V1,V2": the case's matrix also has the configs
 * with KEY=V1 (and V2), beside its configs without KEY, where the command
 * line gives no --axis KEY. */
struct mr_claims_axis {
	char *key;           /* an allocator option or a glibc.* tunable */
	char **val;          /* nval values, as written */
	int nval;
	int line, col;       /* where the key is written */
};

/* At most this many axis directives in a file. */
#define MR_CLAIMS_MAX_AXES 8

struct mr_claims {
	char *path;          /* the file, for messages (owned) */
	struct mr_claim *v;  /* the claims in file order */
	int n;
	struct mr_claims_axis *axis; /* the axis directives, in file order */
	int naxis;
	void **mem;          /* every allocation behind v (owned) */
	size_t nmem, capmem;
};

/* Parse the claims file at path.  Returns 0; -ENOENT when it does not
 * exist (nothing printed; cs is empty); -1 on bad input (one message
 * printed, cs is empty).  Free with mr_claims_free in every case. */
int mr_claims_read(const char *path, struct mr_claims *cs);

/* Parse len bytes of text as if read from path (same returns). */
int mr_claims_parse(const char *path, const char *text, size_t len,
		    struct mr_claims *cs);

void mr_claims_free(struct mr_claims *cs);

/* Check that every key a reference names is a key of some config in
 * cfg[0..n-1] (a misspelt parameter would otherwise skip the claim for
 * ever).  Returns 0, or -1 after printing "path:line:col: ...".  With no
 * configs there is nothing to check against and it returns 0. */
int mr_claims_check_keys(const struct mr_claims *cs,
			 const struct mr_config *cfg, int n);

/* Check that every checkpoint a reference names is one of names[0..n-1],
 * the checkpoints the --describe of the case called casename declares (a
 * misspelt checkpoint would otherwise skip the claim for ever).  Returns
 * 0, or -1 after printing "path:line:col: unknown checkpoint "X" of case
 * C; checkpoints: a, b". */
int mr_claims_check_ckpts(const struct mr_claims *cs, const char *casename,
			  const char *const *names, int n);

/* Non-zero when config c may be one ref selects: it has every key=value
 * ref names, none of the keys it holds unset (ref->unset), an allocator
 * of the name a pair names and, where the config
 * spells the allocator's version (jemalloc@5.2.1) or the libc's, one
 * the pair admits.  A version the config does not spell (the host's) is
 * taken to be admitted: the runner asks this to know which configs to
 * time alone, and may err only that way. */
int mr_ref_selects(const struct mr_ref *ref, const struct mr_config *c);

/* The pair k of ref as written ("madvise=free", "allocator=jemalloc@>=5.2",
 * "libc<2.41"), appended to b. */
struct strbuf;
void mr_ref_pair_src(struct strbuf *b, const struct mr_ref *ref, int k);

/* --- evaluation -------------------------------------------------------- */

/* The data of one case, as the evaluator sees it. */
struct mr_eval_data {
	const struct mr_config *cfg; /* every config of the case in the results */
	int ncfg;
	/* The value of ref at config i (the median over its ok runs): return
	 * 0 and set *out, or return -1 and set *why to a fresh string saying
	 * why there is none ("skipped: libfoo not found"); the caller frees. */
	int (*value)(void *ctx, int i, const struct mr_ref *ref, double *out,
		     char **why);
	void *ctx;                   /* passed to value */
	const char *thp;             /* the platform's THP mode (env.tsv's
	                                thp), or NULL when not recorded */
	const struct mr_config_ver *ver; /* ncfg: the versions of each config
	                                (config.h); NULL: none known (each
	                                allocator's name is its value) */
};

enum mr_claim_outcome {
	MR_CLAIM_TRUE,      /* held in every combination that had data */
	MR_CLAIM_FALSE,     /* false in at least one combination */
	MR_CLAIM_NODATA,    /* no combination had data */
	MR_CLAIM_UNDEFINED, /* false in none, undefined in at least one: a
	                       division by a measured zero, or a result
	                       beyond the doubles (inf, nan) */
};

/* One combination the claim was evaluated at, for the upgrade table. */
struct mr_claim_comb {
	enum mr_claim_outcome outcome; /* TRUE, FALSE, UNDEFINED; NODATA:
	                                  skipped */
	int *cfg;        /* nref: the config each reference took, -1: none
	                    (owned) */
	double *val;     /* nref: the references' values, when judged (TRUE,
	                    FALSE, UNDEFINED); else NULL (owned) */
	char *label;     /* the combination's label ("size=1000000"), "" when
	                    the claim has one combination (owned) */
};

struct mr_claim_result {
	enum mr_claim_outcome outcome;
	int ncomb;       /* combinations considered */
	int ntrue;       /* ... that held */
	int nfalse;      /* ... that were false */
	int nskipped;    /* ... without data */
	int nundefined;  /* ... whose value was undefined */
	char *detail;    /* one line: figures of a failing (or the first)
	                    combination, why one was undefined, or why all
	                    were skipped (owned) */
	char *words;     /* the same in words (check/words.h), NULL when
	                    the outcome is neither TRUE nor FALSE (owned) */
	char **lines;    /* one line per combination, for verbose (owned) */
	int nlines;
	struct mr_claim_comb *comb; /* ncomb: every combination (owned) */
};

/* Evaluate c over the configs in d: once per combination of the values of
 * the axes (keys whose value differs between configs) that some reference
 * leaves unnamed, and of the versions of each allocator that has several
 * in d (an allocator's versions are an axis of their own: a reference
 * that names the allocator without pinning one version ranges over
 * them; a range, allocator=jemalloc@>=5.2 or libc>=2.41, leaves out the
 * combinations outside it).  A combination is false when one of its comparisons is
 * false, else undefined when one of them divides by zero or leaves the
 * finite doubles, else true.  A claim made "when thp=..." for other THP modes than d->thp
 * is not evaluated: MR_CLAIM_NODATA, the detail says why.  Fills r (free
 * with mr_claim_result_free). */
void mr_claim_eval(const struct mr_claim *c, const struct mr_eval_data *d,
		   struct mr_claim_result *r);

void mr_claim_result_free(struct mr_claim_result *r);

#endif
