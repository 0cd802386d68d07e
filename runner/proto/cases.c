/* cases: discovery of case binaries and strict parsing of --describe. */
#include "proto/cases.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mr_case.h"
#include "mr_schema.h"


static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
mr_cases_discover(const char *dir, char ***names)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **v = NULL;
	int n = 0, cap = 0;

	*names = NULL;
	if (!d)
		return -errno;
	while ((de = readdir(d)) != NULL) {
		struct stat st;
		char *p;
		int ok;

		if (!mr_name_case(de->d_name))
			continue;
		p = esprintf("%s/%s", dir, de->d_name);
		ok = stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
		free(p);
		if (!ok)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			v = erealloc(v, (size_t)cap * sizeof *v);
		}
		v[n++] = estrdup(de->d_name);
	}
	closedir(d);
	if (n)
		qsort(v, (size_t)n, sizeof *v, cmp_str);
	*names = v;
	return n;
}

void
mr_cases_free_names(char **names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* --- parsing --------------------------------------------------------- */

/* Where a message points: origin, line, column (1-based, in bytes). */
struct pos {
	const char *origin;
	struct strbuf *err;
	int line;
	const char *bol;  /* start of the current line */
};

static int __attribute__((format(printf, 3, 4)))
perr(struct pos *ps, const char *at, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		eprintf("vasprintf:");
	va_end(ap);
	sb_printf(ps->err, "%s:%d:%d: %s", ps->origin, ps->line,
		  (int)(at - ps->bol) + 1, msg);
	free(msg);
	return -1;
}

static int
charset(const char *s, const char *extra, int upper)
{
	if (!*s)
		return 0;
	for (; *s; s++) {
		char c = *s;

		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		    (upper && c >= 'A' && c <= 'Z') || (c && strchr(extra, c)))
			continue;
		return 0;
	}
	return 1;
}

/* A decimal integer as written in a describe or on the command line:
 * an optional '-' and digits, nothing else. */
static int
strict_ll(const char *s, long long *out)
{
	const char *p = s;

	if (*p == '-')
		p++;
	if (!*p)
		return -EINVAL;
	for (; *p; p++)
		if (*p < '0' || *p > '9')
			return -EINVAL;
	return parse_ll(s, out);
}

int
mr_cases_canon_value(const struct mr_cases_param *p, const char *v, char **canon)
{
	int i;

	if (p->is_int) {
		long long x;

		if (strict_ll(v, &x) < 0 || x < p->min || x > p->max)
			return -EINVAL;
		*canon = esprintf("%lld", x);
		return 0;
	}
	for (i = 0; i < p->nenums; i++) {
		if (strcmp(p->enums[i], v) == 0) {
			*canon = estrdup(v);
			return 0;
		}
	}
	return -EINVAL;
}

/* Values of an enumeration or axis list: "a|b|c", each [A-Za-z0-9_.-]+
 * (they end up in config strings and file names), no duplicates. */
static int
parse_list(struct pos *ps, const char *field, char ***out, int *nout)
{
	char *copy = estrdup(field), *s = copy;
	char **v = NULL;
	int n = 0, i, rc = 0;

	for (;;) {
		char *bar = strchr(s, '|');

		if (bar)
			*bar = '\0';
		if (!charset(s, "_.-", 1)) {
			rc = perr(ps, field + (s - copy), "bad value '%s' (want [A-Za-z0-9_.-]+ separated by '|')", s);
			break;
		}
		for (i = 0; i < n; i++) {
			if (strcmp(v[i], s) == 0) {
				rc = perr(ps, field + (s - copy), "value '%s' listed twice", s);
				break;
			}
		}
		if (rc)
			break;
		v = erealloc(v, (size_t)(n + 1) * sizeof *v);
		v[n++] = estrdup(s);
		if (!bar)
			break;
		s = bar + 1;
	}
	free(copy);
	if (rc) {
		for (i = 0; i < n; i++)
			free(v[i]);
		free(v);
		return -1;
	}
	*out = v;
	*nout = n;
	return 0;
}

static int
parse_allowed(struct pos *ps, const char *f, struct mr_cases_param *p)
{
	if (strncmp(f, "int:", 4) == 0) {
		const char *dots = strstr(f + 4, "..");
		char *lo;
		int rc;

		if (!dots)
			return perr(ps, f, "bad integer range '%s' (want int:MIN..MAX)", f);
		lo = estrndup(f + 4, (size_t)(dots - f - 4));
		rc = strict_ll(lo, &p->min) < 0 || strict_ll(dots + 2, &p->max) < 0;
		free(lo);
		if (rc)
			return perr(ps, f, "bad integer range '%s' (want int:MIN..MAX)", f);
		if (p->min > p->max)
			return perr(ps, f, "empty integer range '%s'", f);
		p->is_int = 1;
		return 0;
	}
	return parse_list(ps, f, &p->enums, &p->nenums);
}

