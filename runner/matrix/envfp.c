/* envfp: collect the environment fingerprint — see envfp.h. */
#include "matrix/envfp.h"
#include "matrix/libc.h"

#include <gnu/libc-version.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "mr_proc.h"
#include "core/util.h"
#include "proto/schema.h"

#ifndef MEMREPRO_VERSION
#define MEMREPRO_VERSION "0.1"
#endif
/* The Makefile defines it (build/commit.h); other builds (lint) do not. */
#ifndef MR_COMMIT
#define MR_COMMIT "unknown"
#endif

static void __attribute__((format(printf, 3, 4)))
add(struct mr_envfp *fp, const char *key, const char *fmt, ...)
{
	va_list ap;
	char *v, *p;

	va_start(ap, fmt);
	if (vasprintf(&v, fmt, ap) < 0)
		eprintf("vasprintf:");
	va_end(ap);
	for (p = v; *p; p++)
		if (*p == '\t' || *p == '\n' || *p == '\r')
			*p = ' ';
	if (!*v) {
		free(v);
		v = estrdup("-");
	}
	fp->key = erealloc(fp->key, (size_t)(fp->n + 1) * sizeof *fp->key);
	fp->val = erealloc(fp->val, (size_t)(fp->n + 1) * sizeof *fp->val);
	fp->key[fp->n] = estrdup(key);
	fp->val[fp->n] = v;
	fp->n++;
}

/* A "Key : value" line of /proc/cpuinfo or /proc/meminfo (cpuinfo can
 * be large on big machines: read line by line). */
static void
proc_field(const char *path, const char *key, char *out, size_t size)
{
	FILE *f = fopen(path, "re");
	size_t kl = strlen(key), cap = 0;
	char *line = NULL;

	snprintf(out, size, "-");
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		char *v, *e;

		if (strncmp(line, key, kl) != 0 || (line[kl] != ' ' && line[kl] != '\t' && line[kl] != ':'))
			continue;
		if (!(v = strchr(line, ':')))
			continue;
		for (v++; *v == ' ' || *v == '\t'; v++)
			;
		e = v + strlen(v);
		while (e > v && (e[-1] == '\n' || e[-1] == ' '))
			*--e = '\0';
		snprintf(out, size, "%s", v);
		break;
	}
	free(line);
	fclose(f);
}

/* The cases inherit the runner's environment, and these variables change
 * what an allocator does (MALLOC_CONF: jemalloc's options; MALLOC_*: glibc's
 * old tunables; MIMALLOC_*, TCMALLOC_*): record them, as env.NAME, so a
 * figure measured under one is never mistaken for the allocator's default. */
static void
inherited_allocator_env(struct mr_envfp *fp)
{
	static const char *const prefixes[] = {
		"MALLOC_", "MIMALLOC_", "TCMALLOC_", "JEMALLOC_", "_RJEM_MALLOC_CONF",
	};
	char **e;
	size_t i;

	for (e = environ; *e; e++) {
		const char *eq = strchr(*e, '=');

		if (!eq)
			continue;
		for (i = 0; i < sizeof prefixes / sizeof *prefixes; i++) {
			if (strncmp(*e, prefixes[i], strlen(prefixes[i])) == 0) {
				char *key = esprintf("env.%.*s", (int)(eq - *e), *e);

				add(fp, key, "%s", eq + 1);
				free(key);
				break;
			}
		}
	}
}

/* Where the library of a spec with "@" came from:
 * allocator.<spec>.{package,release,sha256}, and the glibc it needs. */
static void
fetched(struct mr_envfp *fp, const struct mr_alloc *a)
{
	char key[256];

	if (!a->release)
		return;
	snprintf(key, sizeof key, MR_ENVK_ALLOC_PACKAGE, a->spec);
	add(fp, key, "%s %s", a->fetched_package, a->pkg_version);
	snprintf(key, sizeof key, MR_ENVK_ALLOC_RELEASE, a->spec);
	add(fp, key, "%s", a->release);
	snprintf(key, sizeof key, MR_ENVK_ALLOC_SHA256, a->spec);
	add(fp, key, "%s", a->sha256);
	snprintf(key, sizeof key, MR_ENVK_ALLOC_GLIBC_NEED, a->spec);
	add(fp, key, "%s", a->glibc_need ? a->glibc_need : "-");
}

