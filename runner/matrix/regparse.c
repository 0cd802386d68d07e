/* regparse: the allocator registry's files and --alloc — see regparse.h
 * and docs/formats.md, "Allocators". */
#include "matrix/regparse.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/suggest.h"
#include "proto/schema.h"

/* A registry file is a few kB; one of more is not a registry. */
#define MAX_FILE (1 << 20)
#define MAX_LINE 4096

static const char *const fields[] = {
	"library", "package", "search", "options", "default", "preload", "build", NULL
};

int
mr_alloc_valid_soname(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s == ':' || *s == ' ' || (unsigned char)*s < 0x20 || *s == 0x7f)
			return 0;
	return 1;
}

/* --- the file format ------------------------------------------------- */

struct parser {
	const char *file;
	int line;
	const char *bol;     /* the line being read */
	const char *vbase;   /* when not NULL: messages point into this copy
	                        of the value, which starts at column vcol */
	int vcol;
	struct strbuf *err;
	struct mr_registry_entry cur; /* the entry being read (name NULL: none) */
	int cur_line;
	int seen[8];         /* line of each field of fields[] in cur, 0: not yet */
	char **names;        /* entries of this file, for "given twice" */
	int *lines;
	int nnames;
};

static int
fail(struct parser *p, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
fail(struct parser *p, const char *at, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	sb_printf(p->err, "%s:%d:%d: %s", p->file, p->line,
		  p->vbase ? p->vcol + (int)(at - p->vbase) : (int)(at - p->bol) + 1, msg);
	return -1;
}

static int
name_char(int c, int first)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       (!first && (c == '_' || c == '-'));
}

/* Where s stops being a name, or NULL when s is a whole valid name. */
static const char *
bad_name(const char *s, size_t n)
{
	size_t i;

	if (n == 0)
		return s;
	for (i = 0; i < n; i++)
		if (!name_char((unsigned char)s[i], i == 0))
			return s + i;
	return NULL;
}

static int
release_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
}

/* The entry being read is complete: check it and store it in r. */
static int
finish(struct parser *p, struct mr_registry *r)
{
	int i;

	if (!p->cur.name)
		return 0;
	p->cur.preload &= !p->cur.build_musl; /* musl's libc is linked in */
	if (p->cur.preload && strcmp(p->cur.name, MR_ALLOC_GLIBC) == 0) {
		sb_printf(p->err, "%s:%d:2: entry [glibc] has no 'preload = no': it would preload %s while the results say glibc (the C library itself)",
			  p->file, p->cur_line, p->cur.library ? p->cur.library : "its library");
		return -1;
	}
	if (!p->cur.library) {
		p->line = p->cur_line;
		sb_printf(p->err, "%s:%d:1: entry [%s] has no library: add a line 'library = FILE'",
			  p->file, p->cur_line, p->cur.name);
		return -1;
	}
	for (i = 0; i < p->nnames; i++) {
		if (strcmp(p->names[i], p->cur.name) == 0) {
			sb_printf(p->err, "%s:%d:2: entry [%s] given twice in this file (first at line %d)",
				  p->file, p->cur_line, p->cur.name, p->lines[i]);
			return -1;
		}
	}
	p->names = erealloc(p->names, (size_t)(p->nnames + 1) * sizeof *p->names);
	p->lines = erealloc(p->lines, (size_t)(p->nnames + 1) * sizeof *p->lines);
	p->names[p->nnames] = estrdup(p->cur.name);
	p->lines[p->nnames++] = p->cur_line;
	mr_registry_put(r, &p->cur);
	return 0;
}

static int
header(struct parser *p, struct mr_registry *r, const char *s, const char *end)
{
	const char *close = memchr(s, ']', (size_t)(end - s)), *bad, *t;

	if (finish(p, r) < 0)
		return -1;
	if (!close)
		return fail(p, end, "want ']' to close the entry name");
	for (t = close + 1; t < end && (*t == ' ' || *t == '\t'); t++)
		;
	if (t < end && *t != '#')
		return fail(p, t, "unexpected text after [%.*s]", (int)(close - s - 1), s + 1);
	if ((bad = bad_name(s + 1, (size_t)(close - s - 1))) != NULL)
		return fail(p, bad, "bad allocator name '%.*s': want lower-case letters and digits, then also '_' or '-'",
			    (int)(close - s - 1), s + 1);
	memset(&p->cur, 0, sizeof p->cur);
	memset(p->seen, 0, sizeof p->seen);
	p->cur.name = estrndup(s + 1, (size_t)(close - s - 1));
	p->cur.preload = 1;
	p->cur.origin = esprintf("%s:%d", p->file, p->line);
	p->cur_line = p->line;
	return 0;
}

