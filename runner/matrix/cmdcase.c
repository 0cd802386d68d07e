/* cmdcase: any command as a case — see cmdcase.h. */
#include "matrix/cmdcase.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mr_schema.h"
#include "core/util.h"
#include "matrix/alloc.h"
#include "matrix/axes.h"
#include "matrix/matrix.h"
#include "matrix/registry.h"

/* The longest --mark-every: a day. */
#define MAX_EVERY_MS (86400LL * 1000)

/* --mark-every's value: a number and a unit (ms, s, m; none: s) into *ms.
 * 0, or -1. */
static int
duration_ms(const char *v, long long *ms)
{
	static const struct { const char *unit; double ms; } units[] = {
		{ "ms", 1 }, { "s", 1000 }, { "m", 60000 }, { "", 1000 },
	};
	size_t n = strspn(v, "0123456789.");
	char num[32];
	double x;
	size_t u;

	if (n == 0 || n >= sizeof num)
		return -1;
	memcpy(num, v, n);
	num[n] = '\0';
	if (parse_double(num, &x) < 0)
		return -1;
	for (u = 0; u < sizeof units / sizeof *units; u++)
		if (strcmp(v + n, units[u].unit) == 0) {
			x *= units[u].ms;
			if (x < 1 || x > (double)MAX_EVERY_MS)
				return -1;
			*ms = (long long)x;
			return 0;
		}
	return -1;
}

/* The case name of a command: its base name, lower case, each run of
 * other characters than [a-z0-9] one '-', none at either end; "command"
 * when nothing is left. */
void
mr_cmdcase_name(const char *cmd, char *out, size_t size)
{
	const char *b = strrchr(cmd, '/');
	size_t n = 0;
	int dash = 0;

	for (b = b ? b + 1 : cmd; *b && n + 1 < size; b++) {
		int c = tolower((unsigned char)*b);

		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
			if (dash && n)
				out[n++] = '-';
			if (n + 1 < size)
				out[n++] = (char)c;
			dash = 0;
		} else {
			dash = 1;
		}
	}
	out[n] = '\0';
	if (!n)
		snprintf(out, size, "command");
}

/* --checkpoints NAME,...: the names the program sends. */
static int
set_ckpts(struct mr_cmdcase *cc, const char *v)
{
	char *copy = estrdup(v), *save = NULL, *t;
	int rc = 0;

	for (t = strtok_r(copy, ",", &save); t && rc == 0; t = strtok_r(NULL, ",", &save)) {
		if (!mr_name_checkpoint(t)) {
			weprintf("--checkpoints '%s': bad name '%s'; want " MR_CKPT_NAME_RULE, v, t);
			rc = -1;
		} else if (!strcmp(t, MR_MARK_EVERY) || !strcmp(t, MR_MARK_MATCH) ||
			   !strcmp(t, MR_MARK_EXIT)) {
			weprintf("--checkpoints '%s': '%s' is a mark's name (every, match, exit are the runner's)",
				 v, t);
			rc = -1;
		} else {
			cc->ckpts = erealloc(cc->ckpts, (size_t)(cc->nckpts + 1) * sizeof *cc->ckpts);
			cc->ckpts[cc->nckpts++] = estrdup(t);
		}
	}
	if (rc == 0 && !cc->nckpts) {
		weprintf("--checkpoints '%s': want NAME[,NAME...]", v);
		rc = -1;
	}
	free(copy);
	return rc;
}

int
mr_cmdcase_init(struct mr_cmdcase *cc, const struct mr_cmdcase_opts *o)
{
	char *path;
	long long ms;
	int i, rc;

	memset(cc, 0, sizeof *cc);
	if (o->name && !mr_name_case(o->name)) {
		weprintf("--name '%s': want a case name, [a-z0-9][a-z0-9-]*, at most 64 bytes", o->name);
		return -1;
	}
	if (o->every && duration_ms(o->every, &ms) < 0) {
		weprintf("--mark-every '%s': want a duration from 1ms to a day: 500ms, 5s, 2m", o->every);
		return -1;
	}
	cc->marks.every_ms = o->every ? (uint64_t)ms : 0;
	if (o->on) {
		char why[256];

		rc = regcomp(&cc->re, o->on, REG_EXTENDED | REG_NOSUB);
		if (rc) {
			regerror(rc, &cc->re, why, sizeof why);
			weprintf("--mark-on '%s': %s", o->on, why);
			return -1;
		}
		cc->marks.on = &cc->re;
	}
	if (o->ckpts && set_ckpts(cc, o->ckpts) < 0) {
		mr_cmdcase_free(cc);
		return -1;
	}
	if (!(path = mr_which(o->argv[0]))) {
		weprintf("-- %s: %s", o->argv[0], strchr(o->argv[0], '/') ?
			 "not an executable file" : "no executable of that name in PATH");
		mr_cmdcase_free(cc);
		return -1;
	}
	if (o->name)
		snprintf(cc->name, sizeof cc->name, "%s", o->name);
	else
		mr_cmdcase_name(o->argv[0], cc->name, sizeof cc->name);
	cc->argv = ecalloc((size_t)o->argc + 1, sizeof *cc->argv);
	cc->argv[0] = path;
	for (i = 1; i < o->argc; i++)
		cc->argv[i] = estrdup(o->argv[i]);
	return 0;
}

