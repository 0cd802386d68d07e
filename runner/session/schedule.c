/* schedule: timed runs, and workers that run cases side by side. */
#include "session/schedule.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check/baseline.h"
#include "proc/board.h"
#include "proc/cgroup.h"
#include "proc/scratch.h"
#include "proc/tree.h"

int
mr_sched_timed(const struct mr_claims *cs, const struct mr_baseline *b, const char *cfg)
{
	struct mr_config c;
	const char *why;
	int i, j, timed = 0;

	if (mr_config_parse(cfg, &c, &why) < 0)
		return 1; /* not a config of ours: never share the machine */
	for (i = 0; cs && i < cs->n && !timed; i++)
		for (j = 0; j < cs->v[i].nref && !timed; j++) {
			const struct mr_ref *r = &cs->v[i].ref[j];

			timed = mr_metric_is_time(r->ckpt, r->metric) && mr_ref_selects(r, &c);
		}
	mr_config_free(&c);
	for (i = 0; b && i < b->nrow && !timed; i++)
		timed = strcmp(b->row[i].config, cfg) == 0 &&
			mr_metric_is_time(b->row[i].ckpt, b->row[i].metric);
	return timed;
}

/* --- memory ----------------------------------------------------------- */

/* MemAvailable of /proc/meminfo in kB, or 0 when it cannot be read. */
static uint64_t
meminfo_available(void)
{
	char line[256];
	unsigned long long kb = 0;
	FILE *f = fopen("/proc/meminfo", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof line, f))
		if (strncmp(line, "MemAvailable:", 13) == 0) {
			kb = strtoull(line + 13, NULL, 10);
			break;
		}
	fclose(f);
	return kb;
}

long long
mr_sched_mem_available(void)
{
	const char *e = getenv(MR_SCHED_MEM_ENV);
	uint64_t kb;

	if (e && *e) {
		char *end;
		unsigned long long v;

		errno = 0;
		v = strtoull(e, &end, 10);
		if (errno || *end || *e == '-' || v == 0 || v > (1ULL << 50)) {
			weprintf("%s=%s: not a size in kB", MR_SCHED_MEM_ENV, e);
			return -1;
		}
		kb = v;
	} else {
		kb = meminfo_available();
	}
	kb -= kb / 10;
	return (long long)kb;
}

uint64_t
mr_sched_mem_expect(uint64_t own_kb, uint64_t case_kb, uint64_t cap_kb)
{
	uint64_t kb = own_kb ? own_kb : case_kb;

	return cap_kb && (!kb || kb > cap_kb) ? cap_kb : kb;
}

/* kb as "11.1 GiB" / "312.0 MiB" into buf. */
static void
human_kb(uint64_t kb, char *buf, size_t n)
{
	if (kb >= 1024 * 1024)
		snprintf(buf, n, "%.1f GiB", (double)kb / (1024.0 * 1024.0));
	else
		snprintf(buf, n, "%.1f MiB", (double)kb / 1024.0);
}

int
mr_sched_mem_fits(uint64_t avail_kb, uint64_t running_kb, int nrunning,
		  uint64_t want_kb, char *why, size_t n)
{
	char a[32], r[32], w[32];

	if (!avail_kb || !want_kb || nrunning == 0 || running_kb + want_kb <= avail_kb)
		return 1;
	human_kb(want_kb, w, sizeof w);
	human_kb(running_kb, r, sizeof r);
	human_kb(avail_kb, a, sizeof a);
	snprintf(why, n, "memory: expected %s beside %s running, %s available", w, r, a);
	return 0;
}

/* --- workers ----------------------------------------------------------- */

/* What a worker writes: this header, then nsamples samples and nckpts
 * checkpoints, raw (the runner and its workers are one binary). */
struct wire {
	int rc;
	struct mr_spawn_res res; /* its pointers mean nothing here */
};