static int
yes_no(struct parser *p, const char *v, const char *key, int *out)
{
	if (strcmp(v, "yes") == 0)
		*out = 1;
	else if (strcmp(v, "no") == 0)
		*out = 0;
	else
		return fail(p, v, "%s '%s': want yes or no", key, v);
	return 0;
}

/* "preload = no" is the C library's, and the C library is [glibc]: a
 * [glibc] that preloads, or another entry that does not, would run one
 * malloc under the name of another. */
static int
preload(struct parser *p, const char *v)
{
	int glibc = strcmp(p->cur.name, MR_ALLOC_GLIBC) == 0;

	if (yes_no(p, v, "preload", &p->cur.preload) < 0)
		return -1;
	if (glibc && p->cur.preload)
		return fail(p, v, "preload yes: [glibc] is the C library itself, which nothing preloads; its results would say glibc while another malloc ran");
	if (!glibc && !p->cur.preload)
		return fail(p, v, "preload no: only [glibc], the C library itself, preloads nothing; [%s] would run glibc's malloc under its name",
			    p->cur.name);
	return 0;
}

/* "build = musl": the case's second build, with musl-gcc; "host": its own. */
static int
build(struct parser *p, const char *v)
{
	p->cur.build_musl = strcmp(v, "musl") == 0;
	return p->cur.build_musl || strcmp(v, "host") == 0 ? 0 :
	       fail(p, v, "build '%s': want host or musl", v);
}

static int
valid_package(const char *s)
{
	if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9')) || !s[1])
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      *s == '+' || *s == '-' || *s == '.'))
			return 0;
	return 1;
}

static int
valid_var(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || (s[0] >= '0' && s[0] <= '9'))
		return 0;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return 0;
	return 1;
}

/* The variables the runner sets for a case itself: the loader's (its
 * LD_PRELOAD, a runtime's LD_LIBRARY_PATH), its own channel and marks
 * (MEMREPRO_CKPT_FD, MEMREPRO_RUN, ...), glibc's tunables and ruby's
 * RUBYLIB.  An option channel that could make one of them would give a
 * case a second entry of it, or replace the runner's: the run recorded
 * under one allocator would run another, or write its records elsewhere. */
static const struct { const char *name; int prefix; } runner_vars[] = {
	{ "LD_", 1 }, { "MEMREPRO_", 1 }, { "GLIBC_TUNABLES", 0 }, { "RUBYLIB", 0 },
};

/* The runner's variable (or family, "LD_*") that option channel var of
 * kind conf (env 0: exactly var) or env (env 1: var followed by a key of
 * [A-Z0-9_]+) could make, or NULL when none. */
static const char *
runner_var(const char *var, int env, char *buf, size_t size)
{
	size_t i, vn = strlen(var);

	for (i = 0; i < sizeof runner_vars / sizeof *runner_vars; i++) {
		const char *r = runner_vars[i].name;
		size_t rn = strlen(r);
		int hit;

		if (runner_vars[i].prefix) /* var within the family, or the family within var's */
			hit = strncmp(var, r, rn) == 0 || (env && strncmp(r, var, vn) == 0);
		else
			hit = env ? vn < rn && strncmp(r, var, vn) == 0 : strcmp(var, r) == 0;
		if (hit) {
			snprintf(buf, size, "%s%s", r, runner_vars[i].prefix ? "*" : "");
			return buf;
		}
	}
	return NULL;
}