static void
param_free(struct mr_cases_param *p)
{
	int i;

	free(p->name);
	free(p->def);
	free(p->quick);
	free(p->allowed);
	free(p->help);
	for (i = 0; i < p->nenums; i++)
		free(p->enums[i]);
	free(p->enums);
	for (i = 0; i < p->naxis; i++)
		free(p->axis[i]);
	free(p->axis);
	memset(p, 0, sizeof *p);
}

/* "param NAME DEFAULT QUICK ALLOWED AXIS HELP" (f[0] is "param"). */
static int
parse_param(struct pos *ps, char **f, struct mr_cases_desc *c)
{
	struct mr_cases_param p = { 0 };
	char **axis = NULL;
	int naxis = 0, i;

	if (!mr_name_param_form(f[1]))
		return perr(ps, f[1], "bad parameter name '%s' (want " MR_PARAM_NAME_RULE ")", f[1]);
	if (mr_name_reserved(f[1]))
		return perr(ps, f[1], "parameter name '%s' is reserved for the runner", f[1]);
	if (mr_cases_find_param(c, f[1]))
		return perr(ps, f[1], "parameter '%s' declared twice", f[1]);
	if (parse_allowed(ps, f[4], &p) < 0)
		goto bad;
	if (mr_cases_canon_value(&p, f[2], &p.def) < 0) {
		perr(ps, f[2], "default '%s' is not allowed by '%s'", f[2], f[4]);
		goto bad;
	}
	if (mr_cases_canon_value(&p, f[3], &p.quick) < 0) {
		perr(ps, f[3], "quick value '%s' is not allowed by '%s'", f[3], f[4]);
		goto bad;
	}
	if (strcmp(f[5], "-") != 0) {
		if (parse_list(ps, f[5], &axis, &naxis) < 0)
			goto bad;
		p.axis = ecalloc((size_t)naxis, sizeof *p.axis);
		for (i = 0; i < naxis; i++) {
			if (mr_cases_canon_value(&p, axis[i], &p.axis[p.naxis]) < 0) {
				perr(ps, f[5], "axis value '%s' is not allowed by '%s'", axis[i], f[4]);
				goto bad;
			}
			p.naxis++;
		}
	}
	if (!*f[6]) {
		perr(ps, f[6], "empty help");
		goto bad;
	}
	p.name = estrdup(f[1]);
	p.allowed = estrdup(f[4]);
	p.help = estrdup(f[6]);
	for (i = 0; i < naxis; i++)
		free(axis[i]);
	free(axis);
	c->params = erealloc(c->params, (size_t)(c->nparams + 1) * sizeof *c->params);
	c->params[c->nparams++] = p;
	return 0;
bad:
	for (i = 0; i < naxis; i++)
		free(axis[i]);
	free(axis);
	param_free(&p);
	return -1;
}

static int
parse_ckpt(struct pos *ps, char **f, struct mr_cases_desc *c)
{
	if (!mr_name_checkpoint(f[1]) && strlen(f[1]) > MR_CKPT_NAME_MAX)
		return perr(ps, f[1], "checkpoint name longer than %d bytes", MR_CKPT_NAME_MAX);
	if (!mr_name_checkpoint(f[1]))
		return perr(ps, f[1], "bad checkpoint name '%s' (want [a-z0-9_-]+)", f[1]);
	if (mr_cases_has_ckpt(c, f[1]))
		return perr(ps, f[1], "checkpoint '%s' declared twice", f[1]);
	if (!*f[2])
		return perr(ps, f[2], "empty help");
	c->ckpts = erealloc(c->ckpts, (size_t)(c->nckpts + 1) * sizeof *c->ckpts);
	c->ckpts[c->nckpts].name = estrdup(f[1]);
	c->ckpts[c->nckpts].help = estrdup(f[2]);
	c->nckpts++;
	return 0;
}

/* Non-zero when v is one word of the '|'-separated list. */
static int in_list(const char *list, const char *v)
{
	size_t n = strlen(v);

	for (const char *a = list; a;) {
		const char *bar = strchr(a, '|');
		size_t k = bar ? (size_t)(bar - a) : strlen(a);

		if (k == n && strncmp(a, v, n) == 0)
			return 1;
		a = bar ? bar + 1 : NULL;
	}
	return 0;
}

