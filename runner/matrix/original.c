/* original: the header of a report's own program — see original.h. */
#include "matrix/original.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/tsv.h"

static const char *const directives[] = { "params", "ignores", "flags", "env" };

/* The next word of *p (spaces and tabs between words); its column. */
static char *
word(char **p, const char *line0, long *col)
{
	char *s = *p, *w;

	s += strspn(s, " \t");
	if (!*s)
		return NULL;
	w = s;
	s += strcspn(s, " \t");
	if (*s)
		*s++ = '\0';
	*p = s;
	*col = (long)(w - line0) + 1;
	return w;
}

static void
push(char ***v, int *n, const char *s)
{
	*v = erealloc(*v, (size_t)(*n + 2) * sizeof **v);
	(*v)[(*n)++] = estrdup(s);
	(*v)[*n] = NULL;
}

static int
valid_var(const char *s, size_t len)
{
	size_t i;

	if (!len || (s[0] >= '0' && s[0] <= '9'))
		return 0;
	for (i = 0; i < len; i++)
		if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return 0;
	return 1;
}

/* "env P=V VAR=X": the rest of the line after "env". */
static int
read_env(struct mr_original *o, const struct mr_cases_desc *c, char *p,
	 const char *line0, long ln)
{
	long col = 0, col2 = 0;
	char *pv = word(&p, line0, &col), *as = word(&p, line0, &col2), *eq, *canon;
	const struct mr_cases_param *prm;

	if (o->nenv == MR_ORIGINAL_MAX_ENV) {
		mr_errat(o->path, ln, col, "at most %d env lines", MR_ORIGINAL_MAX_ENV);
		return -1;
	}
	if (!pv || !as || word(&p, line0, &col2)) {
		mr_errat(o->path, ln, col, "want: env PARAM=VALUE VARIABLE=VALUE");
		return -1;
	}
	eq = strchr(pv, '=');
	prm = eq ? (*eq = '\0', mr_cases_find_param(c, pv)) : NULL;
	if (!prm) {
		mr_errat(o->path, ln, col, "%s is not a parameter of %s", pv, c->name);
		return -1;
	}
	if (mr_cases_canon_value(prm, eq + 1, &canon) < 0) {
		mr_errat(o->path, ln, col + (long)(eq - pv) + 1, "%s: value '%s' not allowed (%s)",
			 pv, eq + 1, prm->allowed);
		return -1;
	}
	eq = strchr(as, '=');
	if (!eq || !valid_var(as, (size_t)(eq - as))) {
		free(canon);
		mr_errat(o->path, ln, col2, "want VARIABLE=VALUE ([A-Z_][A-Z0-9_]*), not '%s'", as);
		return -1;
	}
	o->env = erealloc(o->env, (size_t)(o->nenv + 1) * sizeof *o->env);
	o->env[o->nenv].param = estrdup(pv);
	o->env[o->nenv].value = canon;
	o->env[o->nenv++].assign = estrdup(as);
	return 0;
}

/* One "memrepro:" line: p after it. */
static int
directive(struct mr_original *o, const struct mr_cases_desc *c, char *p,
	  const char *line0, long ln)
{
	long col = 0;
	char *d = word(&p, line0, &col), *w;
	size_t k;

	for (k = 0; d && k < sizeof directives / sizeof *directives; k++)
		if (strcmp(d, directives[k]) == 0)
			break;
	if (!d || k == sizeof directives / sizeof *directives) {
		mr_errat(o->path, ln, d ? col : 0, "unknown directive '%s' (want params, ignores, flags or env)",
			 d ? d : "");
		return -1;
	}
	if (k == 3)
		return read_env(o, c, p, line0, ln);
	while ((w = word(&p, line0, &col)) != NULL) {
		if (k == 2) {
			push(&o->flags, &o->nflags, w);
			continue;
		}
		if (!mr_cases_find_param(c, w)) {
			mr_errat(o->path, ln, col, "%s is not a parameter of %s", w, c->name);
			return -1;
		}
		if (k == 0)
			push(&o->params, &o->nparams, w);
		else
			push(&o->ignores, &o->nignores, w);
	}
	return 0;
}

