#include "out/runenv.h"

#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "proto/schema.h"

/* Keys that name the run, not what it ran under: they differ between any
 * two runs. */
static int
identity_key(const char *k)
{
	static const char *const keys[] = { MR_ENVK_STARTED, MR_ENVK_CASES, MR_ENVK_CASES_DIR };
	size_t i, n = strlen(k);

	for (i = 0; i < sizeof keys / sizeof *keys; i++)
		if (!strcmp(k, keys[i]))
			return 1;
	/* memory_cgroup.parent, kill_cgroup.parent: where, not how */
	return n > 7 && !strcmp(k + n - 7, ".parent");
}

/* "N of M": the runs of R that ran beside others, of those measured. */
static char *
overlapped(const struct mr_rd *R)
{
	long over = 0, all = 0;
	int i, j;

	for (i = 0; i < R->nk; i++)
		for (j = 0; j < R->k[i].nrun; j++) {
			const struct mr_rd_run *r = &R->k[i].run[j];

			if (r->outcome != MR_RD_OK)
				continue;
			all++;
			over += r->overlap > 0;
		}
	return esprintf("%ld of %ld", over, all);
}

/* Print key's values v[0..n-1] (NULL: "-") when they are not all equal;
 * 1 when printed. */
static int
print_key(FILE *f, const char *key, const char *const *v, int n)
{
	int t, same = 1;

	for (t = 1; t < n; t++)
		same &= (!v[t] && !v[0]) || (v[t] && v[0] && !strcmp(v[t], v[0]));
	if (same)
		return 0;
	fprintf(f, "  %-24s", key);
	if (n == 2) {
		fprintf(f, " %s -> %s\n", v[0] ? v[0] : "-", v[1] ? v[1] : "-");
		return 1;
	}
	for (t = 0; t < n; t++)
		fprintf(f, " %d:%s", t + 1, v[t] ? v[t] : "-");
	fputc('\n', f);
	return 1;
}

int
mr_runenv_print(FILE *f, struct mr_rd *const *R, int n)
{
	const char **v = ecalloc(n + 1, sizeof *v);
	char **ov = ecalloc(n + 1, sizeof *ov);
	int ndiff = 0, nkeys = 0, t, u, i;

	fprintf(f, "ran under:%s\n", n == 2 ? " (old -> new)" : "");
	/* every key once, in the order of the first directory that has it */
	for (t = 0; t < n; t++)
		for (i = 0; i < R[t]->nenv; i++) {
			const char *key = R[t]->envk[i];

			for (u = 0; u < t && !mr_rd_env(R[u], key); u++)
				;
			if (u < t || identity_key(key))
				continue;
			nkeys++;
			for (u = 0; u < n; u++)
				v[u] = mr_rd_env(R[u], key);
			ndiff += print_key(f, key, v, n);
		}
	for (t = 0; t < n; t++)
		v[t] = ov[t] = overlapped(R[t]);
	ndiff += print_key(f, "runs beside others", v, n);
	if (!ndiff)
		fprintf(f, "  the same: %d settings of " MR_FILE_ENV " (jobs, THP, kernel, versions, profile...) alike\n",
			nkeys);
	for (t = 0; t < n; t++)
		free(ov[t]);
	free(ov);
	free(v);
	return ndiff;
}
