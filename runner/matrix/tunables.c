/* tunables: glibc.* axes checked against a loader's --list-tunables — see
 * tunables.h. */
#include "matrix/tunables.h"

#include <errno.h>
#include <gnu/libc-version.h>
#include <inttypes.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "proc/capture.h"
#include "proc/env.h"

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
list_tunables(const char *ldso, const char *version, struct strbuf *out, char **why)
{
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
				ldso, version);
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

/* mr_matrix_check_tunable with the loader and its glibc's version named
 * in the messages. */
static int
check_tunable(const char *ldso, const char *version, const char *listing, const char *key,
	      const char *val, struct strbuf *err)
{
	const char *mn, *mx;
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
			  key, version, ldso ? ldso : "ld.so",
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
	/* an unsigned tunable (printed in hexadecimal, or unknown without a
	 * listing) takes "-5" as 2^64-5: within its bounds, not what was meant */
	if (val[strspn(val, " \t")] == '-' && v != 0 && (!line || strncmp(line, " 0x", 3) == 0)) {
		sb_printf(err, "--axis %s: value '%s' is negative: glibc would take it as %" PRIu64 " (it is unsigned)",
			  key, val, v);
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

int
mr_matrix_check_tunable(const char *listing, const char *key, const char *val,
			struct strbuf *err)
{
	return check_tunable(mr_matrix_ldso(), gnu_get_libc_version(), listing, key, val, err);
}

int
mr_matrix_check_tunables(const struct mr_matrix_axis *ax, int nax, const char *ldso,
			 const char *version, struct strbuf *err)
{
	struct strbuf out = { 0 };
	char *why = NULL;
	int a, j, rc = 0, listed = -2;

	for (a = 0; rc == 0 && a < nax; a++) {
		if (strncmp(ax[a].key, "glibc.", 6) != 0)
			continue;
		if (listed == -2) {
			if (ldso) {
				listed = list_tunables(ldso, version, &out, &why);
			} else {
				why = estrdup("the runner has no dynamic loader (PT_INTERP) to ask");
				listed = -1;
			}
		}
		for (j = 0; rc == 0 && j < ax[a].nvals; j++)
			rc = check_tunable(ldso, version, listed == 0 ? out.s : NULL, ax[a].key,
					   ax[a].vals[j], err);
		if (rc < 0 && why)
			sb_printf(err, " (%s)", why);
	}
	free(why);
	sb_free(&out);
	return rc;
}