static int
options(struct parser *p, char *v)
{
	char *sp = v + strcspn(v, " \t"), *arg = sp, which[32];

	while (*arg == ' ' || *arg == '\t')
		arg++;
	if (strncmp(v, "none", 4) == 0 && sp == v + 4 && !*arg) {
		p->cur.opt.kind = MR_REG_OPT_NONE;
	} else if (strncmp(v, "tunables", 8) == 0 && sp == v + 8 && !*arg) {
		p->cur.opt.kind = MR_REG_OPT_TUNABLES;
	} else if ((strncmp(v, "conf", 4) == 0 && sp == v + 4) ||
		   (strncmp(v, "env", 3) == 0 && sp == v + 3)) {
		if (!valid_var(arg, strlen(arg)))
			return fail(p, arg, "options %.*s: want an environment variable name (A-Z, 0-9, _)%s",
				    (int)(sp - v), v, *v == 'e' ? " or prefix, such as MIMALLOC_" :
				    ", such as MALLOC_CONF");
		if (runner_var(arg, *v == 'e', which, sizeof which))
			return fail(p, arg, "options %.*s %s: %s the runner's own (%s): it sets LD_*, MEMREPRO_*, GLIBC_TUNABLES and RUBYLIB for a case itself",
				    (int)(sp - v), v, arg, *v == 'e' ? "its variables could be" :
				    "a variable of", which);
		p->cur.opt.kind = *v == 'c' ? MR_REG_OPT_CONF : MR_REG_OPT_ENV;
		p->cur.opt.var = estrdup(arg);
	} else {
		return fail(p, v, "options '%s': want none, tunables, conf VARIABLE or env PREFIX", v);
	}
	return 0;
}

static int
search(struct parser *p, char *v)
{
	int n = 0;

	while (*v) {
		size_t len = strcspn(v, " \t");

		if (*v != '/')
			return fail(p, v, "search '%.*s': want an absolute directory (a glob pattern)",
				    (int)len, v);
		p->cur.search = erealloc(p->cur.search, (size_t)(n + 2) * sizeof *p->cur.search);
		p->cur.search[n++] = estrndup(v, len);
		p->cur.search[n] = NULL;
		for (v += len; *v == ' ' || *v == '\t'; v++)
			;
	}
	return 0;
}

/* "package@trixie,sid = libfoo4t64": the value for each release named. */
static int
per_release(struct parser *p, const char *rels, size_t nrels, const char *field, char *v)
{
	const char *s = rels, *end = rels + nrels;

	while (s <= end) {
		const char *c = memchr(s, ',', (size_t)(end - s));
		size_t n = (size_t)((c ? c : end) - s), i;
		struct mr_registry_release *rl = NULL;
		int k;

		for (i = 0; i < n; i++)
			if (!release_char((unsigned char)s[i]))
				break;
		if (n == 0 || i < n)
			return fail(p, s + i, "bad release name after %s@: want a Debian release such as trixie",
				    field);
		for (k = 0; k < p->cur.nrel; k++)
			if (strlen(p->cur.rel[k].release) == n && strncmp(p->cur.rel[k].release, s, n) == 0)
				rl = &p->cur.rel[k];
		if (!rl) {
			p->cur.rel = erealloc(p->cur.rel, (size_t)(p->cur.nrel + 1) * sizeof *p->cur.rel);
			rl = &p->cur.rel[p->cur.nrel++];
			memset(rl, 0, sizeof *rl);
			rl->release = estrndup(s, n);
		}
		if (*field == 'p') {
			if (rl->package)
				return fail(p, s, "package@%s given twice in [%s]", rl->release, p->cur.name);
			rl->package = estrdup(v);
		} else {
			if (rl->library)
				return fail(p, s, "library@%s given twice in [%s]", rl->release, p->cur.name);
			rl->library = estrdup(v);
		}
		if (!c)
			break;
		s = c + 1;
	}
	return 0;
}

