/* cmdcommand: `memrepro run [OPTIONS] -- CMD [ARGS...]`, any command as a
 * case (matrix/cmdcase.h, docs/command.md) — see cmds.h.  cmdrun.c runs its
 * session; this makes the case from the options and, after the runs,
 * prints what a person wants first: the table, the differences against
 * glibc beyond noise, where the results and the report with its charts
 * are. */
#include "cmds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out/cmdsum.h"
#include "out/report.h"
#include "results/read.h"
#include "guest/guest.h"
#include "core/util.h"

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
	return mr_cmdcase_init(cc, &co) < 0 ? MR_USAGE : MR_OK;
}

int
mr_cmd_command_then(const struct mr_args *o, const struct mr_paths *p, const char *dir,
		    const char *name)
{
	struct mr_report_opts ro = { 0 };
	const char *names[2] = { name, NULL };
	struct mr_rd R;
	FILE *quiet;
	int rc;

	/* read once: the summary and the report */
	if (mr_rd_load(&R, dir) < 0 || mr_cmdsum_print(stdout, &R, name) < 0) {
		mr_rd_free(&R);
		return MR_USAGE;
	}
	quiet = fopen("/dev/null", "w");
	/* the report and its charts: its own lines are the report command's */
	ro.results_dir = dir;
	ro.expected_dir = p->expected_dir;
	ro.plots_dir = o->plots;
	ro.cases = names;
	ro.rd = &R;
	ro.verbose = o->verbose;
	ro.out = quiet ? quiet : stderr;
	fflush(stdout);
	rc = mr_report(&ro);
	mr_rd_free(&R);
	if (quiet)
		fclose(quiet);
	printf("\nresults: %s\n", dir);
	if (rc == MR_USAGE)
		printf("report: not written (memrepro report %s says why)\n", dir);
	else
		printf("report: %s/report.html (%s/report.md), charts in %s/plots\n", dir, dir, dir);
	/* the runs' own status (a failed run) is the session's */
	return MR_OK;
}
