/* langs: the runtime languages, one row each — see langs.h. */
#include "matrix/langs.h"

#include <string.h>

#include "matrix/rtkind.h"
#include "release/npm.h"

int
mr_lang_release_word(const char *w, int java)
{
	static const char chars[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.+~:-";
	size_t n;

	if (!*w || strlen(w) > MR_RT_WORD_MAX)
		return 0;
	if (strspn(w, "abcdefghijklmnopqrstuvwxyz") == strlen(w))
		return 1;
	n = strspn(w, "0123456789");
	if (java && n > 0 && n <= 3 && (w[n] == '\0' || strchr(".+-~", w[n])))
		return strspn(w, chars) == strlen(w);
	return mr_rt_starts_xy(w) && strspn(w, chars) == strlen(w);
}

static int
release_word(const char *w)
{
	return mr_lang_release_word(w, 0);
}

static int
java_word(const char *w)
{
	return mr_lang_release_word(w, 1);
}

/* A redis word: as ruby's, X (7), or with Debian's epoch:
 * 5:7.0.15-1~deb12u7. */
static int
redis_word(const char *w)
{
	size_t n = strspn(w, "0123456789");

	if (release_word(w))
		return 1;
	if (n && w[n] == ':' && mr_rt_starts_xy(w + n + 1) && release_word(w + n + 1))
		return 1;
	return *w && strlen(w) <= 8 && n == strlen(w);
}

const struct mr_lang mr_langs[] = {
	{ .name = "node", .ext = "js", .example = "node@20", .host_exe = "node",
	  .word_ok = mr_npm_version_word,
	  .word_want = "node@VERSION, a full version (10.7.0) or a prefix (20, 20.20)",
	  .probe = { "--version", NULL }, .version_strip = "v",
	  .fetch = mr_rt_node_npm, .new_offers = 1, .default_axis = 1, .versions = 1 },
	{ .name = "ruby", .ext = "rb", .example = "ruby@3.3", .host_exe = "ruby",
	  .word_ok = release_word,
	  .word_want = "ruby@X.Y (3.3), a full version (3.3.8), a Debian version (3.3.8-2) or a release (trixie)",
	  .probe = { "--disable-gems", "-rrbconfig", "-e",
		     "print RUBY_VERSION, \"\\t\", File.join(RbConfig::CONFIG[\"libdir\"].to_s, RbConfig::CONFIG[\"LIBRUBY_SO\"].to_s)",
		     NULL },
	  .probe_path = MR_PROBE_LIBRARY, .flag = "--disable-gems", .kind = &mr_rtruby_kind,
	  .new_offers = 1, .default_axis = 1, .versions = 1 },
	{ .name = "python", .ext = "py", .example = "python@3.11", .host_exe = "python3",
	  .word_ok = release_word,
	  .word_want = "python@X.Y (3.11), a full version (3.11.2), a Debian version (3.11.2-6) or a release (trixie)",
	  .probe = { "-S", "-c", "import sys; print('%d.%d.%d\\t%s' % (sys.version_info[:3] + (sys.executable,)))",
		     NULL },
	  .probe_path = MR_PROBE_INTERPRETER, .flag = "-S", .kind = &mr_rtpython_kind,
	  .new_offers = 1, .default_axis = 1, .versions = 1 },
	{ .name = "go", .ext = "go", .example = "go@1.19", .host_exe = "go",
	  .word_ok = release_word,
	  .word_want = "go@X.Y (1.19), a full version (1.19.8), a Debian version (1.19.8-2) or a release (trixie)",
	  .host_hook = mr_rtgo_host, .kind = &mr_rtgo_kind },
	{ .name = "redis", .ext = "redis", .example = "redis@7", .host_exe = "redis-server",
	  .word_ok = redis_word,
	  .word_want = "redis@X (7), redis@X.Y (7.0), a full version (7.0.15), a Debian version (5:7.0.15-1~deb12u7) or a release (bookworm)",
	  .host_hook = mr_rtredis_host, .kind = &mr_rtredis_kind },
	{ .name = "java", .ext = "java", .example = "java@17", .host_exe = "java",
	  .word_ok = java_word,
	  .word_want = "java@N (17), a full version (17.0.15+6), a Debian version (17.0.15+6-1~deb12u1) or a release (trixie)",
	  /* "openjdk 17.0.15 2025-04-15", "openjdk 25 2025-09-16" */
	  .probe = { "--version", NULL }, .version_word = 1, .bare_major = 1,
	  .kind = &mr_rtjava_kind, .default_axis = 1, .versions = 1 },
	{ 0 },
};

const struct mr_lang *
mr_lang_of(const char *spec, const char **word)
{
	const struct mr_lang *l;

	*word = NULL;
	for (l = mr_langs; l->name; l++) {
		size_t n = strlen(l->name);

		if (strncmp(spec, l->name, n) == 0 && (spec[n] == '\0' || spec[n] == '@')) {
			*word = spec[n] ? spec + n + 1 : NULL;
			return l;
		}
	}
	return NULL;
}

const struct mr_lang *
mr_lang_find(const char *name)
{
	const struct mr_lang *l;

	for (l = mr_langs; l->name; l++)
		if (strcmp(l->name, name) == 0)
			return l;
	return NULL;
}

const char *
mr_lang_meta(const struct mr_lang *l)
{
	return l->kind ? l->kind->meta : NULL;
}

char *
mr_lang_pkg(const struct mr_lang *l, const char *up)
{
	return l->kind ? mr_rt_kind_pkg(l->kind, up) : NULL;
}

void
mr_langs_list(struct strbuf *sb, const char *fmt, const char *sep, const char *last, int new_only)
{
	const struct mr_lang *l;
	int n = 0, i = 0;

	for (l = mr_langs; l->name; l++)
		n += !new_only || l->new_offers;
	for (l = mr_langs; l->name; l++) {
		if (new_only && !l->new_offers)
			continue;
		if (i++)
			sb_add(sb, i == n ? last : sep);
		sb_printf(sb, fmt, l->name, l->name);
	}
}

void
mr_langs_examples(struct strbuf *sb)
{
	const struct mr_lang *l;

	for (l = mr_langs; l->name; l++)
		sb_printf(sb, "%s%s", l == mr_langs ? "" : ", ", l->example);
}