static int
field(struct parser *p, const char *s, const char *end)
{
	const char *k = s, *eq, *at, *ke;
	char vbuf[MAX_LINE], *v, *ve;
	int i, fi = -1;

	if (!p->cur.name)
		return fail(p, s, "a field outside an entry: start one with [NAME]");
	eq = memchr(s, '=', (size_t)(end - s));
	if (!eq)
		return fail(p, end, "want FIELD = VALUE");
	for (ke = eq; ke > k && (ke[-1] == ' ' || ke[-1] == '\t'); ke--)
		;
	at = memchr(k, '@', (size_t)(ke - k));
	for (i = 0; fields[i]; i++)
		if ((size_t)((at ? at : ke) - k) == strlen(fields[i]) &&
		    strncmp(k, fields[i], strlen(fields[i])) == 0)
			fi = i;
	if (fi < 0) {
		char word[64];
		const char *best = NULL;
		int bd = 3;

		snprintf(word, sizeof word, "%.*s", (int)((at ? at : ke) - k), k);
		for (i = 0; fields[i]; i++) {
			int d = mr_edit_distance(word, fields[i]);

			if (d < bd) {
				bd = d;
				best = fields[i];
			}
		}
		return fail(p, k, "unknown field '%s'%s%s%s; fields: library, package, search, options, default, preload, build",
			    word, best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
	}
	if (at && fi > 1)
		return fail(p, at, "%s cannot differ per release: only package@RELEASE and library@RELEASE",
			    fields[fi]);
	/* The value: trimmed, a trailing " # comment" dropped. */
	for (v = (char *)eq + 1; v < end && (*v == ' ' || *v == '\t'); v++)
		;
	snprintf(vbuf, sizeof vbuf, "%.*s", (int)(end - v), v);
	for (ve = vbuf; *ve; ve++)
		if (*ve == '#' && (ve == vbuf || ve[-1] == ' ' || ve[-1] == '\t'))
			break;
	while (ve > vbuf && (ve[-1] == ' ' || ve[-1] == '\t'))
		ve--;
	*ve = '\0';
	if (!vbuf[0])
		return fail(p, eq + 1, "%.*s: empty value", (int)(ke - k), k);
	/* Messages about the value point into the line, not into vbuf. */
	{
		char *line_v = (char *)v;
		int rc = 0;

		if (fi == 0 || fi == 1) {
			int ok = fi == 0 ? mr_alloc_valid_soname(vbuf) : valid_package(vbuf);

			if (!ok)
				return fail(p, line_v, fi == 0 ?
					    "library '%s': want a file name or an absolute path, no blanks or ':'" :
					    "package '%s': want a Debian package name (a-z, 0-9, '+', '-', '.')",
					    vbuf);
			if (at)
				return per_release(p, at + 1, (size_t)(ke - at - 1), fields[fi], vbuf);
		}
		if (p->seen[fi])
			return fail(p, k, "%s given twice in [%s] (first at line %d)", fields[fi],
				    p->cur.name, p->seen[fi]);
		p->seen[fi] = p->line;
		/* the parsers below point into vbuf */
		p->vbase = vbuf;
		p->vcol = (int)(line_v - p->bol) + 1;
		switch (fi) {
		case 0: p->cur.library = estrdup(vbuf); break;
		case 1: p->cur.package = estrdup(vbuf); break;
		case 2: rc = search(p, vbuf); break;
		case 3: rc = options(p, vbuf); break;
		case 4: rc = yes_no(p, vbuf, "default", &p->cur.in_default_axis); break;
		case 5: rc = preload(p, vbuf); break;
		default: rc = build(p, vbuf); break;
		}
		p->vbase = NULL;
		return rc;
	}
}

int
mr_registry_parse(struct mr_registry *r, const char *name, const char *text,
		  struct strbuf *err)
{
	struct parser p = { 0 };
	const char *s = text;
	int rc = 0, i;

	p.file = name;
	p.err = err;
	while (rc == 0 && *s) {
		const char *eol = strchr(s, '\n'), *end, *t;

		if (!eol)
			eol = s + strlen(s);
		p.line++;
		p.bol = s;
		end = eol;
		if (end > s && end[-1] == '\r')
			end--;
		for (t = s; t < end && (*t == ' ' || *t == '\t'); t++)
			;
		if (end - s >= MAX_LINE)
			rc = fail(&p, s + MAX_LINE - 1, "line longer than %d bytes", MAX_LINE - 1);
		for (const char *c = s; rc == 0 && c < end; c++)
			if ((unsigned char)*c < 0x20 && *c != '\t')
				rc = fail(&p, c, "control character 0x%02x", (unsigned char)*c);
		if (rc == 0 && t < end && *t != '#')
			rc = *t == '[' ? header(&p, r, t, end) : field(&p, t, end);
		s = *eol ? eol + 1 : eol;
	}
	if (rc == 0)
		rc = finish(&p, r);
	mr_registry_entry_free(&p.cur);
	for (i = 0; i < p.nnames; i++)
		free(p.names[i]);
	free(p.names);
	free(p.lines);
	return rc;
}

/* Read and parse one file; missing_ok: an absent file is no error. */
static int
load_file(struct mr_registry *r, const char *path, int missing_ok, struct strbuf *err)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t n;
	int rc;

	if (!f) {
		if (missing_ok && errno == ENOENT)
			return 0;
		sb_printf(err, "%s: cannot read the allocator registry: %s", path, strerror(errno));
		return -1;
	}
	buf = emalloc(MAX_FILE + 1);
	n = fread(buf, 1, MAX_FILE + 1, f);
	if (ferror(f)) {
		sb_printf(err, "%s: cannot read the allocator registry: %s", path, strerror(errno));
		rc = -1;
	} else if (n > MAX_FILE) {
		sb_printf(err, "%s: over %d bytes: not an allocator registry", path, MAX_FILE);
		rc = -1;
	} else if (memchr(buf, '\0', n)) {
		sb_printf(err, "%s: a NUL byte: not an allocator registry", path);
		rc = -1;
	} else {
		buf[n] = '\0';
		rc = mr_registry_parse(r, path, buf, err);
	}
	free(buf);
	fclose(f);
	return rc;
}

