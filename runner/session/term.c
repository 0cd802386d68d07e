#include "session/term.h"

#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"
#include "proto/schema.h"

/* Redraw the live line at most this often. */
#define DRAW_NS 250000000ull

int
mr_term_color(FILE *f)
{
	const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");

	if (nc && *nc)
		return 0;
	if (term && !strcmp(term, "dumb"))
		return 0;
	return isatty(fileno(f));
}

void
mr_term_init(struct mr_term *t, FILE *f, int total, int quiet)
{
	memset(t, 0, sizeof *t);
	t->f = f;
	t->quiet = quiet;
	t->live = !quiet && isatty(fileno(f));
	t->total = total;
	t->t0 = mr_now_ns();
}

/* "1:05" or "12 s". */
static void
duration(char *buf, size_t size, double s)
{
	if (s < 10)
		snprintf(buf, size, "%.1f s", s);
	else if (s < 60)
		snprintf(buf, size, "%.0f s", s);
	else if (s < 3600)
		snprintf(buf, size, "%d:%02d", (int)s / 60, (int)s % 60);
	else
		snprintf(buf, size, "%d:%02d:%02d", (int)s / 3600, (int)s / 60 % 60,
			 (int)s % 60);
}

static void
draw(struct mr_term *t)
{
	struct winsize ws;
	char line[512], el[32], left[32];
	uint64_t now = mr_now_ns();
	int cols = 80, n;

	if (!t->live)
		return;
	if (ioctl(fileno(t->f), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		cols = ws.ws_col;
	duration(el, sizeof el, (now - t->t0) / 1e9);
	if (t->done > 0) {
		/* The mean run so far, times the runs left, less this run's
		 * time already spent. */
		double mean = t->tdone / 1e9 / t->done;
		double rest = mean * (t->total - t->done) -
			      (t->par ? 0 : (now - t->trun) / 1e9);

		duration(left, sizeof left, rest > 0 ? rest : 0);
	} else {
		snprintf(left, sizeof left, "?");
	}
	n = snprintf(line, sizeof line, "[%d/%d] %s  %s elapsed, ~%s left",
		     t->done + 1 > t->total ? t->total : t->done + 1, t->total,
		     t->now, el, left);
	/* One screen line: a wrapped line cannot be rewritten with \r. */
	if (n >= cols)
		n = cols - 1;
	if (n < 0)
		n = 0;
	fprintf(t->f, "\r%.*s\033[K", n, line);
	fflush(t->f);
	t->shown = 1;
	t->tdraw = now;
}

void
mr_term_clear(struct mr_term *t)
{
	if (t->live && t->shown) {
		fputs("\r\033[K", t->f);
		fflush(t->f);
		t->shown = 0;
	}
}

void
mr_term_start(struct mr_term *t, const char *casename, const char *shortc,
	      int repeat, int nrepeat)
{
	snprintf(t->now, sizeof t->now, "%s%s%s #%d/%d", casename,
		 *shortc ? " " : "", shortc, repeat, nrepeat);
	t->trun = mr_now_ns();
	draw(t);
}

void
mr_term_parallel(struct mr_term *t, int on)
{
	t->par = on;
}

void
mr_term_tick(void *p)
{
	struct mr_term *t = p;

	if (t->live && mr_now_ns() - t->tdraw >= DRAW_NS)
		draw(t);
}

int
mr_term_failing(enum mr_outcome o)
{
	return o != MR_OUTCOME_OK && o != MR_OUTCOME_SKIPPED;
}

void
mr_term_end(struct mr_term *t, const struct mr_results_run *run,
	    const char *shortc, int nrepeat)
{
	int failing = mr_term_failing(run->outcome);

	if (t->par)
		t->tdone = mr_now_ns() - t->t0;
	else if (run->res)
		t->tdone += mr_now_ns() - t->trun;
	t->done++;
	/* counted by the outcome runs.tsv gets, as check counts them: a case
	 * that said "skipped" (exit 4) was measured, and is still skipped */
	if (failing)
		t->nfailed++;
	else if (run->outcome == MR_OUTCOME_SKIPPED)
		t->nskipped++;
	/* On a terminal only what went wrong stays on the screen; in a log
	 * every run has its line. */
	if (failing || (!t->live && !t->quiet)) {
		mr_term_clear(t);
		mr_results_progress(t->f, run, shortc, nrepeat);
	}
}

void
mr_term_finish(struct mr_term *t)
{
	mr_term_clear(t);
	if (t->quiet || !t->done)
		return;
	fprintf(t->f, "%d %s in %.1f s: %d ok, %d failed", t->done,
		t->done == 1 ? "run" : "runs", (mr_now_ns() - t->t0) / 1e9,
		t->done - t->nfailed - t->nskipped, t->nfailed);
	if (t->nskipped)
		fprintf(t->f, ", %d skipped", t->nskipped);
	fputc('\n', t->f);
	fflush(t->f);
}
