/* guestrun: one guest of a session — see guestrun.h. */
#include "guest/guestrun.h"

#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/safeio.h"
#include "guest/guestaccel.h"
#include "guest/guestboot.h"
#include "guest/guestmem.h"
#include "guest/initrd.h"
#include "proto/schema.h"

#define TCG_SLOWER 10       /* TCG runs the cases 5-20x slower */
#define BOOT_S 120          /* booting, mounting, the runner's set-up */
#define MAX_S (6 * 3600)

/* s quoted for sh. */
static void
sq(struct strbuf *b, const char *s)
{
	sb_add(b, " '");
	for (; *s; s++)
		if (*s == '\'')
			sb_add(b, "'\\''");
		else
			sb_addn(b, s, 1);
	sb_add(b, "'");
}

static char *
absolute(const char *p)
{
	char buf[PATH_MAX];

	return realpath(p, buf) ? estrdup(buf) : estrdup(p);
}

/* run.sh: the runner inside, on this guest's configs. */
static int
write_script(const struct mr_session_opts *o, const struct mr_matrix_axis *hax, int nhax,
	     const char *share, int slower, struct strbuf *why)
{
	struct strbuf b = { 0 }, v = { 0 };
	const char *cache = getenv("XDG_CACHE_HOME"), *home = getenv("HOME"), *rel;
	char *exe = absolute(o->self_exe), *path, *x;
	double factor = (o->factor > 0 ? o->factor : 1) * slower;
	int i, j;
	FILE *f;

	sb_add(&b, "#!/bin/sh\n# the guest's runs, written by memrepro (guest/guestrun.c)\nexec env -i");
	x = esprintf("PATH=%s", getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	sq(&b, x);
	free(x);
	sq(&b, "HOME=/tmp");
	sq(&b, "LC_ALL=C");
	sq(&b, MR_GUEST_ENV "=1");
	x = cache && *cache ? esprintf("XDG_CACHE_HOME=%s", cache) :
			      esprintf("XDG_CACHE_HOME=%s/.cache", home ? home : "/tmp");
	sq(&b, x);
	free(x);
	if ((rel = getenv("MEMREPRO_RELEASES")) != NULL) {
		x = esprintf("MEMREPRO_RELEASES=%s", rel);
		sq(&b, x);
		free(x);
	}
	sq(&b, exe);
	sq(&b, "run");
	sq(&b, "-q");
	for (i = 0; i < o->nnames; i++)
		sq(&b, o->names[i]);
	x = absolute(o->cases_dir);
	sb_add(&b, " --cases");
	sq(&b, x);
	free(x);
	if (o->expected_dir) {
		x = absolute(o->expected_dir);
		sb_add(&b, " --expected");
		sq(&b, x);
		free(x);
	}
	/* the kernels profile's share is a quick run in the guest: the
	 * kernel axis is the host's */
	sb_printf(&b, " --profile %s", mr_profiles[mr_profile_of(o->quick, o->versions,
								  o->originals, 0)]);
	if (o->repeat > 0)
		sb_printf(&b, " --repeat %ld", o->repeat);
	if (o->timeout_s > 0)
		sb_printf(&b, " --timeout %g", o->timeout_s);
	sb_printf(&b, " --timeout-factor %g", factor);
	if (o->interval_ms > 0)
		sb_printf(&b, " --interval %ld", o->interval_ms);
	if (o->mem_cap_mib > 0)
		sb_printf(&b, " --mem-cap %ld", o->mem_cap_mib);
	for (i = 0; i < nhax; i++) {
		sb_printf(&v, "%s=", hax[i].key);
		for (j = 0; j < hax[i].nvals; j++)
			sb_printf(&v, "%s%s", j ? "," : "", hax[i].vals[j]);
		sb_add(&b, " --axis");
		sq(&b, v.s);
		v.len = 0;
	}
	path = esprintf("%s/results", share);
	sb_add(&b, " --out");
	sq(&b, path);
	sb_add(&b, "\n");
	free(path);
	path = esprintf("%s/run.sh", share);
	if (!(f = fopen(path, "we"))) {
		sb_printf(why, "%s: %s", path, strerror(errno));
	} else {
		int bad = fputs(b.s, f) < 0;

		if (fclose(f) != 0 || bad)
			sb_printf(why, "write %s: %s", path, strerror(errno));
	}
	free(path);
	free(exe);
	sb_free(&b);
	sb_free(&v);
	return why->len ? -1 : 0;
}

/* The guest's env.tsv value of key (fresh), "-" when none. */
static char *
guest_env(const char *share, const char *key)
{
	char *line = NULL, *r = NULL;
	size_t cap = 0, n = strlen(key);
	FILE *f = mr_sio_fopen(share, "results/" MR_FILE_ENV, MR_SIO_ENV_MAX);

	while (f && !r && getline(&line, &cap, f) > 0)
		if (strncmp(line, key, n) == 0 && line[n] == '\t')
			r = estrndup(line + n + 1, strcspn(line + n + 1, "\n"));
	if (f)
		fclose(f);
	free(line);
	return r ? r : estrdup("-");
}

/* One of the guest's keys (proto/schema.h: MR_GUESTK_*) into f. */
static void put(FILE *f, int n, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void
put(FILE *f, int n, const char *key, const char *fmt, ...)
{
	va_list ap;

	fprintf(f, MR_ENVK_GUEST "\t", n, key);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
}

/* The guest's keys into OUT/env.tsv. */
static void
env_keys(const char *outdir, const char *share, const struct mr_guest_group *g, long mem,
	 const char *accel, const char *accel_why, const struct mr_guest_end *e)
{
	char *p = esprintf("%s/" MR_FILE_ENV, outdir), *thp = guest_env(share, MR_ENVK_THP);
	char *defrag = guest_env(share, MR_ENVK_THP_DEFRAG), *kern = guest_env(share, MR_ENVK_KERNEL);
	char *plat = guest_env(share, MR_ENVK_PLATFORM);
	FILE *f = fopen(p, "ae");
	int n = g->index;

	if (f) {
		put(f, n, MR_GUESTK_CONFIG, "%s", g->frag);
		put(f, n, MR_GUESTK_KERNEL, "%s", g->kspec);
		if (g->k) {
			put(f, n, MR_GUESTK_PACKAGE, "%s %s", g->k->package, g->k->version);
			put(f, n, MR_GUESTK_RELEASE, "%s", g->k->release);
			put(f, n, MR_GUESTK_VMLINUX_SHA256, "%s", g->k->vmlinux_sha256);
			put(f, n, MR_GUESTK_DEB_SHA256, "%s", g->k->deb_sha256);
		}
		if (accel) {
			put(f, n, MR_GUESTK_ACCEL, "%s", accel);
			put(f, n, MR_GUESTK_ACCEL_WHY, "%s", accel_why);
		}
		put(f, n, MR_GUESTK_MEM_WHY, "%s", g->mem_why ? g->mem_why : "-");
		put(f, n, MR_GUESTK_MEM_MIB, "%ld", mem);
		put(f, n, MR_GUESTK_CPUS, "2");
		put(f, n, MR_GUESTK_UNAME, "%s", kern);
		put(f, n, MR_GUESTK_THP, "%s", thp);
		put(f, n, MR_GUESTK_THP_DEFRAG, "%s", defrag);
		/* its baselines' key (check/baseline.h): the guest's kernel and THP */
		if (strcmp(plat, "-"))
			put(f, n, MR_GUESTK_PLATFORM, "%s", plat);
		if (e) {
			put(f, n, MR_GUESTK_WALL_S, "%.1f", e->wall_s);
			put(f, n, MR_GUESTK_END, "%s", e->marker ? "marker" : "no marker");
		}
		fclose(f);
	}
	free(p);
	free(thp);
	free(defrag);
	free(kern);
	free(plat);
}

/* The comm of a process the guest's OOM killer killed, from its console
 * ("Out of memory: Killed process 114 (fiber-stacks) ..."), fresh, or
 * NULL. */
static char *
oom_victim(const char *share)
{
	FILE *f = mr_sio_fopen(share, "console.log", (off_t)64 << 20);
	char *line = NULL, *r = NULL, *p;
	size_t cap = 0;

	while (f && !r && getline(&line, &cap, f) > 0)
		if ((p = strstr(line, "Out of memory: Killed process ")) != NULL &&
		    (p = strchr(p + 30, '(')) != NULL && strchr(p, ')'))
			r = estrndup(p + 1, strcspn(p + 1, ")"));
	if (f)
		fclose(f);
	free(line);
	return r;
}

/* What a guest was booted with. */
struct how {
	long mem;
	const char *accel, *accel_why;
};

/* The guest of g in share: its initramfs, its accelerator (h), its
 * run.sh, its boot; *e filled.  0, or -1 with why. */
static int
boot(const struct mr_session_opts *o, const struct mr_matrix_axis *hax, int nhax,
     const char *share, const struct mr_guest_group *g, int nruns, struct how *h,
     struct mr_guest_end *e, struct strbuf *why)
{
	struct mr_guest_boot b = { 0 };
	char *bb = mr_initrd_busybox(why), *init = mr_initrd_init_path();
	char *initrd = esprintf("%s/initrd", share), *probe = esprintf("%s-kvm-probe", share);
	long tenv = mr_guest_env_long("MEMREPRO_GUEST_TIMEOUT");
	int rc = -1, slower = 1;
	double per;

	if (!bb || mr_initrd_write(initrd, init, bb, g->k->modules, g->k->nmodules, why) < 0)
		goto out;
	h->accel = mr_guest_accel(g->k->vmlinux, initrd, probe, &h->accel_why);
	if (strcmp(h->accel, "tcg") == 0)
		slower = TCG_SLOWER;
	if (write_script(o, hax, nhax, share, slower, why) < 0)
		goto out;
	per = (o->timeout_s > 0 ? o->timeout_s : MR_SESSION_DEFAULT_TIMEOUT_S) *
	      (o->factor > 0 ? o->factor : 1) * slower;
	b.vmlinux = g->k->vmlinux;
	b.initrd = initrd;
	b.share = share;
	b.append = g->append;
	b.accel = h->accel;
	b.mem_mib = h->mem;
	b.cpus = 2;
	b.timeout_s = tenv ? tenv : BOOT_S + (long)(per * nruns);
	if (b.timeout_s > MAX_S && !tenv)
		b.timeout_s = MAX_S;
	if (mr_guest_boot(&b, e) == 0)
		rc = 0;
	else
		sb_add(why, e->why ? e->why : "qemu could not be started");
out:
	free(bb);
	free(init);
	free(initrd);
	free(probe);
	return rc;
}

int
mr_guest_run(const struct mr_session_opts *o, const struct mr_matrix_axis *hax, int nhax,
	     const char *outdir, const struct mr_guest_group *g,
	     const struct mr_guest_pair *pairs, int npairs)
{
	struct strbuf why = { 0 };
	struct mr_guest_end e = { 0 };
	struct mr_guest_merge m = { 0 };
	struct how h = { g->mem_mib, NULL, NULL };
	char *out = absolute(outdir), *sub = esprintf("guests/%d", g->index);
	char *share = esprintf("%s/%s", out, sub);
	int i, nruns = 0, rc = MR_FAILED, booted = 0, added;
	char *oom = NULL, *oom_note = NULL;

	for (i = 0; i < npairs; i++)
		nruns += pairs[i].repeats;
	if (strchr(share, ' ') || strchr(share, '\t'))
		sb_printf(&why, "the results directory's path %s has a blank: the guest cannot be told it", out);
	else if (mkdir_p(share) < 0)
		sb_printf(&why, "%s: %s", share, strerror(errno));
	else if (!g->k)
		sb_printf(&why, "kernel %s cannot be had: %s", g->kspec, g->kwhy);
	else if (boot(o, hax, nhax, share, g, nruns, &h, &e, &why) == 0)
		booted = 1;
	if (!o->quiet && booted && e.marker)
		fprintf(o->progress ? o->progress : stdout, "guest %d (%s): ended (exit %d) after %.1f s\n",
			g->index, g->frag, e.status, e.wall_s);
	else if (!o->quiet)
		fprintf(o->progress ? o->progress : stdout, "guest %d (%s): %s\n", g->index, g->frag,
			booted ? e.why : why.s);
	m.out = out;
	m.sub = sub;
	m.frag = g->frag;
	m.accel = g->k ? h.accel : NULL;
	m.pairs = pairs;
	m.npairs = npairs;
	m.outcome = g->k && (booted || !why.len) ? "failed" : "skipped";
	m.why = booted ? e.why : why.s;
	if (booted && (oom = oom_victim(share)) != NULL) {
		oom_note = esprintf("the guest ran out of its %ld MiB (its console: Out of memory: Killed process ... (%s))",
				    h.mem, oom);
		m.oom = oom;
		m.oom_note = oom_note;
	}
	if (booted && e.marker)
		m.why = "the guest's runner ended without a row for this run";
	added = mr_guest_merge(&m);
	if (added >= 0 && booted && e.marker && e.status <= 1)
		rc = e.status == 0 && added == 0 ? MR_OK : MR_FAILED;
	if (!g->k)
		rc = MR_OK; /* skipped with the reason, as a missing allocator is */
	env_keys(out, share, g, h.mem, h.accel, h.accel_why, booted ? &e : NULL);
	free(e.why);
	free(oom);
	free(oom_note);
	sb_free(&why);
	free(out);
	free(sub);
	free(share);
	return rc;
}
