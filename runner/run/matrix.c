/* matrix: expand a case's dimensions into canonical configs. */
#include "run/matrix.h"

#include <errno.h>
#include <gnu/libc-version.h>
#include <inttypes.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "run/registry.h"
#include "run/capture.h"
#include "run/env.h"

/* A matrix larger than this is a typo in --axis, not an experiment. */
#define MATRIX_MAX 100000

static int
in_set(const char *s, const char *set)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || strchr(set, *s)))
			return 0;
	return 1;
}

/* glibc.<ns>.<name>[.<more>]: each part [a-z0-9_]+ */
static int
tunable_key(const char *k)
{
	const char *p;
	int parts = 0;

	if (strncmp(k, "glibc.", 6) != 0)
		return 0;
	for (p = k + 6; ; p++) {
		if (*p == '.' || !*p) {
			if (p[-1] == '.')
				return 0;
			parts++;
			if (!*p)
				break;
		} else if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
			     (*p >= 'A' && *p <= 'Z') || *p == '_')) {
			return 0;
		}
	}
	return parts >= 2;
}

int
mr_matrix_parse_axis(const char *arg, struct mr_matrix_axis *out, struct strbuf *err)
{
	const char *eq = strchr(arg, '=');
	char *vals, *s;
	int i;

	memset(out, 0, sizeof *out);
	if (!eq || eq == arg) {
		sb_printf(err, "--axis '%s': want key=value[,value...]", arg);
		return -1;
	}
	out->key = estrndup(arg, (size_t)(eq - arg));
	if (strncmp(out->key, "glibc.", 6) == 0 ? !tunable_key(out->key) : !in_set(out->key, "_")) {
		sb_printf(err, "--axis '%s': bad key '%s' (want allocator, glibc.<namespace>.<tunable> or a parameter [a-z0-9_]+)",
			  arg, out->key);
		goto bad;
	}
	vals = estrdup(eq + 1);
	for (s = vals;;) {
		char *comma = strchr(s, ',');

		if (comma)
			*comma = '\0';
		if (!*s || !in_set(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_.-")) {
			sb_printf(err, "--axis '%s': bad value '%s' (want [A-Za-z0-9_.-]+, separated by commas)", arg, s);
			free(vals);
			goto bad;
		}
		for (i = 0; i < out->nvals; i++) {
			if (strcmp(out->vals[i], s) == 0) {
				sb_printf(err, "--axis '%s': value '%s' given twice", arg, s);
				free(vals);
				goto bad;
			}
		}
		out->vals = erealloc(out->vals, (size_t)(out->nvals + 1) * sizeof *out->vals);
		out->vals[out->nvals++] = estrdup(s);
		if (!comma)
			break;
		s = comma + 1;
	}
	free(vals);
	return 0;
bad:
	mr_matrix_axis_free(out);
	return -1;
}

void
mr_matrix_axis_free(struct mr_matrix_axis *a)
{
	int i;

	free(a->key);
	for (i = 0; i < a->nvals; i++)
		free(a->vals[i]);
	free(a->vals);
	memset(a, 0, sizeof *a);
}

/* Every key a --axis could name for these cases, for messages. */
static void
valid_keys(const struct mr_cases_desc *cases, int ncases, struct strbuf *b)
{
	struct strbuf seen = { 0 };
	int i, j;

	sb_add(b, "allocator, glibc.<namespace>.<tunable>");
	sb_add(&seen, ",");
	for (i = 0; i < ncases; i++) {
		for (j = 0; j < cases[i].nparams; j++) {
			char *tag = esprintf(",%s,", cases[i].params[j].name);

			if (!strstr(seen.s, tag)) {
				sb_printf(b, ", %s", cases[i].params[j].name);
				sb_printf(&seen, "%s,", cases[i].params[j].name);
			}
			free(tag);
		}
	}
	sb_free(&seen);
}

/* A value of the pressure axis: "none" or MiB as a plain decimal in
 * 1..MR_MATRIX_MAX_MIB.  Returns the MiB (0 for none) or -1. */
static long
pressure_value(const char *v)
{
	long long x;

	if (strcmp(v, "none") == 0)
		return 0;
	if (!*v || strspn(v, "0123456789") != strlen(v) || parse_ll(v, &x) < 0 ||
	    x < 1 || x > MR_MATRIX_MAX_MIB)
		return -1;
	return (long)x;
}

/* --- glibc tunables ------------------------------------------------ */

/* ld.so --list-tunables: quick, but never waited for without end. */
#define LDSO_TIMEOUT_MS 10000
#define LDSO_MAX (256u << 10)

/* The glibc.malloc.* tunables glibc's manual documents up to 2.32, whose
 * loader cannot list them: all a runner can know there. */
static const char *const malloc_tunables_2_32[] = {
	"check", "top_pad", "perturb", "mmap_threshold", "trim_threshold",
	"mmap_max", "arena_max", "arena_test", "tcache_max", "tcache_count",
	"tcache_unsorted_limit", "mxfast", NULL,
};

/* dl_iterate_phdr's first object is the program: its PT_INTERP. */
static int
interp_of_program(struct dl_phdr_info *info, size_t size, void *data)
{
	const char **interp = data;
	int i;

	(void)size;
	for (i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_INTERP)
			*interp = (const char *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
	return 1;
}

const char *
mr_matrix_ldso(void)
{
	const char *interp = getenv("MEMREPRO_LDSO");

	if (interp && *interp)
		return interp;
	interp = NULL;
	dl_iterate_phdr(interp_of_program, &interp);
	return interp;
}

/* Run `LDSO --list-tunables` into out.  Returns 0, or -1 with why in
 * *why (owned): no loader, or one that cannot list (glibc < 2.33). */
static int
list_tunables(struct strbuf *out, char **why)
{
	const char *ldso = mr_matrix_ldso();
	char *argv[3];
	char **env;
	int rc, status = 0;

	*why = NULL;
	if (!ldso) {
		*why = estrdup("the runner has no dynamic loader (PT_INTERP) to ask");
		return -1;
	}
	argv[0] = (char *)ldso;
	argv[1] = (char *)"--list-tunables";
	argv[2] = NULL;
	env = mr_spawn_env(NULL);
	rc = mr_spawn_capture(argv, env, LDSO_TIMEOUT_MS, LDSO_MAX, 0, out, &status);
	mr_spawn_env_free(env);
	if (rc < 0)
		*why = esprintf("%s --list-tunables: %s", ldso, strerror(-rc));
	else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !out->s ||
		 strncmp(out->s, "glibc.", 6) != 0)
		*why = esprintf("%s has no --list-tunables (glibc %s; it lists them from 2.33 on)",
				ldso, gnu_get_libc_version());
	return *why ? -1 : 0;
}

/* A number as glibc's loader reads a tunable's (_dl_strtoul): blanks, a
 * sign, then decimal, 0x hexadecimal or 0 octal digits, to the end (newer
 * glibc ignores a value with anything more; older ones read a prefix:
 * "12abc" as 12, "abc" as 0).  A negative number wraps around as in glibc.  Returns 0 with
 * the value in *out, -1 (not a number) or -ERANGE (too large). */
static int
glibc_number(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	unsigned base = 10, maxd = 9;
	int neg = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	if (*s < '0' || *s > '9')
		return -1;
	if (*s == '0') {
		if (s[1] == 'x' || s[1] == 'X') {
			base = 16;
			s += 2;
		} else {
			base = 8;
			maxd = 7;
		}
	}
	for (; *s; s++) {
		unsigned d;

		if (*s >= '0' && *s <= (char)('0' + maxd))
			d = (unsigned)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned)(*s - 'A' + 10);
		else
			return -1;
		/* glibc's own bound (a little short of UINT64_MAX) */
		if (v >= (UINT64_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	*out = neg ? -v : v;
	return 0;
}

/* What listing says of key, after "KEY:" to the end of its line, into
 * buf (" VALUE (min: M, max: X)", " text" or "" for a string).  Returns
 * buf, or NULL when key is not listed. */
static char *
listing_line(const char *listing, const char *key, char *buf, size_t size)
{
	size_t n = strlen(key);
	const char *p;

	for (p = listing; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, key, n) == 0 && p[n] == ':') {
			snprintf(buf, size, "%.*s", (int)strcspn(p + n + 1, "\n"), p + n + 1);
			return buf;
		}
	}
	return NULL;
}

/* The tunables of key's namespace in listing, for a message. */
static void
namespace_tunables(const char *listing, const char *key, struct strbuf *b)
{
	const char *dot = strrchr(key, '.'), *p;
	size_t ns = (size_t)(dot - key) + 1;
	int n = 0;

	for (p = listing; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *colon = strchr(p, ':'), *nl = strchr(p, '\n');

		if (strncmp(p, key, ns) != 0 || !colon || (nl && colon > nl))
			continue;
		sb_printf(b, "%s%.*s", n++ ? ", " : "", (int)((size_t)(colon - p) - ns), p + ns);
	}
	if (n)
		return;
	/* no such namespace: name those there are */
	sb_add(b, "none; its namespaces: ");
	for (p = listing; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		size_t len = strncmp(p, "glibc.", 6) == 0 ? strcspn(p + 6, ".:\n") : 0;
		const char *q;

		/* each once: the first line that has it */
		for (q = listing; len && q < p; q = strchr(q, '\n') + 1)
			if (strncmp(q, p, 6 + len + 1) == 0)
				break;
		if (len && q == p)
			sb_printf(b, "%sglibc.%.*s", n++ ? ", " : "", (int)len, p + 6);
	}
}

int
mr_matrix_check_tunable(const char *listing, const char *key, const char *val,
			struct strbuf *err)
{
	const char *ldso = mr_matrix_ldso(), *mn, *mx;
	char buf[256], *line = NULL;
	uint64_t v = 0;
	int rc = glibc_number(val, &v), i, bad;

	if (!listing) {
		for (i = 0; malloc_tunables_2_32[i]; i++)
			if (strncmp(key, "glibc.malloc.", 13) == 0 &&
			    strcmp(key + 13, malloc_tunables_2_32[i]) == 0)
				break;
		if (!malloc_tunables_2_32[i]) {
			sb_printf(err, "--axis %s: not a tunable this runner can check: without the loader's list only glibc.malloc.",
				  key);
			for (i = 0; malloc_tunables_2_32[i]; i++)
				sb_printf(err, "%s%s", i ? "," : "{", malloc_tunables_2_32[i]);
			sb_add(err, "} are known (glibc's manual, 2.26 to 2.32)");
			return -1;
		}
	} else if (!(line = listing_line(listing, key, buf, sizeof buf))) {
		sb_printf(err, "--axis %s: glibc %s has no such tunable (%s --list-tunables); its %.*s tunables: ",
			  key, gnu_get_libc_version(), ldso ? ldso : "ld.so",
			  (int)(strrchr(key, '.') - key), key);
		namespace_tunables(listing, key, err);
		return -1;
	}
	/* a string ("KEY:" or "KEY: text", no bounds): glibc parses it itself */
	if (line && !strstr(line, " (min: "))
		return 0;
	if (rc == -1) {
		sb_printf(err, "--axis %s: value '%s' is not a number as glibc reads one (decimal, 0x hexadecimal or 0 octal): glibc would ignore it",
			  key, val);
		return -1;
	}
	if (rc == -ERANGE) {
		sb_printf(err, "--axis %s: value '%s' is too large for glibc (64 bits): glibc would ignore it",
			  key, val);
		return -1;
	}
	if (!line || !(mn = strstr(line, "(min: ")) || !(mx = strstr(line, ", max: ")))
		return 0;
	mn += 6;
	mx += 7;
	/* int32 tunables print in decimal and compare signed; the others in
	 * hexadecimal, unsigned */
	if (strncmp(line, " 0x", 3) != 0)
		bad = (int64_t)v < strtoll(mn, NULL, 10) || (int64_t)v > strtoll(mx, NULL, 10);
	else
		bad = v < strtoull(mn, NULL, 16) || v > strtoull(mx, NULL, 16);
	if (bad) {
		sb_printf(err, "--axis %s: value '%s' is out of glibc's range for it, %.*s to %.*s: glibc would ignore it",
			  key, val, (int)strcspn(mn, ","), mn, (int)strcspn(mx, ")"), mx);
		return -1;
	}
	return 0;
}

/* Every glibc.* --axis: a tunable this glibc has, each value one glibc
 * takes.  0, or -1 with the message in err. */
static int
check_tunables(const struct mr_matrix_axis *ax, int nax, struct strbuf *err)
{
	struct strbuf out = { 0 };
	char *why = NULL;
	int a, j, rc = 0, listed = -2;

	for (a = 0; rc == 0 && a < nax; a++) {
		if (strncmp(ax[a].key, "glibc.", 6) != 0)
			continue;
		if (listed == -2)
			listed = list_tunables(&out, &why);
		for (j = 0; rc == 0 && j < ax[a].nvals; j++)
			rc = mr_matrix_check_tunable(listed == 0 ? out.s : NULL, ax[a].key,
						     ax[a].vals[j], err);
		if (rc < 0 && why)
			sb_printf(err, " (%s)", why);
	}
	free(why);
	sb_free(&out);
	return rc;
}

int
mr_matrix_check_axes(const struct mr_cases_desc *cases, int ncases,
		     const struct mr_matrix_axis *ax, int nax, struct strbuf *err)
{
	int a, i, j;

	for (a = 0; a < nax; a++) {
		for (i = 0; i < a; i++) {
			if (strcmp(ax[i].key, ax[a].key) == 0) {
				sb_printf(err, "--axis %s given twice: give all its values in one --axis %s=V1,V2",
					  ax[a].key, ax[a].key);
				return -1;
			}
		}
	}
	for (a = 0; a < nax; a++) {
		int known = 0;

		if (strcmp(ax[a].key, "pressure") == 0) {
			for (j = 0; j < ax[a].nvals; j++) {
				if (pressure_value(ax[a].vals[j]) < 0) {
					sb_printf(err, "--axis pressure: bad value '%s'; want none or a memory limit in MiB (1..%d)",
						  ax[a].vals[j], MR_MATRIX_MAX_MIB);
					return -1;
				}
			}
			continue;
		}
		if (strcmp(ax[a].key, "allocator") == 0) {
			for (j = 0; j < ax[a].nvals; j++) {
				if (!mr_registry_find_spec(mr_registry_current(), ax[a].vals[j])) {
					sb_add(err, "--axis allocator: ");
					mr_registry_unknown(mr_registry_current(), ax[a].vals[j], err);
					return -1;
				}
			}
			continue;
		}
		if (strncmp(ax[a].key, "glibc.", 6) == 0)
			continue; /* check_tunables, below */
		for (i = 0; i < ncases; i++) {
			const struct mr_cases_param *p = mr_cases_find_param(&cases[i], ax[a].key);

			if (!p)
				continue;
			known = 1;
			for (j = 0; j < ax[a].nvals; j++) {
				char *canon;

				if (mr_cases_canon_value(p, ax[a].vals[j], &canon) < 0) {
					sb_printf(err, "--axis %s: value '%s' is not allowed by case %s; allowed: %s",
						  ax[a].key, ax[a].vals[j], cases[i].name, p->allowed);
					return -1;
				}
				free(canon);
			}
		}
		if (!known) {
			sb_printf(err, "--axis: unknown key '%s'; valid keys: ", ax[a].key);
			valid_keys(cases, ncases, err);
			return -1;
		}
	}
	return check_tunables(ax, nax, err);
}

/* One dimension of the product. */
struct dim {
	const char *key;
	char **vals;   /* owned copies, canonical */
	int nvals;
};

static const struct mr_matrix_axis *
find_axis(const struct mr_matrix_axis *ax, int nax, const char *key)
{
	const struct mr_matrix_axis *hit = NULL;
	int i;

	for (i = 0; i < nax; i++) /* the last one given wins */
		if (strcmp(ax[i].key, key) == 0)
			hit = &ax[i];
	return hit;
}

static void
dim_add(struct dim *d, char *v)
{
	int i;

	for (i = 0; i < d->nvals; i++) {
		if (strcmp(d->vals[i], v) == 0) { /* "01" and "1" are one value */
			free(v);
			return;
		}
	}
	d->vals = erealloc(d->vals, (size_t)(d->nvals + 1) * sizeof *d->vals);
	d->vals[d->nvals++] = v;
}

static int
cmp_dim(const void *a, const void *b)
{
	return strcmp(((const struct dim *)a)->key, ((const struct dim *)b)->key);
}

/* The file-name form of a short config: '=' -> '-', ',' -> '+'.  Keys
 * have no '-' and values no '+', so distinct configs stay distinct. */
static char *
safe_name(const char *shortc, int index)
{
	char *s, *p;

	if (!*shortc)
		return estrdup("default");
	if (strlen(shortc) > 200)
		return esprintf("long.%d", index + 1);
	s = estrdup(shortc);
	for (p = s; *p; p++) {
		if (*p == '=')
			*p = '-';
		else if (*p == ',')
			*p = '+';
	}
	return s;
}

int
mr_matrix_build(const struct mr_cases_desc *c, const struct mr_matrix_axis *ax,
		int nax, int quick, struct mr_matrix *m, struct strbuf *err)
{
	struct dim *d = ecalloc((size_t)c->nparams + (size_t)nax + 2, sizeof *d);
	const struct mr_matrix_axis *o;
	int nd = 0, i, j, k, rc = 0;
	long total = 1;

	memset(m, 0, sizeof *m);
	d[nd].key = "allocator";
	if ((o = find_axis(ax, nax, "allocator")) != NULL)
		for (j = 0; j < o->nvals; j++)
			dim_add(&d[nd], estrdup(o->vals[j]));
	else
		for (j = 0; mr_registry_current() && j < mr_registry_current()->n; j++)
			if (mr_registry_current()->e[j].in_default_axis)
				dim_add(&d[nd], estrdup(mr_registry_current()->e[j].name));
	nd++;
	for (i = 0; i < c->nparams; i++) {
		const struct mr_cases_param *p = &c->params[i];

		d[nd].key = p->name;
		if ((o = find_axis(ax, nax, p->name)) != NULL) {
			for (j = 0; j < o->nvals; j++) {
				char *v;

				if (mr_cases_canon_value(p, o->vals[j], &v) < 0) {
					sb_printf(err, "--axis %s: value '%s' is not allowed by case %s; allowed: %s",
						  p->name, o->vals[j], c->name, p->allowed);
					rc = -1;
					goto out;
				}
				dim_add(&d[nd], v);
			}
		} else if (p->axis) {
			for (j = 0; j < p->naxis; j++)
				dim_add(&d[nd], estrdup(p->axis[j]));
		} else {
			dim_add(&d[nd], estrdup(quick ? p->quick : p->def));
		}
		nd++;
	}
	for (i = 0; i < nax; i++) {
		if (strncmp(ax[i].key, "glibc.", 6) != 0 || find_axis(ax, nax, ax[i].key) != &ax[i])
			continue;
		d[nd].key = ax[i].key;
		for (j = 0; j < ax[i].nvals; j++)
			dim_add(&d[nd], estrdup(ax[i].vals[j]));
		nd++;
	}
	if ((o = find_axis(ax, nax, "pressure")) != NULL) {
		d[nd].key = "pressure";
		for (j = 0; j < o->nvals; j++) {
			long mib = pressure_value(o->vals[j]);

			if (mib < 0) {
				sb_printf(err, "--axis pressure: bad value '%s'", o->vals[j]);
				rc = -1;
				goto out;
			}
			dim_add(&d[nd], mib ? esprintf("%ld", mib) : estrdup("none"));
		}
		nd++;
	}
	qsort(d, (size_t)nd, sizeof *d, cmp_dim);
	for (i = 0; i < nd; i++) {
		total *= d[i].nvals;
		if (total > MATRIX_MAX) {
			sb_printf(err, "case %s: the matrix has more than %d configs", c->name, MATRIX_MAX);
			rc = -1;
			goto out;
		}
		if (d[i].nvals > 1)
			m->nvary++;
	}
	m->n = (int)total;
	m->cfg = ecalloc((size_t)total, sizeof *m->cfg);
	for (k = 0; k < m->n; k++) {
		struct mr_matrix_cfg *cf = &m->cfg[k];
		struct strbuf canon = { 0 }, shortc = { 0 }, tun = { 0 };
		long rest = k;

		cf->kv = ecalloc((size_t)nd, sizeof *cf->kv);
		cf->nkv = nd;
		/* first key slowest: index digits from the last dimension */
		for (i = nd - 1; i >= 0; i--) {
			cf->kv[i].key = estrdup(d[i].key);
			cf->kv[i].val = estrdup(d[i].vals[rest % d[i].nvals]);
			rest /= d[i].nvals;
		}
		for (i = 0; i < nd; i++) {
			const char *kk = cf->kv[i].key, *vv = cf->kv[i].val;

			sb_printf(&canon, "%s%s=%s", i ? "," : "", kk, vv);
			if (d[i].nvals > 1)
				sb_printf(&shortc, "%s%s=%s", shortc.len ? "," : "", kk, vv);
			if (strncmp(kk, "glibc.", 6) == 0)
				sb_printf(&tun, "%s%s=%s", tun.len ? ":" : "", kk, vv);
			if (strcmp(kk, "allocator") == 0)
				cf->allocator = vv;
			if (strcmp(kk, "pressure") == 0)
				cf->pressure_mib = pressure_value(vv);
		}
		cf->canon = canon.s;
		cf->shortc = shortc.s ? shortc.s : estrdup("");
		cf->tunables = tun.s;
		cf->safe = safe_name(cf->shortc, k);
	}
out:
	for (i = 0; i < nd; i++) {
		for (j = 0; j < d[i].nvals; j++)
			free(d[i].vals[j]);
		free(d[i].vals);
	}
	free(d);
	if (rc)
		mr_matrix_free(m);
	return rc;
}

void
mr_matrix_free(struct mr_matrix *m)
{
	int k, i;

	for (k = 0; k < m->n; k++) {
		struct mr_matrix_cfg *cf = &m->cfg[k];

		for (i = 0; i < cf->nkv; i++) {
			free(cf->kv[i].key);
			free(cf->kv[i].val);
		}
		free(cf->kv);
		free(cf->canon);
		free(cf->shortc);
		free(cf->safe);
		free(cf->tunables);
	}
	free(m->cfg);
	memset(m, 0, sizeof *m);
}

char **
mr_matrix_argv(const struct mr_cases_desc *c, const struct mr_matrix_cfg *cfg)
{
	char **argv = ecalloc(2 * (size_t)c->nparams + 2, sizeof *argv);
	int n = 0, i, j;

	argv[n++] = estrdup(c->path);
	for (i = 0; i < c->nparams; i++) {
		for (j = 0; j < cfg->nkv; j++) {
			if (strcmp(cfg->kv[j].key, c->params[i].name) == 0) {
				argv[n++] = estrdup("--param");
				argv[n++] = esprintf("%s=%s", cfg->kv[j].key, cfg->kv[j].val);
				break;
			}
		}
	}
	argv[n] = NULL;
	return argv;
}

void
mr_matrix_argv_free(char **argv)
{
	int i;

	for (i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}