static int
write_all(int fd, const void *p, size_t n)
{
	const char *s = p;

	while (n > 0) {
		ssize_t w = write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

/* A worker's own exit statuses: 0 its run's answer sent whole (the
 * runner reads the rest as the worker's failure). */
enum {
	WORKER_NO_WRITE = 125,     /* its answer could not be written */
	WORKER_NO_SUBREAPER = 126, /* it could not become the case's subreaper */
};

static _Noreturn void
worker(int fd, const struct mr_spawn_req *rq)
{
	struct mr_spawn_req q = *rq;
	struct wire h;
	int ok;

	/* the case and whatever it leaves behind are ours, not the runner's */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		_exit(WORKER_NO_SUBREAPER);
	q.tick = NULL;
	memset(&h, 0, sizeof h);
	h.rc = mr_spawn_run(&q, &h.res);
	ok = write_all(fd, &h, sizeof h) == 0 &&
	     write_all(fd, h.res.samples, h.res.nsamples * sizeof *h.res.samples) == 0 &&
	     write_all(fd, h.res.ckpts, h.res.nckpts * sizeof *h.res.ckpts) == 0;
	/* _exit: the stdio buffers are the runner's, flushed by it alone */
	_exit(ok ? 0 : WORKER_NO_WRITE);
}

int
mr_sched_start(struct mr_sched_worker *w, const struct mr_spawn_req *rq,
	       int slot)
{
	int p[2], e;

	memset(w, 0, sizeof *w);
	w->fd = -1;
	w->slot = slot;
	if (pipe2(p, O_CLOEXEC) < 0) {
		e = errno;
		weprintf("pipe:");
		return -e;
	}
	fflush(NULL);
	w->pid = fork();
	if (w->pid < 0) {
		e = errno;
		weprintf("fork:");
		close(p[0]);
		close(p[1]);
		w->pid = 0;
		return -e;
	}
	if (w->pid == 0) {
		close(p[0]);
		mr_board_take(slot);
		worker(p[1], rq);
	}
	close(p[1]);
	w->fd = p[0];
	return 0;
}

int
mr_sched_read(struct mr_sched_worker *w)
{
	char chunk[65536];
	ssize_t n = read(w->fd, chunk, sizeof chunk);

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -errno;
	if (n == 0) {
		close(w->fd);
		w->fd = -1;
		return 1;
	}
	sb_addn(&w->buf, chunk, (size_t)n);
	return 0;
}

int
mr_sched_finish(struct mr_sched_worker *w, int *rc, struct mr_spawn_res *res)
{
	struct wire h;
	size_t ns, nc, need;
	int st = 0;

	while (waitpid(w->pid, &st, 0) < 0 && errno == EINTR)
		;
	memset(res, 0, sizeof *res);
	if (w->buf.len < sizeof h)
		goto died;
	memcpy(&h, w->buf.s, sizeof h);
	ns = h.res.nsamples;
	nc = h.res.nckpts;
	need = sizeof h + ns * sizeof *res->samples + nc * sizeof *res->ckpts;
	if (w->buf.len != need || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		goto died;
	*res = h.res;
	res->samples = emalloc(ns * sizeof *res->samples + 1);
	memcpy(res->samples, w->buf.s + sizeof h, ns * sizeof *res->samples);
	res->ckpts = emalloc(nc * sizeof *res->ckpts + 1);
	memcpy(res->ckpts, w->buf.s + sizeof h + ns * sizeof *res->samples,
	       nc * sizeof *res->ckpts);
	res->capsamples = ns;
	res->capckpts = nc;
	*rc = h.rc;
	sb_free(&w->buf);
	w->pid = 0;
	return 0;
died:
	{
		/* its case died with it (PDEATHSIG); what the case started
		 * is orphaned to us: killed through the worker's cgroups
		 * (its pid is gone, so they are a dead runner's), and any
		 * left by the token of our runs */
		pid_t *buf = emalloc(MR_TREE_MAX * sizeof *buf);
		int n;

		mr_cgroup_sweep();
		if ((n = mr_tree_strays(buf)) > 0)
			weprintf("killed %d process%s left by the run of worker %ld", n,
				 n == 1 ? "" : "es", (long)w->pid);
		/* its run's TMPDIR, once nothing of the run writes there */
		mr_scratch_sweep();
		free(buf);
	}
	if (WIFSIGNALED(st))
		weprintf("worker %ld was killed by signal %d before it said how its run went",
			 (long)w->pid, WTERMSIG(st));
	else
		weprintf("worker %ld exited %d after %zu bytes, before it said how its run went",
			 (long)w->pid, WIFEXITED(st) ? WEXITSTATUS(st) : -1, w->buf.len);
	sb_free(&w->buf);
	w->pid = 0;
	return -EIO;
}
