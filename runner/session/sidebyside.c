/* sidebyside: a session's runs side by side (-j), each in a worker, as
 * many at once as the memory plan lets start — see sessint.h. */
#include "session/sessint.h"
#include "session/session.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/util.h"
#include "proc/board.h"

/* The runs that overlapped v[me] in time, among v[0..n-1] (started ones). */
static int
overlap(const struct job *v, int n, int me)
{
	int i, k = 0;

	for (i = 0; i < n; i++)
		k += i != me && v[i].t0 && v[i].t0 < v[me].t1 &&
		     (!v[i].t1 || v[i].t1 > v[me].t0);
	return k;
}

/* A board slot (proc/board.h) no running worker among v[0..n-1] holds:
 * there are as many as the jobs that may run at once. */
static int
free_slot(const struct job *v, int n, int jobs)
{
	int k, i;

	for (k = 0; k < jobs; k++) {
		for (i = 0; i < n && !(v[i].w.pid && v[i].w.slot == k); i++)
			;
		if (i == n)
			return k;
	}
	return jobs - 1; /* not reached: at most jobs - 1 are running */
}

/* Whether v[next] may start beside the running ones among v[0..next-1]
 * (schedule.h's memory plan): sets its want_kb, and the first time it
 * may not, its waited. */
static int
job_fits(const struct session *s, struct job *v, int next, int running)
{
	struct job *j = &v[next];
	uint64_t sum = 0, casekb = 0, cap = (uint64_t)s->o->mem_cap_mib * 1024;
	uint64_t pcap = (uint64_t)j->cf->pressure_mib * 1024;
	char why[sizeof j->waited];
	int i;

	if (pcap && (!cap || pcap < cap))
		cap = pcap;
	for (i = 0; j->casepk && i < j->ncfg; i++)
		if (j->casepk[i] > casekb)
			casekb = j->casepk[i];
	j->want_kb = mr_sched_mem_expect(j->peak ? *j->peak : 0, casekb, cap);
	for (i = 0; i < next; i++)
		if (v[i].w.pid)
			sum += v[i].want_kb;
	if (mr_sched_mem_fits(s->avail_kb, sum, running, j->want_kb, why, sizeof why))
		return 1;
	if (!j->waited[0])
		snprintf(j->waited, sizeof j->waited, "%s", why);
	return 0;
}

/* Run v[0..n-1] up to s->o->jobs at once, each in a worker.  On an
 * interrupt or a failure of the runner, starts no more, stops the running
 * ones and records what they got.  Returns 0, or -1 to stop. */
int
mr_sess_side_by_side(struct session *s, struct job *v, int n)
{
	struct pollfd *pf = ecalloc((size_t)s->o->jobs, sizeof *pf);
	int *slot = ecalloc((size_t)s->o->jobs, sizeof *slot);
	int next = 0, running = 0, stop = 0, told = 0, i;

	/* without a board the runs count each other as the machine's load */
	if ((i = mr_board_open(s->o->jobs)) < 0) {
		errno = -i;
		weprintf("a board for the runs' CPU:");
	}
	mr_term_parallel(&s->term, 1);
	while ((next < n && !stop) || running) {
		int np = 0;

		if (mr_spawn_interrupted)
			stop = 1;
		if (stop && !told) {
			/* a signal to the runner alone: the workers pass it to
			 * their cases as it would have */
			for (i = 0; i < next; i++)
				if (v[i].w.pid)
					kill(v[i].w.pid, SIGTERM);
			told = 1;
		}
		while (!stop && running < s->o->jobs && next < n &&
		       job_fits(s, v, next, running)) {
			int rc = mr_sess_job_prepare(s, &v[next]);

			if (rc == 0 && mr_sched_start(&v[next].w, &v[next].rq,
						      free_slot(v, next, s->o->jobs)) < 0)
				rc = -1;
			if (rc < 0) {
				stop = 1;
				break;
			}
			if (rc == 0) {
				v[next].t0 = mr_now_ns();
				running++;
			}
			next++;
		}
		for (i = 0; i < next; i++)
			if (v[i].w.pid && v[i].w.fd >= 0) {
				pf[np].fd = v[i].w.fd;
				pf[np].events = POLLIN;
				slot[np++] = i;
			}
		if (np && poll(pf, (nfds_t)np, 250) < 0 && errno != EINTR) {
			weprintf("poll:");
			stop = 1;
		}
		mr_term_tick(&s->term);
		mr_board_say_runner();
		for (i = 0; i < np; i++) {
			struct job *j = &v[slot[i]];
			struct mr_spawn_res res;
			int rc, e;

			if (!(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			e = mr_sched_read(&j->w);
			if (e == 0)
				continue;
			if (e < 0) {
				errno = -e;
				weprintf("read from the worker of %s:", j->c->name);
				kill(j->w.pid, SIGKILL);
				close(j->w.fd);
				j->w.fd = -1;
			}
			j->t1 = mr_now_ns();
			running--;
			if (mr_sched_finish(&j->w, &rc, &res) < 0 || e < 0 ||
			    mr_sess_job_record(s, j, rc, &res, overlap(v, next, slot[i])) < 0)
				stop = 1;
			mr_board_say_runner(); /* what writing its rows took */
		}
	}
	mr_term_parallel(&s->term, 0);
	mr_board_close();
	for (i = 0; i < n; i++)
		mr_sess_job_free(&v[i]);
	free(pf);
	free(slot);
	return stop ? -1 : 0;
}
