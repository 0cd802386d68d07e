/* cmdcommand: `memrepro run [OPTIONS] -- CMD [ARGS...]`, any command as a
 * case (matrix/cmdcase.h, docs/command.md) — see cmds.h.  cmdrun.c runs its
 * session; this makes the case from the options and, after the runs,
 * prints what a person wants first: the table, the differences against
 * glibc beyond noise, where the results and the report with its charts
 * are; then, with --claims FILE or --expected DIR, the gate: the claims
 * and the baseline judged by check's own code (out/format.h). */
#include "cmds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "out/cmdsum.h"
#include "out/format.h"
#include "out/report.h"
#include "results/read.h"
#include "guest/guest.h"
#include "session/term.h"
#include "core/util.h"

/* Whether the runs are judged after (--claims FILE, --expected DIR). */
static int
gated(const struct mr_args *o)
{
	return o->claims || (o->given & O_EXPECTED);
}

/* --format says how the gate's verdicts are printed, so it needs a gate
 * (--claims FILE was found there by args.c).  MR_OK or MR_USAGE. */
static int
gate_init(const struct mr_args *o)
{
	if ((o->given & O_FORMAT) && !gated(o)) {
		weprintf("--format: run -- CMD prints verdicts only with --claims FILE or --expected DIR");
		return MR_USAGE;
	}
	return MR_OK;
}

/* The gate over the results R read in dir: the claims (the table's:
 * --claims FILE, else <expected>/NAME.claims) and the baseline of this
 * platform in <expected>, judged and printed as check does.  Returns
 * check's status. */
static int
gate(const struct mr_args *o, const struct mr_paths *p, const char *dir,
     const char *const *names, const struct mr_rd *R, struct mr_casetab *tab)
{
	struct mr_check_opts co = { 0 };

	co.results_dir = dir;
	co.rd = R;
	co.tab = tab;
	co.expected_dir = p->expected_dir;
	co.cases_dir = p->cases_dir;
	co.cases = names;
	co.verbose = o->verbose;
	co.out = stdout;
	co.format = o->format;
	co.color = mr_term_color(stdout);
	if (co.format == MR_FMT_HUMAN)
		putchar('\n');
	fflush(stdout);
	return mr_fmt_check(&co);
}

int
mr_cmd_command_init(const struct mr_args *o, struct mr_cmdcase *cc)
{
	struct mr_cmdcase_opts co = { 0 };

	if (o->kernels || mr_guest_wanted(o->axes, o->nax)) {
		weprintf("%s: the kernel axis does not run a command (yet): run it without",
			 o->kernels ? "--profile kernels" : "--axis kernel");
		return MR_USAGE;
	}
	co.argv = o->command;
	co.argc = o->ncommand;
	co.name = o->cmd_name;
	co.every = o->mark_every;
	co.on = o->mark_on;
	co.ckpts = o->ckpt_names;
	if (gate_init(o) != MR_OK)
		return MR_USAGE;
	return mr_cmdcase_init(cc, &co) < 0 ? MR_USAGE : MR_OK;
}

int
mr_cmd_command_then(const struct mr_args *o, const struct mr_paths *p, const char *dir,
		    const char *name, struct mr_casetab *tab)
{
	struct mr_report_opts ro = { 0 };
	const char *names[2] = { name, NULL };
	/* verdicts for a tool on stdout: the table for people goes aside */
	FILE *sum = gated(o) && o->format != MR_FMT_HUMAN ? stderr : stdout;
	struct mr_rd R;
	FILE *quiet;
	int rc, grc = MR_OK;

	/* read once: the summary, the report and the gate */
	if (mr_rd_load(&R, dir) < 0 || mr_cmdsum_print(sum, &R, name) < 0) {
		mr_rd_free(&R);
		return MR_USAGE;
	}
	quiet = fopen("/dev/null", "w");
	/* the report and its charts: its own lines are the report command's */
	ro.results_dir = dir;
	ro.expected_dir = p->expected_dir;
	/* the session's table: the report judges the claims the gate does
	 * (--claims FILE too), read once */
	ro.cases_dir = p->cases_dir;
	ro.tab = tab;
	ro.plots_dir = o->plots;
	ro.cases = names;
	ro.rd = &R;
	ro.verbose = o->verbose;
	ro.out = quiet ? quiet : stderr;
	fflush(sum);
	rc = mr_report(&ro);
	if (gated(o))
		grc = gate(o, p, dir, names, &R, tab);
	mr_rd_free(&R);
	if (quiet)
		fclose(quiet);
	fprintf(sum, "\nresults: %s\n", dir);
	if (rc == MR_USAGE)
		fprintf(sum, "report: not written (memrepro report %s says why)\n", dir);
	else
		fprintf(sum, "report: %s/report.html (%s/report.md), charts in %s/plots\n", dir, dir,
			dir);
	/* the gate's status: 1 on a failing claim or baseline row, 2 on bad
	 * claims; the runs' own (a failed run) is the session's */
	return grc;
}
