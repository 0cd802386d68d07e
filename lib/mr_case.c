/* mr_case: a case's command line, its description and the exit protocol.
 *
 * Everything here runs before the case starts measuring (argument parsing,
 * --describe, --help) or as it stops (mr_skip, mr_fail), so stdio is fine;
 * nothing here allocates on the case's measured path.
 */
#include "mr_case.h"
#include "mr_ckpt.h"
#include "mr_schema.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* More parameters than this is a sign the case should be split. */
#define MR_CASE_MAX_PARAMS 32

static const struct mr_case *cur;
static const char *values[MR_CASE_MAX_PARAMS]; /* current value of each */
static int nparams;

static const char *case_name(void)
{
	return cur && cur->name ? cur->name : "memrepro-case";
}

/* A bug in the case's own description: say so and abort (a core dump and
 * a non-protocol status, so no runner mistakes it for a result). */
static _Noreturn void bug(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static _Noreturn void bug(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: bug in the case description: ", case_name());
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

static _Noreturn void usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static _Noreturn void usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", case_name());
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n%s: try --help\n", case_name());
	exit(MR_EXIT_USAGE);
}

/* Parse a whole decimal integer ("-12", "40"); no blanks, no '+'.
 * 0, -EINVAL (not a number) or -ERANGE (does not fit a long long). */
static int parse_int(const char *s, size_t len, long long *out)
{
	unsigned long long v = 0, lim;
	size_t i = 0;
	int neg = 0;

	if (len > 0 && s[0] == '-') {
		neg = 1;
		i = 1;
	}
	if (i == len)
		return -EINVAL;
	lim = neg ? (unsigned long long)LLONG_MAX + 1 : (unsigned long long)LLONG_MAX;
	for (; i < len; i++) {
		unsigned d;

		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		d = (unsigned)(s[i] - '0');
		if (v > (lim - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	if (neg)
		*out = v == (unsigned long long)LLONG_MAX + 1 ? LLONG_MIN : -(long long)v;
	else
		*out = (long long)v;
	return 0;
}

/* "int:MIN..MAX" -> 1 with the bounds, 0 when allowed is an enumeration,
 * -1 when it starts with "int:" but is malformed. */
static int int_range(const char *allowed, long long *min, long long *max)
{
	const char *dots;

	if (strncmp(allowed, "int:", 4) != 0)
		return 0;
	allowed += 4;
	dots = strstr(allowed, "..");
	if (!dots || parse_int(allowed, (size_t)(dots - allowed), min) != 0 ||
	    parse_int(dots + 2, strlen(dots + 2), max) != 0 || *min > *max)
		return -1;
	return 1;
}

/* Is value one of the '|'-separated words of list? */
static int in_list(const char *list, const char *value, size_t vlen)
{
	const char *p = list;

	for (;;) {
		const char *bar = strchr(p, '|');
		size_t n = bar ? (size_t)(bar - p) : strlen(p);

		if (n == vlen && memcmp(p, value, n) == 0)
			return 1;
		if (!bar)
			return 0;
		p = bar + 1;
	}
}

/* Check value against allowed.  NULL when it is fine, else why not. */
static const char *check_value(const char *allowed, const char *value, size_t vlen)
{
	long long min, max, v;
	int r = int_range(allowed, &min, &max);

	if (r == 0)
		return in_list(allowed, value, vlen) ? NULL : "not one of the allowed values";
	if (r < 0)
		return "the case's own range is malformed";
	switch (parse_int(value, vlen, &v)) {
	case -EINVAL:
		return "not a decimal integer";
	case -ERANGE:
		return "out of range";
	}
	if (v < min || v > max)
		return "out of range";
	return NULL;
}

static const struct mr_param *find_param(const char *name, size_t len, int *idx)
{
	int i;

	for (i = 0; i < nparams; i++)
		if (strlen(cur->params[i].name) == len &&
		    memcmp(cur->params[i].name, name, len) == 0) {
			if (idx)
				*idx = i;
			return &cur->params[i];
		}
	return NULL;
}

/* A text field of --describe: one line, no tab. */
static void check_text(const char *what, const char *s, int required)
{
	if (!s) {
		if (required)
			bug("%s is missing", what);
		return;
	}
	if (required && !*s)
		bug("%s is empty", what);
	if (strpbrk(s, "\t\n\r"))
		bug("%s contains a tab or a newline", what);
}

/* The description's own consistency: caught at every start, so a broken
 * case fails the first time anyone runs it. */
static void check_description(const struct mr_case *c)
{
	const struct mr_checkpoint_desc *k;
	int i;

	check_text("name", c->name, 1);
	if (!mr_name_case(c->name))
		bug("case name \"%s\" is not " MR_CASE_NAME_RULE, c->name);
	check_text("title", c->title, 1);
	check_text("source", c->source, 1);
	check_text("mechanism", c->mechanism, 0);
	if (c->mechanism && check_value(MR_MECHANISMS, c->mechanism, strlen(c->mechanism)))
		bug("mechanism \"%s\" is not one of %s", c->mechanism, MR_MECHANISMS);
	for (i = 0; c->params && c->params[i].name; i++) {
		const struct mr_param *p = &c->params[i];
		long long min, max;
		const char *a;

		if (i == MR_CASE_MAX_PARAMS)
			bug("more than %d parameters", MR_CASE_MAX_PARAMS);
		if (!mr_name_param_form(p->name))
			bug("parameter name \"%s\" is not " MR_PARAM_NAME_RULE, p->name);
		if (mr_name_reserved(p->name))
			bug("parameter name \"%s\" is reserved for the runner (" MR_PARAM_RESERVED ")",
			    p->name);
		check_text("a parameter's default", p->def, 1);
		check_text("a parameter's quick value", p->quick, 0);
		check_text("a parameter's allowed values", p->allowed, 1);
		check_text("a parameter's axis", p->axis, 0);
		check_text("a parameter's help", p->help, 1);
		if (int_range(p->allowed, &min, &max) < 0)
			bug("parameter %s: bad range \"%s\" (want int:MIN..MAX)",
			    p->name, p->allowed);
		if (check_value(p->allowed, p->def, strlen(p->def)))
			bug("parameter %s: default \"%s\" is not allowed by \"%s\"",
			    p->name, p->def, p->allowed);
		if (p->quick && check_value(p->allowed, p->quick, strlen(p->quick)))
			bug("parameter %s: quick value \"%s\" is not allowed by \"%s\"",
			    p->name, p->quick, p->allowed);
		for (a = p->axis; a;) {
			const char *bar = strchr(a, '|');
			size_t n = bar ? (size_t)(bar - a) : strlen(a);

			if (n == 0 || check_value(p->allowed, a, n))
				bug("parameter %s: axis value \"%.*s\" is not allowed by \"%s\"",
				    p->name, (int)n, a, p->allowed);
			a = bar ? bar + 1 : NULL;
		}
		if (find_param(p->name, strlen(p->name), NULL))
			bug("parameter %s is declared twice", p->name);
		nparams = i + 1;
	}
	for (k = c->checkpoints; k && k->name; k++) {
		if (!mr_name_checkpoint(k->name))
			bug("checkpoint name \"%s\" is not " MR_CKPT_NAME_RULE, k->name);
		check_text("a checkpoint's help", k->help, 1);
	}
}

static void describe(const struct mr_case *c)
{
	const struct mr_checkpoint_desc *k;
	int i;

	printf("memrepro-case\t1\n");
	printf("name\t%s\n", c->name);
	printf("title\t%s\n", c->title);
	printf("source\t%s\n", c->source);
	printf("timeout\t%u\n", c->timeout_s);
	if (c->mechanism)
		printf("mechanism\t%s\n", c->mechanism);
	for (i = 0; i < nparams; i++) {
		const struct mr_param *p = &c->params[i];

		printf("param\t%s\t%s\t%s\t%s\t%s\t%s\n", p->name, p->def,
		       p->quick ? p->quick : p->def, p->allowed,
		       p->axis ? p->axis : "-", p->help);
	}
	for (k = c->checkpoints; k && k->name; k++)
		printf("checkpoint\t%s\t%s\n", k->name, k->help);
}

static void help(const struct mr_case *c)
{
	const struct mr_checkpoint_desc *k;
	int i;

	printf("usage: %s [--param NAME=VALUE]...\n", c->name);
	printf("       %s --describe | --help\n\n", c->name);
	printf("%s\n", c->title);
	printf("source: %s\n", c->source);
	if (nparams)
		printf("\nparameters:\n");
	for (i = 0; i < nparams; i++) {
		const struct mr_param *p = &c->params[i];
		long long min, max;

		printf("  %s=%s\n      %s\n", p->name, p->def, p->help);
		if (int_range(p->allowed, &min, &max) > 0)
			printf("      an integer from %lld to %lld", min, max);
		else
			printf("      one of %s", p->allowed);
		if (p->quick && strcmp(p->quick, p->def) != 0)
			printf("; quick profile: %s", p->quick);
		if (p->axis)
			printf("; matrix: %s", p->axis);
		printf("\n");
	}
	if (c->checkpoints && c->checkpoints[0].name)
		printf("\ncheckpoints:\n");
	for (k = c->checkpoints; k && k->name; k++)
		printf("  %-12s %s\n", k->name, k->help);
	printf("\nRun by hand, each checkpoint prints a line of figures; under the\n"
	       "memrepro runner it writes a record instead (docs/formats.md).\n"
	       "Exit status: 0 ran, 1 failed, 2 bad parameter, 4 skipped.\n");
}

/* The comma-separated names of every parameter, for an error message. */
static void param_names(char *buf, size_t size)
{
	size_t len = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < nparams && len < size; i++) {
		int n = snprintf(buf + len, size - len, "%s%s", i ? ", " : "",
				 cur->params[i].name);

		if (n < 0)
			break;
		len += (size_t)n;
	}
	if (nparams == 0)
		snprintf(buf, size, "(none)");
}

static void set_param(const char *kv)
{
	const char *eq = strchr(kv, '=');
	const struct mr_param *p;
	const char *why;
	int idx;

	if (!eq || eq == kv)
		usage_error("--param wants NAME=VALUE, not \"%s\"", kv);
	p = find_param(kv, (size_t)(eq - kv), &idx);
	if (!p) {
		char names[512];

		param_names(names, sizeof names);
		usage_error("unknown parameter \"%.*s\"; valid parameters: %s",
			    (int)(eq - kv), kv, names);
	}
	if (values[idx] != p->def)
		usage_error("parameter %s given twice", p->name);
	why = check_value(p->allowed, eq + 1, strlen(eq + 1));
	if (why)
		usage_error("bad value \"%s\" for parameter %s (%s); allowed: %s",
			    eq + 1, p->name, why, p->allowed);
	values[idx] = eq + 1;
}

void mr_case_init(const struct mr_case *c, int argc, char **argv)
{
	int i, want_describe = 0, want_help = 0;

	mr_ckpt_init(mr_case_has_checkpoint); /* the clock first: t_us counts from here */
	cur = c;
	check_description(c);
	for (i = 0; i < nparams; i++)
		values[i] = c->params[i].def;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--describe") == 0)
			want_describe = 1;
		else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
			want_help = 1;
		else if (strcmp(a, "--param") == 0) {
			if (i + 1 == argc)
				usage_error("--param wants NAME=VALUE");
			set_param(argv[++i]);
		} else if (strncmp(a, "--param=", 8) == 0)
			set_param(a + 8);
		else
			usage_error("unknown argument \"%s\"", a);
	}
	if (want_describe || want_help) {
		if (want_describe)
			describe(c);
		else
			help(c);
		exit(fflush(stdout) == 0 ? MR_EXIT_OK : MR_EXIT_FAIL);
	}
}

const char *mr_param(const char *name)
{
	int idx;

	if (!cur || !find_param(name, strlen(name), &idx))
		bug("mr_param(\"%s\"): no such parameter declared", name);
	return values[idx];
}

long long mr_param_int(const char *name)
{
	const char *v = mr_param(name);
	long long x, min, max;
	int idx;

	find_param(name, strlen(name), &idx);
	if (int_range(cur->params[idx].allowed, &min, &max) <= 0 ||
	    parse_int(v, strlen(v), &x) != 0)
		bug("mr_param_int(\"%s\"): not an int: parameter", name);
	return x;
}

int mr_param_is(const char *name, const char *value)
{
	return strcmp(mr_param(name), value) == 0;
}

int mr_case_has_checkpoint(const char *name)
{
	const struct mr_checkpoint_desc *k;

	if (!cur)
		return 1;
	for (k = cur->checkpoints; k && k->name; k++)
		if (strcmp(k->name, name) == 0)
			return 1;
	return 0;
}

/* "<prefix><message>[: strerror]\n" on stderr; err is errno at entry. */
static void vsay(const char *prefix, int err, const char *fmt, va_list ap)
{
	size_t n = strlen(fmt);

	fflush(stdout); /* our stdout lines come before the message */
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	if (n && fmt[n - 1] == ':')
		fprintf(stderr, " %s", strerror(err));
	fputc('\n', stderr);
}

void mr_usage(const char *fmt, ...)
{
	char prefix[128];
	va_list ap;
	int err = errno;

	snprintf(prefix, sizeof prefix, "%s: ", case_name());
	va_start(ap, fmt);
	vsay(prefix, err, fmt, ap);
	va_end(ap);
	exit(MR_EXIT_USAGE);
}

void mr_skip(const char *fmt, ...)
{
	va_list ap;
	int err = errno;

	va_start(ap, fmt);
	vsay("skipped: ", err, fmt, ap);
	va_end(ap);
	exit(MR_EXIT_SKIP);
}

void mr_fail(const char *fmt, ...)
{
	char prefix[128];
	va_list ap;
	int err = errno;

	snprintf(prefix, sizeof prefix, "%s: ", case_name());
	va_start(ap, fmt);
	vsay(prefix, err, fmt, ap);
	va_end(ap);
	exit(MR_EXIT_FAIL);
}

void mr_keep(const void *p)
{
	/* An empty asm that takes p and clobbers memory: the compiler must
	 * assume it reads everything p points to, so stores before it stay. */
	__asm__ __volatile__("" : : "r"(p) : "memory");
}