char *
mr_registry_default_file(const char *exe_dir)
{
	char *p = esprintf("%s/../etc/allocators", exe_dir);
	struct stat st;

	if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
		return p;
	free(p);
	return esprintf("%s/../share/memrepro/allocators", exe_dir);
}

int
mr_registry_load(struct mr_registry *r, const char *shipped, const char *user_file,
		 struct strbuf *err)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	char *own = NULL;
	int rc;

	memset(r, 0, sizeof *r);
	rc = load_file(r, shipped, 0, err);
	if (xdg && *xdg == '/')
		own = esprintf("%s/memrepro/allocators", xdg);
	else if (home && *home == '/')
		own = esprintf("%s/.config/memrepro/allocators", home);
	if (rc == 0 && own)
		rc = load_file(r, own, 1, err);
	free(own);
	if (rc == 0 && user_file)
		rc = load_file(r, user_file, 0, err);
	return rc;
}

int
mr_registry_set(struct mr_registry *r, const char *arg, struct strbuf *err)
{
	const char *eq = strchr(arg, '=');
	struct mr_registry_entry *e, add = { 0 };
	struct stat st;

	if (!eq) {
		sb_printf(err, "--alloc '%s': want NAME=PATH or NAME=SONAME", arg);
		return -1;
	}
	if (bad_name(arg, (size_t)(eq - arg))) {
		sb_printf(err, "--alloc '%s': bad allocator name '%.*s': want lower-case letters and digits, then also '_' or '-'",
			  arg, (int)(eq - arg), arg);
		return -1;
	}
	if (!mr_alloc_valid_soname(eq + 1)) {
		sb_printf(err, "--alloc '%s': bad library name '%s'", arg, eq + 1);
		return -1;
	}
	if (strchr(eq + 1, '/')) {
		const char *why = stat(eq + 1, &st) < 0 ? strerror(errno) :
				  !S_ISREG(st.st_mode) ? "not a regular file" : NULL;

		if (why) {
			sb_printf(err, "--alloc '%s': %s: %s", arg, eq + 1, why);
			return -1;
		}
	}
	add.name = estrndup(arg, (size_t)(eq - arg));
	e = mr_registry_lookup(r, add.name);
	if (e && !e->preload) {
		sb_printf(err, "--alloc '%s': %s is the C library itself: nothing is preloaded for it",
			  arg, e->name);
		free(add.name);
		return -1;
	}
	if (!e) {
		add.preload = 1;
		mr_registry_put(r, &add);
		e = &r->e[r->n - 1];
	} else {
		free(add.name);
	}
	/* the user's library: the entry's package need not have it */
	free(e->library);
	e->library = estrdup(eq + 1);
	free(e->package);
	e->package = NULL;
	free(e->origin);
	e->origin = estrdup("--alloc");
	return 0;
}

