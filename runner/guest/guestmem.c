/* guestmem: a guest's memory from its runs' expected peaks — see guestmem.h. */
#include "guest/guestmem.h"

#include <gnu/libc-version.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "check/casetab.h"
#include "session/plan.h"

long
mr_guest_env_long(const char *name)
{
	const char *v = getenv(name);
	long long n;

	return v && *v && parse_ll(v, &n) == 0 && n > 0 && n < 1000000000 ? (long)n : 0;
}

/* MemAvailable of /proc/meminfo in MiB, 0 when unknown. */
static long
available_mib(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[256];
	long kb = 0;

	while (f && fgets(line, sizeof line, f))
		if (strncmp(line, "MemAvailable:", 13) == 0) {
			kb = strtol(line + 13, NULL, 10);
			break;
		}
	if (f)
		fclose(f);
	return kb / 1024;
}

long
mr_guest_mem(const struct mr_cases_desc *cases, int ncases, const struct mr_matrix *mats,
	     const char *expected_dir, const char *kup, const char *thp, struct strbuf *why)
{
	long env = mr_guest_env_long("MEMREPRO_GUEST_MEM_MIB");
	struct utsname u;
	unsigned maj = 0, min = 0;
	uint64_t **peak = NULL, top = 0;
	long mem, avail, cap;
	char *platform;
	int i, k;

	if (env) {
		sb_add(why, "MEMREPRO_GUEST_MEM_MIB");
		return env;
	}
	if (uname(&u) < 0)
		memset(&u, 0, sizeof u);
	{
		char *e;

		maj = (unsigned)strtoul(kup, &e, 10);
		if (*e == '.')
			min = (unsigned)strtoul(e + 1, NULL, 10);
	}
	platform = esprintf("%s-glibc%s-linux%u.%u-thp_%s-cpu2", u.machine, gnu_get_libc_version(),
			    maj, min, thp ? thp : "always");
	{
		/* the guest's platform's baselines, not the session's */
		struct mr_casetab tab;

		mr_casetab_init(&tab, NULL, expected_dir);
		mr_plan_peaks(cases, ncases, mats, &tab, platform, &peak);
		mr_casetab_free(&tab);
	}
	for (i = 0; peak && i < ncases; i++)
		for (k = 0; peak[i] && k < mats[i].n; k++)
			if (peak[i][k] > top)
				top = peak[i][k];
	mr_plan_peaks_free(peak, ncases);
	mem = ((long)(top / 1024) + MR_GUEST_MEM_OWN + 255) / 256 * 256;
	if (top)
		sb_printf(why, "the largest expected peak, %ld MiB (baseline %s), and %d MiB of its own",
			  (long)(top / 1024), platform, MR_GUEST_MEM_OWN);
	else
		sb_printf(why, "no expected peak (no baseline %s)", platform);
	if (mem < MR_GUEST_MEM_MIN)
		mem = MR_GUEST_MEM_MIN;
	avail = available_mib();
	cap = avail / 2 > MR_GUEST_MEM_MIN ? avail / 2 : MR_GUEST_MEM_MIN;
	if (cap > MR_GUEST_MEM_MAX)
		cap = MR_GUEST_MEM_MAX;
	if (mem > cap) {
		sb_printf(why, "; capped at %ld MiB (half the %ld MiB available, at most %d)", cap,
			  avail, MR_GUEST_MEM_MAX);
		mem = cap;
	}
	free(platform);
	return mem;
}