int
mr_original_read(const char *path, const char *comment,
		 const struct mr_cases_desc *c, struct mr_original *o)
{
	struct strbuf text = { 0 };
	char *line, *next;
	size_t clen = strlen(comment);
	long ln;
	int rc;

	memset(o, 0, sizeof *o);
	o->path = estrdup(path);
	rc = mr_read_text(path, MR_ORIGINAL_MAX, "original", &text);
	if (rc < 0) {
		mr_original_free(o);
		return rc == -ENOENT ? -ENOENT : -1;
	}
	for (line = text.s, ln = 1; line && *line && ln <= MR_ORIGINAL_HEAD; line = next, ln++) {
		char *p = line;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		p += strspn(p, " \t");
		if (strncmp(p, comment, clen) != 0)
			continue;
		p += clen;
		p += strspn(p, " \t");
		if (strncmp(p, "memrepro:", 9) != 0)
			continue;
		if (directive(o, c, p + 9, line, ln) < 0) {
			sb_free(&text);
			mr_original_free(o);
			return -1;
		}
	}
	sb_free(&text);
	return 0;
}

void
mr_original_free(struct mr_original *o)
{
	char **v[] = { o->params, o->ignores, o->flags };
	size_t k;
	int i;

	for (k = 0; k < sizeof v / sizeof *v; k++) {
		for (i = 0; v[k] && v[k][i]; i++)
			free(v[k][i]);
		free(v[k]);
	}
	for (i = 0; i < o->nenv; i++) {
		free(o->env[i].param);
		free(o->env[i].value);
		free(o->env[i].assign);
	}
	free(o->env);
	free(o->path);
	memset(o, 0, sizeof *o);
}

static int
listed(char *const *v, const char *s)
{
	for (; v && *v; v++)
		if (strcmp(*v, s) == 0)
			return 1;
	return 0;
}

char *
mr_original_skip(const struct mr_original *o, const struct mr_cases_desc *c,
		 const struct mr_matrix_kv *kv, int nkv)
{
	const char *base = strrchr(o->path, '/');
	int i, k;

	base = base ? base + 1 : o->path;
	for (i = 0; i < nkv; i++) {
		const struct mr_cases_param *p = mr_cases_find_param(c, kv[i].key);
		int mapped = 0;

		if (!p || listed(o->params, p->name) || listed(o->ignores, p->name))
			continue;
		for (k = 0; k < o->nenv; k++)
			if (strcmp(o->env[k].param, p->name) == 0 && strcmp(o->env[k].value, kv[i].val) == 0)
				mapped = 1;
		if (!mapped && strcmp(kv[i].val, p->def) != 0)
			return esprintf("%s takes no parameter %s (%s=%s here, default %s)", base,
					p->name, p->name, kv[i].val, p->def);
	}
	return NULL;
}

void
mr_original_args(const struct mr_original *o, const struct mr_matrix_kv *kv, int nkv,
		 char **argv, int *n, char **env, int *ne)
{
	int i, k;

	for (i = 0; i < o->nflags; i++)
		argv[(*n)++] = estrdup(o->flags[i]);
	argv[(*n)++] = estrdup(o->path);
	for (i = 0; i < nkv; i++) {
		if (listed(o->params, kv[i].key)) {
			argv[(*n)++] = estrdup("--param");
			argv[(*n)++] = esprintf("%s=%s", kv[i].key, kv[i].val);
		}
		for (k = 0; k < o->nenv; k++)
			if (strcmp(o->env[k].param, kv[i].key) == 0 && strcmp(o->env[k].value, kv[i].val) == 0)
				env[(*ne)++] = estrdup(o->env[k].assign);
	}
}