/* The glibcs of the libc axis other than the host's (which "libc"
 * records): libc.<version>.{package,release,version,loader,sha256}, or
 * libc.<version>.missing. */
static void
libcs(struct mr_envfp *fp)
{
	int i;

	for (i = 0; i < mr_libc_count(); i++) {
		const struct mr_libc *l = mr_libc_at(i);
		char key[64];

		if (l->host)
			continue;
		if (l->missing) {
			snprintf(key, sizeof key, MR_ENVK_LIBC_MISSING, l->version);
			add(fp, key, "%s", l->missing);
			continue;
		}
		snprintf(key, sizeof key, MR_ENVK_LIBC_PACKAGE, l->version);
		add(fp, key, "%s", l->package);
		snprintf(key, sizeof key, MR_ENVK_LIBC_RELEASE, l->version);
		add(fp, key, "%s", l->release);
		snprintf(key, sizeof key, MR_ENVK_LIBC_VERSION, l->version);
		add(fp, key, "%s", l->debver);
		snprintf(key, sizeof key, MR_ENVK_LIBC_LOADER, l->version);
		add(fp, key, "%s", l->loader);
		snprintf(key, sizeof key, MR_ENVK_LIBC_SHA256, l->version);
		add(fp, key, "%s", l->sha256);
	}
}

/* The runner's resource limits, which its cases inherit: the soft limit
 * (the one in force), in the kernel's units (bytes, or a count), or
 * "unlimited".  RLIMIT_STACK is also glibc's default thread stack size,
 * so it moves every thread's VSZ; RLIMIT_AS turns large reservations into
 * failures. */
static void
rlimits(struct mr_envfp *fp)
{
	static const struct {
		const char *key;
		int res;
	} lim[] = {
		{ MR_ENVK_RLIMIT_AS, RLIMIT_AS },
		{ MR_ENVK_RLIMIT_STACK, RLIMIT_STACK },
		{ MR_ENVK_RLIMIT_NOFILE, RLIMIT_NOFILE },
		{ MR_ENVK_RLIMIT_NPROC, RLIMIT_NPROC },
		{ MR_ENVK_RLIMIT_MEMLOCK, RLIMIT_MEMLOCK },
	};
	size_t i;

	for (i = 0; i < sizeof lim / sizeof *lim; i++) {
		struct rlimit rl;

		if (getrlimit(lim[i].res, &rl) < 0)
			add(fp, lim[i].key, "-");
		else if (rl.rlim_cur == RLIM_INFINITY)
			add(fp, lim[i].key, "unlimited");
		else
			add(fp, lim[i].key, "%llu", (unsigned long long)rl.rlim_cur);
	}
}

/* The platform key's CPUs: figures depend on them.  glibc 2.36 makes up
 * to 8 arenas per online CPU (thread-vsz, 250 threads on 2 CPUs: 15 extra
 * 64 MiB heaps of VSZ), whatever the affinity mask (the same 1.4 GiB
 * under taskset -c 0); jemalloc 4 per CPU of the mask (584.3 MiB, 550.3
 * under taskset -c 0; by hand, x86_64, Linux 6.18).  "cpu2"; "cpu1of2"
 * when the mask (taskset, a cpuset) holds fewer CPUs than are online. */
static void
cpu_key(char *out, size_t size)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;
	int usable = 0;

	if (sched_getaffinity(0, sizeof set, &set) == 0)
		usable = CPU_COUNT(&set);
	if (usable > 0 && usable < online)
		snprintf(out, size, "cpu%dof%ld", usable, online);
	else
		snprintf(out, size, "cpu%ld", online);
}

