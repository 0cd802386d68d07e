/* marks: the runner's own checkpoints for a command — see marks.h. */
#include "proc/marks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "proc/measure.h"

/* The longest output line matched whole; a longer one is matched on its
 * first MARK_LINE - 1 bytes. */
#define MARK_LINE 4096

struct mr_marks_run {
	uint64_t next_ns;        /* when the next "every" mark is due */
	unsigned long nevery, nmatch;
	char line[MARK_LINE];    /* the output line begun */
	size_t len;
	int skipping;            /* the rest of an overlong line: matched */
	int exit_done;           /* the exit mark was taken live */
	char note[256];          /* what the log's last line says of it */
};

/* Mark name (seq) now, the command running.  0, or -1 when its figures
 * could not be read (it has exited): no mark then. */
static int
mark_live(struct mr_run *r, const char *name, unsigned long seq)
{
	struct mr_record row;
	char why[160];

	memset(&row, 0, sizeof row);
	snprintf(row.name, sizeof row.name, "%s", name);
	row.seq = seq;
	row.cgroup_kb = MR_NOT_MEASURED;
	if (mr_measure_figures(r, &row, why, sizeof why) < 0)
		return -1;
	mr_measure_tree(r, &row);
	mr_run_keep(r, &row);
	return 0;
}

/* A whole output line (NUL-terminated): a "match" mark if it matches. */
static void
line_done(struct mr_run *r)
{
	struct mr_marks_run *mk = r->mk;

	mk->line[mk->len] = '\0';
	if (regexec(r->rq->marks->on, mk->line, 0, NULL, 0) == 0 &&
	    mark_live(r, MR_MARK_MATCH, mk->nmatch + 1) == 0)
		mk->nmatch++;
	mk->len = 0;
}

/* The log's tap: n bytes of the command's output, cut into lines. */
static void
tap(void *ctx, const char *buf, size_t n)
{
	struct mr_run *r = ctx;
	struct mr_marks_run *mk = r->mk;
	size_t i;

	for (i = 0; i < n; i++) {
		if (buf[i] == '\n') {
			if (!mk->skipping)
				line_done(r);
			mk->skipping = 0;
			mk->len = 0;
		} else if (!mk->skipping) {
			mk->line[mk->len++] = buf[i] ? buf[i] : ' ';
			if (mk->len == MARK_LINE - 1) {
				line_done(r);
				mk->skipping = 1;
			}
		}
	}
}

/* A tick of the loop at now (ns): the "every" mark if one is due. */
static void
tick(struct mr_run *r, uint64_t now)
{
	struct mr_marks_run *mk = r->mk;
	uint64_t step = r->rq->marks->every_ms * 1000000u;

	if (!step || now < mk->next_ns)
		return;
	if (mark_live(r, MR_MARK_EVERY, mk->nevery + 1) == 0)
		mk->nevery++;
	/* one mark per tick however late: a stopped runner does not make
	 * a burst of them */
	mk->next_ns += step;
	if (mk->next_ns <= now)
		mk->next_ns = now + step;
}

void
mr_marks_begin(struct mr_run *r)
{
	const struct mr_marks *m = r->rq->marks;

	r->mk = ecalloc(1, sizeof *r->mk);
	r->mk->next_ns = r->t0 + m->every_ms * 1000000u;
	if (m->every_ms)
		r->mark_tick = tick;
	if (m->on) {
		r->log.tap = tap;
		r->log.tap_ctx = r;
	}
}

void
mr_marks_exit_live(struct mr_run *r)
{
	struct mr_marks_run *mk = r->mk;

	if (!mk || mark_live(r, MR_MARK_EXIT, 1) < 0)
		return;
	mk->exit_done = 1;
	snprintf(mk->note, sizeof mk->note,
		 "[memrepro: mark exit at %.1f ms: measured live, the program was still running when the run ended]\n",
		 (double)r->res->ckpts[r->res->nckpts - 1].t_us / 1000);
}

void
mr_marks_exit_reaped(struct mr_run *r)
{
	struct mr_marks_run *mk = r->mk;
	const struct mr_spawn_res *res = r->res;
	struct mr_record row;
	int m;

	if (!mk)
		return;
	/* reaped: its pid may be another's now, so no line of the output
	 * drained after this is measured */
	r->log.tap = NULL;
	if (mk->exit_done)
		return;
	memset(&row, 0, sizeof row);
	snprintf(row.name, sizeof row.name, "%s", MR_MARK_EXIT);
	row.seq = 1;
	for (m = 1; m < MR_NCKPT_KEYS; m++)
		row.v[m] = MR_NOT_MEASURED;
	row.tree_pss_kb = row.tree_private_dirty_kb = MR_NOT_MEASURED;
	row.tree_rss_kb = row.cgroup_kb = MR_NOT_MEASURED;
	if (res->nsamples) {
		const struct mr_spawn_sample *s = &res->samples[res->nsamples - 1];

		row.t_us = s->t_ms * 1000;
		row.v[MR_CK_RSS_KB] = s->rss_kb;
		row.v[MR_CK_VSZ_KB] = s->vsz_kb;
		row.tree_rss_kb = s->tree_rss_kb;
		row.tree_nproc = s->tree_nproc;
		row.cgroup_kb = s->cgroup_kb;
	} else {
		row.t_us = (mr_now_ns() - r->t0) / 1000;
	}
	/* wait4's, as the run's row has them (set_rusage, spawn.c) */
	row.v[MR_CK_USER_MS] = res->user_ms;
	row.v[MR_CK_SYS_MS] = res->sys_ms;
	row.v[MR_CK_MINFLT] = res->minflt;
	row.v[MR_CK_MAJFLT] = res->majflt;
	row.v[MR_CK_HWM_KB] = res->maxrss_kb;
	mr_run_keep(r, &row);
	if (res->nsamples)
		snprintf(mk->note, sizeof mk->note,
			 "[memrepro: mark exit: the program had exited; its memory is its last sample's, at %.1f ms; its times, faults and peak from wait4]\n",
			 (double)row.t_us / 1000);
	else
		snprintf(mk->note, sizeof mk->note,
			 "[memrepro: mark exit: the program had exited before any sample; its times, faults and peak from wait4, its memory not measured]\n");
}

void
mr_marks_end(struct mr_run *r)
{
	if (!r->mk)
		return;
	if (r->mk->note[0] && r->log.fd >= 0)
		(void)!write(r->log.fd, r->mk->note, strlen(r->mk->note));
	free(r->mk);
	r->mk = NULL;
}