/* A one-field line: name, title, source, mechanism, timeout. */
static int
parse_single(struct pos *ps, char **f, struct mr_cases_desc *c, const char *name,
	     int *seen_timeout)
{
	const char *k = f[0], *v = f[1];

	if (!*v)
		return perr(ps, v, "empty %s", k);
	if (strcmp(k, "name") == 0) {
		if (c->name)
			return perr(ps, k, "second 'name' line");
		if (strcmp(v, name) != 0)
			return perr(ps, v, "name '%s' differs from the binary's name '%s'", v, name);
		c->name = estrdup(v);
	} else if (strcmp(k, "title") == 0) {
		if (c->title)
			return perr(ps, k, "second 'title' line");
		c->title = estrdup(v);
	} else if (strcmp(k, "source") == 0) {
		if (c->source)
			return perr(ps, k, "second 'source' line");
		c->source = estrdup(v);
	} else if (strcmp(k, "mechanism") == 0) {
		if (c->mechanism)
			return perr(ps, k, "second 'mechanism' line");
		if (!in_list(MR_MECHANISMS, v))
			return perr(ps, v, "unknown mechanism '%s' (want one of %s)", v, MR_MECHANISMS);
		c->mechanism = estrdup(v);
	} else { /* timeout */
		long long t;

		if (*seen_timeout)
			return perr(ps, k, "second 'timeout' line");
		if (strict_ll(v, &t) < 0 || t < 0 || t > 86400)
			return perr(ps, v, "bad timeout '%s' (want seconds, 0..86400)", v);
		c->timeout_s = (unsigned)t;
		*seen_timeout = 1;
	}
	return 0;
}

int
mr_cases_parse(const char *name, const char *origin, const char *text,
	       size_t len, struct mr_cases_desc *out, struct strbuf *err)
{
	struct mr_cases_desc c = { 0 };
	struct pos ps = { origin, err, 0, NULL };
	char *buf = emalloc(len + 1), *line, *next;
	int seen_timeout = 0, rc = 0;

	memcpy(buf, text, len);
	buf[len] = '\0';
	memset(out, 0, sizeof *out);
	if (strlen(buf) != len) {
		ps.line = 1;
		ps.bol = buf;
		rc = perr(&ps, buf, "NUL byte in the output");
		goto done;
	}
	for (line = buf; *line; line = next) {
		char *f[8], *nl = strchr(line, '\n'), *eol;
		int nf, want;

		next = nl ? nl + 1 : line + strlen(line);
		if (nl)
			*nl = '\0';
		ps.line++;
		ps.bol = line;
		if (strchr(line, '\r')) {
			rc = perr(&ps, strchr(line, '\r'), "carriage return");
			break;
		}
		eol = line + strlen(line);
		nf = split(line, '\t', f, 8);
		if (ps.line == 1) {
			if (strcmp(f[0], "memrepro-case") != 0) {
				rc = perr(&ps, line, "not a case description (first line must be 'memrepro-case<TAB>1')");
				break;
			}
			if (nf != 2 || strcmp(f[1], "1") != 0) {
				rc = perr(&ps, nf > 1 ? f[1] : line, "unsupported description format (want version 1)");
				break;
			}
			continue;
		}
		if (strcmp(f[0], "param") == 0)
			want = 7;
		else if (strcmp(f[0], "checkpoint") == 0)
			want = 3;
		else if (strcmp(f[0], "name") == 0 || strcmp(f[0], "title") == 0 ||
			 strcmp(f[0], "source") == 0 || strcmp(f[0], "timeout") == 0 ||
			 strcmp(f[0], "mechanism") == 0)
			want = 2;
		else {
			rc = perr(&ps, line, *f[0] ? "unknown line kind '%s'" : "empty line%s", f[0]);
			break;
		}
		if (nf != want) {
			rc = perr(&ps, nf > want ? f[want] : eol,
				  "'%s' line has %d fields, want %d", f[0], nf, want);
			break;
		}
		if (want == 7)
			rc = parse_param(&ps, f, &c);
		else if (want == 3)
			rc = parse_ckpt(&ps, f, &c);
		else
			rc = parse_single(&ps, f, &c, name, &seen_timeout);
		if (rc)
			break;
	}
	if (!rc) {
		const char *miss = !c.name ? "name" : !c.title ? "title" :
				   !c.source ? "source" : NULL;

		ps.line++;
		ps.bol = line;
		if (ps.line == 1)
			rc = perr(&ps, line, "empty description");
		else if (miss)
			rc = perr(&ps, line, "no '%s' line", miss);
	}
done:
	free(buf);
	if (rc) {
		mr_cases_free(&c);
		return -1;
	}
	*out = c;
	return 0;
}

void
mr_cases_free(struct mr_cases_desc *c)
{
	int i;

	free(c->name);
	free(c->path);
	free(c->title);
	free(c->source);
	free(c->mechanism);
	for (i = 0; i < c->nparams; i++)
		param_free(&c->params[i]);
	free(c->params);
	for (i = 0; i < c->nckpts; i++) {
		free(c->ckpts[i].name);
		free(c->ckpts[i].help);
	}
	free(c->ckpts);
	memset(c, 0, sizeof *c);
}

const struct mr_cases_param *
mr_cases_find_param(const struct mr_cases_desc *c, const char *name)
{
	int i;

	for (i = 0; i < c->nparams; i++)
		if (strcmp(c->params[i].name, name) == 0)
			return &c->params[i];
	return NULL;
}

int
mr_cases_has_ckpt(const struct mr_cases_desc *c, const char *name)
{
	int i;

	for (i = 0; i < c->nckpts; i++)
		if (strcmp(c->ckpts[i].name, name) == 0)
			return 1;
	return 0;
}
