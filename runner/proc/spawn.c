/* spawn: fork, exec, sample, enforce the deadline, reap — see spawn.h
 * (the outcome's words: describe.c). */
#include "proc/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mr_proc.h"
#include "proc/cgroup.h"
#include "proc/child.h"
#include "proc/log.h"
#include "proc/loop.h"
#include "proc/marks.h"
#include "proc/measure.h"
#include "proc/proof.h"
#include "proc/scratch.h"
#include "proc/tree.h"
#include "proto/record.h"

static void
bad_record(struct mr_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
bad_record(struct mr_run *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (r->res->bad_records++)
		return;
	n = snprintf(r->res->bad_detail, sizeof r->res->bad_detail,
		     "bad checkpoint record %lu: ", r->nrec);
	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof r->res->bad_detail)
		vsnprintf(r->res->bad_detail + n, sizeof r->res->bad_detail - (size_t)n, fmt, ap);
	va_end(ap);
}

static void
ack(void *ctx)
{
	struct mr_run *r = ctx;
	char b = '\n';
	ssize_t n;

	/* Non-blocking: a case that never reads acks must not stall us. */
	do
		n = write(r->ackp[1], &b, 1);
	while (n < 0 && errno == EINTR);
	/* The case stood still from our read of its record to this ack
	 * (records read together: each from the previous one's ack). */
	if (r->got_ns) {
		uint64_t t = mr_now_ns();

		r->pause_ns += t - r->got_ns;
		r->got_ns = t;
	}
}

static void
on_record(void *ctx, char *line)
{
	struct mr_run *r = ctx;
	struct mr_record row;
	char why[160];
	int rc, ck = 0;

	r->nrec++;
	rc = mr_record_parse(line, r->rq->c, r->seen, &ck, &row, why, sizeof why);
	if (rc == 1)
		rc = mr_measure_figures(r, &row, why, sizeof why);
	if (rc < 0) {
		bad_record(r, "%s", why);
		return;
	}
	mr_measure_tree(r, &row);
	r->seen[ck]++;
	mr_run_keep(r, &row);
}

void
mr_run_keep(struct mr_run *r, const struct mr_record *row)
{
	struct mr_spawn_res *res = r->res;

	if (res->nckpts == res->capckpts) {
		res->capckpts = res->capckpts ? res->capckpts * 2 : 16;
		res->ckpts = erealloc(res->ckpts, res->capckpts * sizeof *res->ckpts);
	}
	res->ckpts[res->nckpts++] = *row;
}

static void
on_too_long(void *ctx)
{
	struct mr_run *r = ctx;

	r->nrec++;
	bad_record(r, "longer than %d bytes", MR_RECORD_MAX);
}

static void
set_rusage(struct mr_spawn_res *res, const struct rusage *ru)
{
	res->user_ms = (uint64_t)ru->ru_utime.tv_sec * 1000 + (uint64_t)ru->ru_utime.tv_usec / 1000;
	res->sys_ms = (uint64_t)ru->ru_stime.tv_sec * 1000 + (uint64_t)ru->ru_stime.tv_usec / 1000;
	res->maxrss_kb = (uint64_t)ru->ru_maxrss;
	res->minflt = (uint64_t)ru->ru_minflt;
	res->majflt = (uint64_t)ru->ru_majflt;
}


/* The run's memory cgroup and its log.  0, or -errno with nothing left
 * open: -ENOTSUP when a pressure run gets no cgroup (the reason in
 * res->cgroup_why). */
