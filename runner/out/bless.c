#include "out/bless.h"

#include <math.h>
#include <stdlib.h>

#include "check/blessplan.h"
#include "check/claims.h"
#include "core/util.h"
#include "out/format.h"

/* How many new, and gone, rows are listed without verbose. */
#define LIST_MAX 20

static void
print_change(FILE *f, const struct mr_bless_change *c)
{
	const struct mr_bl_row *o = c->o, *n = c->n, *r = c->r;
	char *ck = mr_bl_checkpoint(r);
	char a[48], b[48], d[48], e[48];

	fprintf(f, "  %c %s  %s%s%s", c->mark, c->label, mr_bl_metric(r),
		r->checkpoint ? "@" : "", r->checkpoint ? ck : "");
	if (o && n && c->mark == '~')
		fprintf(f, "  median %s -> %s (%+.1f %%), tolerance %s -> %s\n",
			mr_fmt_num(a, o->median), mr_fmt_num(b, n->median),
			o->median ? 100 * (n->median - o->median) / fabs(o->median) : 0.0,
			mr_fmt_num(d, o->tol), mr_fmt_num(e, n->tol));
	else if (o && n)
		fprintf(f, "  median %s -> %s, within the old tolerance\n",
			mr_fmt_num(a, o->median), mr_fmt_num(b, n->median));
	else
		fprintf(f, "  median %s, tolerance %s\n", mr_fmt_num(a, r->median),
			mr_fmt_num(b, r->tol));
	free(ck);
}

/* What writing c's new baseline changes: a line of counts, the cost rows,
 * then the rows that moved beyond the old tolerance and (verbose) within
 * it, then the new and gone rows (the first LIST_MAX of each, every one
 * when verbose). */
static void
print_diff(FILE *f, const struct mr_bless_case *c, int verbose)
{
	const char *name = c->k->name, *path = c->nb.path;
	int i;

	if (!c->has_old)
		fprintf(f, "%s: new baseline %s: %d rows\n", name, path, c->nb.nrow);
	else
		fprintf(f, "%s: %s: %d rows: %d moved beyond the old tolerance, %d within it, %d unchanged, %d new, %d gone\n",
			name, path, c->nb.nrow, c->moved, c->within, c->same, c->added,
			c->gone);
	if (c->kept)
		fprintf(f, "  %d of the unchanged rows are of configs these results do not have (another profile's): kept\n",
			c->kept);
	if (c->busy)
		fprintf(f, "  %d %s whose figures follow the allocator's clock ran only on a busy machine: their figures not blessed%s (bless again from an idle machine's runs)\n",
			c->busy, mr_fmt_plural(c->busy, "config", "configs"),
			c->kept ? ", their old rows kept" : "");
	if (c->has_old && (c->cost_added || c->cost_changed || c->cost_gone))
		fprintf(f, "  %s (what a run takes, not compared): %d changed, %d new, %d gone\n",
			MR_BL_COST, c->cost_changed, c->cost_added, c->cost_gone);
	for (i = 0; i < c->nch; i++) {
		const struct mr_bless_change *ch = &c->ch[i];

		if (ch->mark == '~' || (ch->mark == '.' && verbose) ||
		    (ch->mark == '+' && (verbose || c->added < LIST_MAX)) ||
		    (ch->mark == '-' && (verbose || c->gone < LIST_MAX)))
			print_change(f, ch);
	}
}

/* Ask on the terminal; non-zero for yes. */
static int
confirm(FILE *f, int n)
{
	char line[64];

	fprintf(f, "write %d %s? [y/N] ", n, mr_fmt_plural(n, "baseline", "baselines"));
	fflush(f);
	if (!fgets(line, sizeof line, stdin))
		return 0;
	return line[0] == 'y' || line[0] == 'Y';
}

/* The cases of b on its current platform (mr_bless_platform): 0, or 1
 * when something could not be written or was not confirmed. */
static int
bless_platform(FILE *f, const struct mr_check_opts *o, struct mr_bless *b)
{
	struct mr_bless_case *c;
	int nwrite = 0, written = 0, failed = 0, i, j;

	/* First what would change, case by case; then the cases that
	 * differ are written. */
	c = ecalloc(b->nsel + 1, sizeof *c);
	for (i = 0; i < b->nsel; i++) {
		const char *name = b->R.k[b->sel[i]].name;

		mr_bless_case(b, i, &c[i]);
		for (j = 0; j < c[i].nleft; j++)
			fprintf(f, "%s: left out %s: %s\n", name, c[i].left[j].label,
				c[i].left[j].why);
		if (c[i].nb.nrow == 0) {
			if (!b->frag)
				fprintf(f, "%s: nothing to bless: no config ran ok in every repeat\n",
					name);
			continue;
		}
		print_diff(f, &c[i], o->verbose);
		if (c[i].differs)
			nwrite++;
		else
			fprintf(f, "%s: %s unchanged: not rewritten\n", name, c[i].nb.path);
	}
	if (nwrite && !o->yes && o->interactive && !confirm(f, nwrite)) {
		fprintf(f, "nothing written\n");
		failed = 1;
		nwrite = 0;
	} else if (nwrite && mr_bless_mkdir(b) < 0) {
		failed = 1;
		nwrite = 0;
	}
	for (i = 0; nwrite && i < b->nsel; i++) {
		if (!c[i].differs)
			continue;
		if (mr_bless_write(&c[i]) < 0) {
			failed++;
		} else {
			fprintf(f, "%s: wrote %s (%d rows)\n", b->R.k[b->sel[i]].name,
				c[i].nb.path, c[i].nb.nrow);
			written++;
		}
	}
	for (i = 0; i < b->nsel; i++)
		mr_bless_case_free(&c[i]);
	free(c);
	return !failed && (written || nwrite == 0) ? 0 : 1;
}

int
mr_bless(const struct mr_check_opts *o)
{
	FILE *f = o->out ? o->out : stdout;
	struct mr_bless b;
	int failed = 0, i;

	if (mr_bless_open(o, &b) != MR_OK)
		return MR_USAGE;
	/* the host's configs, then each guest's under its own platform */
	for (i = 0; i <= b.nplat; i++) {
		if (mr_bless_platform(&b, i) < 0) {
			fprintf(f, "guest %d (%s): its platform is not recorded: not blessed\n",
				b.plat[i - 1].n, b.plat[i - 1].frag);
			continue;
		}
		failed |= bless_platform(f, o, &b);
	}
	fflush(f);
	mr_bless_close(&b);
	return failed ? MR_FAILED : MR_OK;
}
