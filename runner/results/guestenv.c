/* guestenv: what env.tsv says of the guests whose runs a results
 * directory joined (docs/kernels.md) — see read.h. */
#include "results/read.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* N of a "guest.N.KEY" key: 1 or more, or 0 (not a guest's number). */
static int
guest_no(const char *k)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(k + 6, &end, 10);
	return errno || end == k + 6 || *end != '.' || n <= 0 || n > INT_MAX ? 0 : (int)n;
}

/* The value of key in the pairs "k=v,k=v" of s, into buf (size n), or
 * NULL. */
static const char *
pair_of(const char *s, const char *key, char *buf, size_t n)
{
	size_t kl = strlen(key);

	while (s && *s) {
		size_t len = strcspn(s, ",");

		if (len > kl && s[kl] == '=' && strncmp(s, key, kl) == 0 && len - kl - 1 < n) {
			memcpy(buf, s + kl + 1, len - kl - 1);
			buf[len - kl - 1] = '\0';
			return buf;
		}
		s += len + (s[len] == ',');
	}
	return NULL;
}

int
mr_rd_guest(const struct mr_rd *R, const char *kernel)
{
	char buf[128];
	int i;

	for (i = 0; kernel && i < R->nenv; i++) {
		const char *k = R->envk[i], *v = R->envv[i], *g;
		size_t n = strlen(k);

		if (strncmp(k, "guest.", 6) || n < 13 || strcmp(k + n - 7, ".config"))
			continue;
		if (!(g = pair_of(v, "kernel", buf, sizeof buf)) || strcmp(g, kernel))
			continue;
		return guest_no(k);
	}
	return 0;
}

const char *
mr_rd_guest_env(const struct mr_rd *R, int n, const char *key)
{
	char *k = esprintf(MR_ENVK_GUEST, n, key);
	const char *v = mr_rd_env(R, k);

	free(k);
	return v;
}

int
mr_rd_guest_plats(const struct mr_rd *R, struct mr_rd_plat **out)
{
	int n = 0, i;

	*out = ecalloc((size_t)R->nenv + 1, sizeof **out);
	for (i = 0; i < R->nenv; i++) {
		const char *k = R->envk[i];
		size_t len = strlen(k);
		int g;

		if (strncmp(k, "guest.", 6) || len < 13 || strcmp(k + len - 7, ".config") ||
		    (g = guest_no(k)) <= 0)
			continue;
		(*out)[n].n = g;
		(*out)[n].frag = R->envv[i];
		(*out)[n].platform = mr_rd_guest_env(R, g, MR_GUESTK_PLATFORM);
		n++;
	}
	return n;
}

char *
mr_rd_plat_config(const struct mr_config *c, const char *frag)
{
	char buf[128];
	struct strbuf b = {0};
	const char *p;
	size_t len;
	int i;

	for (i = 0; i < c->n; i++) {
		const char *want = NULL;
		int kern = !strcmp(c->key[i], "kernel") || !strncmp(c->key[i], "kernel.", 7);

		if (kern && frag && !(want = pair_of(frag, c->key[i], buf, sizeof buf)))
			goto no;
		if (kern && frag && strcmp(want, c->val[i]))
			goto no;
		if (kern && !frag && strcmp(c->key[i], "kernel") == 0 && strcmp(c->val[i], "host"))
			goto no;
		if (!kern)
			sb_printf(&b, "%s%s=%s", b.len ? "," : "", c->key[i], c->val[i]);
	}
	/* frag's pairs are all c's */
	for (p = frag; p && *p; p += len + (p[len] == ',')) {
		const char *eq;
		char *key;
		int ok;

		len = strcspn(p, ",");
		if (!(eq = memchr(p, '=', len)))
			goto no;
		key = estrndup(p, (size_t)(eq - p));
		ok = pair_of(frag, key, buf, sizeof buf) &&
		     mr_config_same(mr_config_get(c, key), buf);
		free(key);
		if (!ok)
			goto no;
	}
	return b.s ? b.s : estrdup("");
no:
	sb_free(&b);
	return NULL;
}