void
mr_cmdcase_free(struct mr_cmdcase *cc)
{
	int i;

	for (i = 0; cc->argv && cc->argv[i]; i++)
		free(cc->argv[i]);
	free(cc->argv);
	for (i = 0; i < cc->nckpts; i++)
		free(cc->ckpts[i]);
	free(cc->ckpts);
	if (cc->marks.on)
		regfree(&cc->re);
	memset(cc, 0, sizeof *cc);
}

/* Add checkpoint name (help) to c. */
static void
add_ckpt(struct mr_cases_desc *c, const char *name, const char *help)
{
	c->ckpts = erealloc(c->ckpts, (size_t)(c->nckpts + 1) * sizeof *c->ckpts);
	c->ckpts[c->nckpts].name = estrdup(name);
	c->ckpts[c->nckpts++].help = estrdup(help);
}

int
mr_cmdcase_select(const struct mr_cmdcase *cc, struct mr_cases_desc **cases)
{
	struct mr_cases_desc *c = ecalloc(1, sizeof *c);
	struct strbuf t = { 0 };
	int i;

	for (i = 0; cc->argv[i]; i++)
		sb_printf(&t, "%s%s", i ? " " : "", cc->argv[i]);
	c->name = estrdup(cc->name);
	c->path = estrdup(cc->argv[0]);
	c->title = esprintf("the command %.200s%s", t.s, t.len > 200 ? "..." : "");
	c->source = estrdup("memrepro run -- CMD: the user's own command");
	c->timeout_s = MR_CMDCASE_TIMEOUT_S;
	sb_free(&t);
	for (i = 0; i < cc->nckpts; i++)
		add_ckpt(c, cc->ckpts[i], "sent by the program (--checkpoints)");
	if (cc->marks.every_ms)
		add_ckpt(c, MR_MARK_EVERY, "a mark every --mark-every");
	if (cc->marks.on)
		add_ckpt(c, MR_MARK_MATCH, "a mark at each output line --mark-on matches");
	add_ckpt(c, MR_MARK_EXIT, "a mark at the program's exit");
	*cases = c;
	return 1;
}

char **
mr_cmdcase_argv(const struct mr_cmdcase *cc)
{
	char **v;
	int n, i;

	for (n = 0; cc->argv[n]; n++)
		;
	v = ecalloc((size_t)n + 1, sizeof *v);
	for (i = 0; i < n; i++)
		v[i] = estrdup(cc->argv[i]);
	return v;
}

/* Whether key is an axis of the environment, which a command takes. */
static int
env_key(const char *key)
{
	return !strcmp(key, "allocator") || !strcmp(key, "libc") || !strcmp(key, "pressure") ||
	       !strncmp(key, "glibc.", 6) || mr_matrix_option_key(key);
}

int
mr_cmdcase_axes(struct mr_matrix_axis **ax, int *nax, const char *self_exe,
		struct strbuf *err)
{
	const struct mr_registry *r = mr_registry_current();
	struct mr_alloc_tab t = { 0 };
	const char **specs;
	struct strbuf v = { 0 };
	int i, n = 0, nspec = 0;

	for (i = 0; i < *nax; i++) {
		if (env_key((*ax)[i].key))
			continue;
		sb_printf(err, "--axis %s: a command has no parameters, only the environment's axes (allocator, libc, glibc.* tunables, allocator options, pressure); give the program its values as arguments or variables",
			  (*ax)[i].key);
		return -1;
	}
	for (i = 0; i < *nax && strcmp((*ax)[i].key, "allocator") != 0; i++)
		;
	if (i < *nax || !r)
		return 0;
	/* the allocators a program can run under: not one built into the
	 * cases (build = musl: a command is nobody's build) */
	specs = ecalloc((size_t)r->n + 1, sizeof *specs);
	for (i = 0; i < r->n; i++)
		if (!r->e[i].build_musl)
			specs[nspec++] = r->e[i].name;
	mr_alloc_resolve(&t, r, specs, nspec, self_exe);
	for (i = 0; i < t.n; i++)
		if (!t.a[i].missing)
			sb_printf(&v, "%s%s", n++ ? "," : "allocator=", t.a[i].spec);
	if (n) {
		*ax = erealloc(*ax, (size_t)(*nax + 1) * sizeof **ax);
		if (mr_matrix_parse_axis(v.s, &(*ax)[*nax], err) < 0)
			eprintf("%s", err->s); /* the registry's names */
		(*nax)++;
	}
	sb_free(&v);
	mr_alloc_free(&t);
	free(specs);
	return 0;
}
