/* guestenv: what env.tsv says of the guests whose runs a results
 * directory joined (docs/kernels.md) — see read.h. */
#include "results/read.h"

#include <stdlib.h>
#include <string.h>

#include "core/util.h"

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
mr_rd_guest(const struct mr_rd *R, const char *kernel, const char *thp)
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
		if (thp && (!(g = pair_of(v, "kernel.thp", buf, sizeof buf)) || strcmp(g, thp)))
			continue;
		return atoi(k + 6) > 0 ? atoi(k + 6) : 0;
	}
	return 0;
}

const char *
mr_rd_guest_env(const struct mr_rd *R, int n, const char *key)
{
	char *k = esprintf("guest.%d.%s", n, key);
	const char *v = mr_rd_env(R, k);

	free(k);
	return v;
}