static int
run_open(struct mr_run *r)
{
	const struct mr_spawn_req *rq = r->rq;
	struct mr_spawn_res *res = r->res;
	int rc;

	memset(res, 0, sizeof *res);
	res->cgroup_peak_kb = MR_NOT_MEASURED;
	mr_cgroup_init(&r->cg);
	/* Cap and pressure are both the cgroup's limit: the lower wins. */
	r->limit_kb = rq->cap_kb;
	if (rq->pressure_kb && (!r->limit_kb || rq->pressure_kb < r->limit_kb))
		r->limit_kb = rq->pressure_kb;
	if (!rq->no_cgroup || rq->pressure_kb) {
		int cap = r->limit_kb && r->limit_kb == rq->cap_kb;

		if (mr_cgroup_create(&r->cg, r->limit_kb, cap, res->cgroup_why,
				     sizeof res->cgroup_why) < 0 && rq->pressure_kb)
			return -ENOTSUP;
	}
	/* where there is none, mr_tree_end kills top down: slower, as sure */
	(void)mr_cgroup_create_kill(&r->cg);
	res->cgroup_v = r->cg.v;
	r->log.max = MR_SPAWN_LOG_MAX;
	r->log.fd = open(rq->log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (r->log.fd < 0) {
		rc = -errno;
		weprintf("open %s:", rq->log_path);
		mr_cgroup_remove(&r->cg);
		return rc;
	}
	return 0;
}

/* The pipes, the fork, the child's exec.  0, or -errno with a message
 * (run_close closes what is open). */
static int
run_start(struct mr_run *r)
{
	const struct mr_spawn_req *rq = r->rq;
	char **env;
	pid_t self;
	int rc;

	if ((r->devnull = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0 ||
	    pipe2(r->outp, O_CLOEXEC) < 0 || pipe2(r->ckpt, O_CLOEXEC) < 0 ||
	    pipe2(r->ackp, O_CLOEXEC) < 0 || pipe2(r->errp, O_CLOEXEC) < 0) {
		rc = -errno;
		weprintf("pipe:");
		return rc;
	}
	/* the run's own TMPDIR, removed with what is in it after the run (a
	 * killed case cleans up nothing) */
	if ((r->scratch = mr_scratch_make()) != NULL)
		r->tmpvar = esprintf("TMPDIR=%s", r->scratch);
	env = mr_spawn_env_channel(rq->envp, r->tmpvar);
	r->tree = emalloc(MR_TREE_MAX * sizeof *r->tree);
	fflush(NULL);
	self = getpid();
	r->t0 = mr_now_ns();
	mr_proof_forking();
	r->pid = fork();
	if (r->pid > 0)
		mr_proof_forked(r->pid);
	if (r->pid > 0 && rq->marks) /* a command's (proc/marks.h) */
		mr_marks_begin(r);
	if (r->pid < 0) {
		rc = -errno;
		weprintf("fork:");
		free(env);
		return rc;
	}
	if (r->pid == 0) {
		struct mr_child_fds f = {
			r->devnull, r->outp[1], r->ckpt[1], r->ackp[0], r->errp[1],
			r->cg.procs_fd, r->cg.kill_fd,
		};

		mr_child_exec(rq->argv, env, self, &f);
	}
	free(env);
	/* Both sides set the group: whichever runs first wins the race
	 * against a kill(-pgid) coming early. */
	setpgid(r->pid, r->pid);
	/* what the run starts starts after this (see mr_proof_child in proof.c) */
	r->since = mr_tree_since(r->pid);
	close(r->devnull);
	close(r->outp[1]);
	close(r->ckpt[1]);
	close(r->ackp[0]);
	close(r->errp[1]);
	r->devnull = r->outp[1] = r->ckpt[1] = r->ackp[0] = r->errp[1] = -1;
	fcntl(r->outp[0], F_SETFL, O_NONBLOCK);
	return 0;
}

/* Did the exec fail (the child's errno on the error pipe; an exec closes
 * it)?  Then the child is reaped and the run's outcome says so. */
static int
run_exec_failed(struct mr_run *r)
{
	struct mr_spawn_res *res = r->res;
	ssize_t n;
	int e;

	do
		n = read(r->errp[0], &e, sizeof e);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof e)
		return 0;
	mr_tree_end(r->pid, &r->cg, r->tree, &r->st, &r->ru);
	res->wall_ms = (mr_now_ns() - r->t0) / 1000000u;
	set_rusage(res, &r->ru);
	res->out.kind = MR_SPAWN_EXEC_FAILED;
	res->out.code = e;
	return 1;
}

/* The outcome of a run that went through the loop. */
static void
set_outcome(struct mr_run *r)
{
	struct mr_spawn_res *res = r->res;

	if (r->memcap) {
		res->out.kind = MR_SPAWN_MEMCAP;
		res->out.code = (int)(r->limit_kb / 1024);
		res->memcap_pressure = r->limit_kb != r->rq->cap_kb;
	} else if (r->timed_out) {
		res->out.kind = MR_SPAWN_TIMEOUT;
	} else if (WIFSIGNALED(r->st)) {
		res->out.kind = MR_SPAWN_SIGNALLED;
		res->out.code = WTERMSIG(r->st);
	} else {
		res->out.kind = MR_SPAWN_EXITED;
		res->out.code = WEXITSTATUS(r->st);
		if (res->out.code == 0 && res->bad_records)
			res->out.kind = MR_SPAWN_BAD_OUTPUT;
	}
}

/* After the loop (rc its result): the times, the leftovers, the end of
 * the tree, the last records, the outcome.  susp0 and cont0: the suspend
 * clock and the SIGCONT count when the run began. */
static void
run_end(struct mr_run *r, int rc, uint64_t susp0, sig_atomic_t cont0)
{
	struct mr_spawn_res *res = r->res;
	uint64_t end = mr_now_ns();
	{
		/* Stopped (SIGCONT came) or suspended: the case's clock ran
		 * on while the runner's stood still, and every time of the
		 * run counts that too. */
		uint64_t susp = mr_self_suspended_ns();

		/* the two clocks are read one after the other: a few ns off */
		susp = susp > susp0 ? susp - susp0 : 0;

		if (mr_self_continued != cont0 || susp > 100000000u)
			res->stopped_ms = (susp + (mr_self_continued != cont0 ? r->gap : 0)) / 1000000u + 1;
	}
	/* An OOM kill may have ended the case before a tick saw it. */
	if (!r->timed_out && mr_run_oom_struck(r))
		r->memcap = 1;
	if (rc == 0 && !r->timed_out && !r->memcap)
		res->leftovers = mr_tree_leftovers(r->pid, &r->cg, r->since, r->tree);
	mr_marks_exit_live(r); /* a command's exit mark (proc/marks.h) */
	mr_tree_end(r->pid, &r->cg, r->tree, &r->st, &r->ru);
	set_rusage(res, &r->ru);
	mr_marks_exit_reaped(r);
	snprintf(res->unproved, sizeof res->unproved, "%s", mr_tree_unproved());
	if (res->unproved[0])
		weprintf("%s: %s left running: not provably this run's", r->rq->c->name,
			 res->unproved);
	/* The case's own time: what it stood still while we measured it at
	 * its checkpoints is not part of what it did. */
	res->pause_ms = r->pause_ns / 1000000u;
	res->wall_ms = (end - r->t0 - r->pause_ns) / 1000000u;
	/* Records written just before the exit are still in the pipe. */
	if (r->ckpt_open && rc == 0)
		mr_record_read(&r->rd, r->ckpt[0]);
	if (r->rd.len && rc == 0) {
		r->nrec++;
		bad_record(r, "cut short (no newline before the case ended)");
	}
	set_outcome(r);
}

/* Once the case is reaped: the rest of its output, the cgroup's peak. */
static void
run_finish(struct mr_run *r)
{
	struct mr_spawn_res *res = r->res;

	mr_log_finish(&r->log, r->outp[0], r->out_open);
	res->log_dropped = r->log.dropped;
	res->log_errno = r->log.errnum;
	if (r->cg.v) {
		uint64_t peak;
		size_t i;

		if (mr_cgroup_peak(&r->cg, &peak) == 0) {
			res->cgroup_peak_kb = peak;
		} else {
			/* no memory.peak (v2 before 5.19): the sampled one */
			res->cgroup_peak_kb = 0;
			for (i = 0; i < res->nsamples; i++)
				if (res->samples[i].cgroup_kb != MR_NOT_MEASURED &&
				    res->samples[i].cgroup_kb > res->cgroup_peak_kb)
					res->cgroup_peak_kb = res->samples[i].cgroup_kb;
		}
	}
}

/* Release what the run holds: its cgroup, its fds, its scratch. */
static void
run_close(struct mr_run *r)
{
	int i;

	free(r->tree);
	free(r->seen);
	/* after mr_tree_end: nothing of the run writes there any more; and
	 * before its cgroup goes, which a tmpfs's pages are charged to */
	mr_scratch_remove(r->scratch);
	free(r->tmpvar);
	mr_cgroup_remove(&r->cg);
	if (r->pidfd >= 0)
		close(r->pidfd);
	if (r->status_fd >= 0)
		close(r->status_fd);
	if (r->log.fd >= 0)
		close(r->log.fd);
	if (r->devnull >= 0)
		close(r->devnull);
	for (i = 0; i < 2; i++) {
		if (r->outp[i] >= 0)
			close(r->outp[i]);
		if (r->ckpt[i] >= 0)
			close(r->ckpt[i]);
		if (r->ackp[i] >= 0)
			close(r->ackp[i]);
		if (r->errp[i] >= 0)
			close(r->errp[i]);
	}
}

int
mr_spawn_run(const struct mr_spawn_req *rq, struct mr_spawn_res *res)
{
	uint64_t susp0 = mr_self_suspended_ns();
	sig_atomic_t cont0 = mr_self_continued;
	struct mr_run r = { 0 };
	struct mr_machine_watch mw;
	int rc, i;

	r.rq = rq;
	r.res = res;
	r.rd.record = on_record;
	r.rd.too_long = on_too_long;
	r.rd.ack = ack;
	r.rd.ctx = &r;
	r.devnull = r.pidfd = r.status_fd = -1;
	for (i = 0; i < 2; i++)
		r.outp[i] = r.ckpt[i] = r.ackp[i] = r.errp[i] = -1;
	r.ckpt_open = r.out_open = 1;
	rc = run_open(&r);
	if (rc < 0)
		return rc;
	r.seen = ecalloc((size_t)rq->c->nckpts + 1, sizeof *r.seen);
	mr_machine_begin(&mw, rq->window);
	r.mw = &mw;
	rc = run_start(&r);
	if (rc == 0) {
		if (!run_exec_failed(&r)) {
			rc = mr_run_loop(&r);
			run_end(&r, rc, susp0, cont0);
		}
		run_finish(&r);
	}
	mr_marks_end(&r);
	mr_machine_end(&mw, rq->machine, res->machine, sizeof res->machine,
		       &res->other_cpu_ms);
	run_close(&r);
	return rc;
}

void
mr_spawn_res_free(struct mr_spawn_res *res)
{
	free(res->samples);
	free(res->ckpts);
	res->samples = NULL;
	res->ckpts = NULL;
	res->nsamples = res->capsamples = res->nckpts = res->capckpts = 0;
}
