/* loop: the poll and sample loop of one run — see loop.h. */
#include "proc/loop.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/util.h"
#include "mr_proc.h"
#include "proc/machine.h"
#include "proc/self.h"
#include "proc/tree.h"

/* One point of the series; without a cgroup, the --mem-cap check. */
static void
sample(struct mr_run *r, uint64_t now)
{
	struct mr_spawn_res *res = r->res;
	struct mr_spawn_sample s = { 0 };
	struct mr_statm sm;
	int n, i;

	/* A zombie has no mm: nothing to sample once the case has exited. */
	if (mr_proc_statm(r->pid, &sm) < 0)
		return;
	s.t_ms = (now - r->t0) / 1000000u;
	s.rss_kb = sm.rss_kb;
	s.vsz_kb = sm.vsz_kb;
	n = mr_tree_case(r->pid, &r->cg, r->since, r->tree);
	if (r->mw)
		mr_machine_tick(r->mw, r->tree, n, now);
	for (i = 1; i < n; i++) {
		struct mr_statm t;

		if (mr_proc_statm(r->tree[i], &t) < 0)
			continue;
		s.tree_rss_kb += t.rss_kb;
		s.tree_nproc++;
	}
	s.cgroup_kb = MR_NOT_MEASURED;
	if (r->cg.v && mr_cgroup_usage(&r->cg, &s.cgroup_kb) < 0)
		s.cgroup_kb = MR_NOT_MEASURED;
	if (s.rss_kb > res->peak_rss_kb)
		res->peak_rss_kb = s.rss_kb;
	if (s.tree_rss_kb > res->peak_tree_rss_kb)
		res->peak_tree_rss_kb = s.tree_rss_kb;
	/* No cgroup to enforce --mem-cap: the sampler does, coarsely (the
	 * tree may grow past the cap for up to one interval). */
	if (!r->cg.v && r->rq->cap_kb && s.tree_rss_kb > r->rq->cap_kb) {
		r->memcap = 1;
		res->memcap_sampled = 1;
	}
	if (res->nsamples == res->capsamples) {
		res->capsamples = res->capsamples ? res->capsamples * 2 : 256;
		res->samples = erealloc(res->samples, res->capsamples * sizeof *res->samples);
	}
	res->samples[res->nsamples++] = s;
}

/* A pidfd for pid, or -1 (kernel before 5.3, or valgrind, which does not
 * know the syscall: asked once, then the tick loop polls with WNOHANG). */
static int
open_pidfd(pid_t pid)
{
	static int unsupported;
	int fd;

	if (unsupported)
		return -1;
	fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (fd < 0 && errno == ENOSYS)
		unsupported = 1;
	return fd;
}

int
mr_run_oom_struck(const struct mr_run *r)
{
	uint64_t n = 0;

	return r->cg.v && r->cg.limit_kb && mr_cgroup_oom_kills(&r->cg, &n) == 0 && n > 0;
}

/* One tick of the loop: a sample, the OOM check, the progress line; next
 * moves on by one interval. */
static void
tick(struct mr_run *r, uint64_t now, uint64_t *next)
{
	const struct mr_spawn_req *rq = r->rq;

	sample(r, now);
	if (r->mark_tick) /* a command's --mark-every (proc/marks.h) */
		r->mark_tick(r, now);
	if (mr_run_oom_struck(r))
		r->memcap = 1;
	*next += (uint64_t)rq->interval_ms * 1000000u;
	if (*next <= now)
		*next = now + (uint64_t)rq->interval_ms * 1000000u;
	if (rq->tick)
		rq->tick(rq->tick_ctx);
}

int
mr_run_loop(struct mr_run *r)
{
	const struct mr_spawn_req *rq = r->rq;
	uint64_t deadline, next, prev = 0;

	fcntl(r->ckpt[0], F_SETFL, O_NONBLOCK);
	fcntl(r->ackp[1], F_SETFL, O_NONBLOCK);
	r->pidfd = open_pidfd(r->pid);
	deadline = r->t0 + (uint64_t)rq->timeout_ms * 1000000u;
	/* The first sample right after exec: even a case shorter than one
	 * interval has a point in the series. */
	next = mr_now_ns();
	for (;;) {
		struct pollfd pfd[3];
		uint64_t now = mr_now_ns(), until;
		int np = 0, ckpt_i = -1, pid_i = -1, out_i = -1, p;

		/* the longest the loop stood still: how long a stop lasted */
		if (prev && now - prev > r->gap)
			r->gap = now - prev;
		prev = now;

		if (mr_spawn_interrupted)
			return -EINTR;
		if (r->memcap)
			return 0;
		if (now >= deadline) {
			r->timed_out = 1;
			return 0;
		}
		if (now >= next) {
			tick(r, now, &next);
			if (r->memcap)
				continue;
		}
		if (r->pidfd >= 0) {
			pfd[np] = (struct pollfd){ r->pidfd, POLLIN, 0 };
			pid_i = np++;
		}
		if (r->ckpt_open) {
			pfd[np] = (struct pollfd){ r->ckpt[0], POLLIN, 0 };
			ckpt_i = np++;
		}
		if (r->out_open) {
			pfd[np] = (struct pollfd){ r->outp[0], POLLIN, 0 };
			out_i = np++;
		}
		until = next < deadline ? next : deadline;
		p = poll(pfd, (nfds_t)np, (int)((until - now + 999999u) / 1000000u));
		if (p < 0 && errno != EINTR) {
			weprintf("poll:");
			usleep(1000);
		}
		if (p > 0 && out_i >= 0 && pfd[out_i].revents)
			r->out_open = mr_log_read(&r->log, r->outp[0]);
		if (p > 0 && ckpt_i >= 0 && pfd[ckpt_i].revents) {
			r->got_ns = mr_now_ns(); /* the case waits from here */
			r->ckpt_open = mr_record_read(&r->rd, r->ckpt[0]);
			r->got_ns = 0;
		}
		if (p > 0 && pid_i >= 0 && pfd[pid_i].revents)
			return 0;
		/* No pidfd (old kernel): ask at each tick instead, without
		 * reaping: its group must stay ours until mr_tree_end. */
		if (r->pidfd < 0 && mr_tree_ended(r->pid))
			return 0;
	}
}
