/* pdirective: the axis directives of a claims file ("axis KEY=V,...",
 * docs/formats.md "Axis directives"), read for parse.c — see parse.h. */
#include "check/parse.h"

#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* "axis KEY=V1[,V2...]" to the end of the line ("axis" already read):
 * the configs with KEY=V added to the case's matrix (claims.h).  The key
 * is checked as a key here (an allocator option NAME.OPTION or a glibc.*
 * tunable: written with a "."); the session checks it and its values
 * against the allocators and the glibc. */
void
mr_parse_axis(struct mr_parser *p)
{
	struct mr_claims *cs = p->cs;
	struct mr_claims_axis a = {0};
	struct mr_tok t = mr_lex_next(p, M_KEY);
	int i;

	if (t.k != T_WORD)
		mr_lex_unexpected(p, &t, "KEY=VALUE after \"axis\" (axis jemalloc.dirty_decay_ms=-1)");
	a.key = mr_claims_strndup(cs, p->buf + t.off, t.end - t.off);
	a.line = t.line;
	a.col = t.col;
	if (!strchr(a.key, '.') || a.key[0] == '.' || a.key[strlen(a.key) - 1] == '.')
		mr_lex_err(p, t.line, t.col,
		     "an axis directive adds configs of an allocator option or a glibc tunable (jemalloc.dirty_decay_ms, glibc.malloc.mmap_threshold), got \"%s\"",
		     a.key);
	if (cs->naxis == MR_CLAIMS_MAX_AXES)
		mr_lex_err(p, t.line, t.col, "too many axis directives in one file (limit: %d)",
		     MR_CLAIMS_MAX_AXES);
	for (i = 0; i < cs->naxis; i++)
		if (!strcmp(cs->axis[i].key, a.key))
			mr_lex_err(p, t.line, t.col, "axis %s given twice (first on line %d)",
			     a.key, cs->axis[i].line);
	t = mr_lex_next(p, M_KEY);
	if (!mr_lex_is(p, &t, T_PUNCT, "="))
		mr_lex_unexpected(p, &t, "\"=\" after the axis key");
	for (;;) {
		t = mr_lex_next(p, M_VAL);
		if (t.k != T_WORD)
			mr_lex_unexpected(p, &t, "a value of the axis");
		for (i = 0; i < a.nval; i++)
			if (mr_lex_is(p, &t, T_WORD, a.val[i]))
				mr_lex_err(p, t.line, t.col, "value \"%s\" named twice", a.val[i]);
		if (a.nval == MR_REF_MAX_PAIRS)
			mr_lex_err(p, t.line, t.col, "too many values in one axis (limit: %d)",
			     MR_REF_MAX_PAIRS);
		a.val = mr_claims_grow(cs, a.val, sizeof *a.val * (a.nval + 1));
		a.val[a.nval++] = mr_claims_strndup(cs, p->buf + t.off, t.end - t.off);
		t = mr_lex(p, M_KEY);
		if (!mr_lex_is(p, &t, T_PUNCT, ","))
			break;
		mr_lex_commit(p, &t);
	}
	t = mr_lex(p, M_HEAD);
	if (t.k != T_EOL && t.k != T_EOF)
		mr_lex_unexpected(p, &t, "\",\" or the end of the line after the axis' values");
	mr_lex_commit(p, &t);
	cs->axis = mr_claims_grow(cs, cs->axis, sizeof *cs->axis * (cs->naxis + 1));
	cs->axis[cs->naxis++] = a;
}

/* Whether r has a pair of key. */
static int
has_pair(const struct mr_ref *r, const char *key)
{
	int k;

	for (k = 0; k < r->npairs; k++)
		if (!strcmp(r->pair[k].key, key))
			return 1;
	return 0;
}

/* Every reference that leaves a directive's key unnamed takes only the
 * configs without it: the claims written for the default configs keep
 * their meaning beside the added ones.  The same for the runtime axis,
 * directive or not: a reference without runtime= is to the model. */
void
mr_claims_mark_unset(struct mr_claims *cs)
{
	int i, j, a;

	for (i = 0; i < cs->n; i++) {
		for (j = 0; j < cs->v[i].nref; j++) {
			struct mr_ref *r = &cs->v[i].ref[j];
			int runtime = has_pair(r, MR_KEY_RUNTIME);

			for (a = 0; a < cs->naxis; a++) {
				if (has_pair(r, cs->axis[a].key))
					continue;
				if (!strcmp(cs->axis[a].key, MR_KEY_RUNTIME))
					runtime = 1;
				r->unset = mr_claims_grow(cs, r->unset, sizeof *r->unset * (r->nunset + 1));
				r->unset[r->nunset++] = cs->axis[a].key;
			}
			if (!runtime) {
				r->unset = mr_claims_grow(cs, r->unset, sizeof *r->unset * (r->nunset + 1));
				r->unset[r->nunset++] = MR_KEY_RUNTIME;
			}
		}
	}
}