void
mr_envfp_collect(struct mr_envfp *fp, const struct mr_envfp_run *run,
		 const struct mr_alloc_tab *allocs, const struct mr_machine *m)
{
	struct utsname u;
	const char *thp = m->val[MR_MACHINE_THP], *root = getenv(MR_MACHINE_ROOT_ENV);
	char buf[512], started[64], cpus[64];
	unsigned maj = 0, min = 0;
	long long memkb = 0;
	time_t now = time(NULL);
	struct tm tm;
	int i;

	memset(fp, 0, sizeof *fp);
	if (uname(&u) < 0)
		memset(&u, 0, sizeof u);
	{
		char *e;

		maj = (unsigned)strtoul(u.release, &e, 10);
		if (*e == '.')
			min = (unsigned)strtoul(e + 1, NULL, 10);
	}
	cpu_key(cpus, sizeof cpus);
	add(fp, MR_ENVK_PLATFORM, "%s-glibc%s-linux%u.%u-thp_%s-%s", u.machine,
	    gnu_get_libc_version(), maj, min, thp, cpus);
	add(fp, MR_ENVK_KERNEL, "%s %s", u.release, u.version);
	add(fp, MR_ENVK_LIBC, "%s", gnu_get_libc_version());
	add(fp, MR_ENVK_ARCH, "%s", u.machine);
	add(fp, MR_ENVK_CPUS, "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	proc_field("/proc/cpuinfo", "model name", buf, sizeof buf);
	add(fp, MR_ENVK_CPU_MODEL, "%s", buf);
	proc_field("/proc/meminfo", "MemTotal", buf, sizeof buf);
	memkb = strtoll(buf, NULL, 10);
	add(fp, MR_ENVK_MEM_TOTAL_KB, "%lld", memkb);
	for (i = 0; i < MR_MACHINE_NKEYS; i++)
		add(fp, mr_machine_keys[i], "%s", m->val[i]);
	if (root && *root)
		add(fp, MR_ENVK_MACHINE_ROOT, "%s", root);
	rlimits(fp);
	add(fp, MR_ENVK_MEMREPRO_VERSION, "%s", MEMREPRO_VERSION);
	add(fp, MR_ENVK_COMMIT, "%s", MR_COMMIT);
	add(fp, MR_ENVK_PROFILE, "%s", run->profile);
	add(fp, MR_ENVK_REPEAT, "%d", run->repeat);
	add(fp, MR_ENVK_INTERVAL_MS, "%d", run->interval_ms);
	add(fp, MR_ENVK_TIMEOUT_S, "%g", run->timeout_s);
	gmtime_r(&now, &tm);
	strftime(started, sizeof started, "%Y-%m-%dT%H:%M:%SZ", &tm);
	add(fp, MR_ENVK_STARTED, "%s", started);
	for (i = 0; i < allocs->n; i++) {
		const struct mr_alloc *a = &allocs->a[i];
		char key[256];

		snprintf(key, sizeof key, MR_ENVK_ALLOC_SONAME, a->spec);
		add(fp, key, "%s", a->soname);
		fetched(fp, a);
		if (a->missing) {
			snprintf(key, sizeof key, MR_ENVK_ALLOC_MISSING, a->spec);
			add(fp, key, "%s", a->missing);
			continue;
		}
		snprintf(key, sizeof key, MR_ENVK_ALLOC_PATH, a->spec);
		add(fp, key, "%s", a->path ? a->path : "-");
		snprintf(key, sizeof key, MR_ENVK_ALLOC_VERSION, a->spec);
		add(fp, key, "%s", a->version ? a->version : "-");
	}
	libcs(fp);
	inherited_allocator_env(fp);
}

void
mr_envfp_add(struct mr_envfp *fp, const char *key, const char *val)
{
	add(fp, key, "%s", val);
}

const char *
mr_envfp_get(const struct mr_envfp *fp, const char *key)
{
	int i;

	for (i = 0; i < fp->n; i++)
		if (strcmp(fp->key[i], key) == 0)
			return fp->val[i];
	return NULL;
}

void
mr_envfp_free(struct mr_envfp *fp)
{
	int i;

	for (i = 0; i < fp->n; i++) {
		free(fp->key[i]);
		free(fp->val[i]);
	}
	free(fp->key);
	free(fp->val);
	memset(fp, 0, sizeof *fp);
}
