/* cmdread: the commands that read results directories or the release
 * cache and run nothing — see cmds.h. */
#include "cmds.h"

#include <stdio.h>

#include "out/compare.h"
#include "out/corpus.h"
#include "out/export.h"
#include "out/format.h"
#include "out/platforms.h"
#include "out/trend.h"
#include "cmdversions.h"
#include "results/merge.h"
#include "matrix/registry.h"
#include "session/term.h"
#include "core/util.h"

int
mr_cmd_compare(const struct mr_args *o, const struct mr_paths *p)
{
	struct mr_compare_opts d = { 0 };

	(void)p;
	d.old_dir = o->names[0];
	d.new_dir = o->names[1];
	d.out_dir = o->out;
	d.plots_dir = o->no_charts ? NULL : o->plots;
	d.fail_on = o->fail_on;
	d.verbose = o->verbose;
	d.color = mr_term_color(stdout);
	d.out = stdout;
	return mr_compare(&d);
}

int
mr_cmd_trend(const struct mr_args *o, const struct mr_paths *p)
{
	struct mr_trend_opts t = { 0 };

	t.dirs = o->names;
	t.ndirs = o->nnames;
	t.out_dir = o->out;
	t.expected_dir = p->expected_dir;
	t.plots_dir = o->no_charts ? NULL : o->plots;
	t.verbose = o->verbose;
	t.out = stdout;
	return mr_trend(&t);
}

/* export: the format word is its own (bmf, benchmark-action), not
 * check's; --expected is taken as by the other readers of results, and
 * unused: the figures are the results' own. */
int
mr_cmd_export(const struct mr_args *o, const struct mr_paths *p)
{
	struct mr_export_opts e = { 0 };
	int fmt = o->format_word ? mr_export_parse(o->format_word) : -1;

	(void)p;
	if (!o->format_word) {
		weprintf("export: --format is required: bmf or benchmark-action");
		return MR_USAGE;
	}
	if (fmt < 0) {
		weprintf("export --format '%s': want bmf or benchmark-action", o->format_word);
		return MR_USAGE;
	}
	e.dir = o->names[0];
	e.format = (enum mr_export_fmt)fmt;
	e.out = stdout;
	return mr_export(&e);
}

int
mr_cmd_corpus(const struct mr_args *o, const struct mr_paths *p)
{
	struct mr_corpus_opts c = { 0 };

	c.dirs = (const char *const *)o->names;
	c.ndirs = o->nnames;
	c.expected_dir = p->expected_dir;
	c.cases_dir = p->cases_dir;
	c.out = stdout;
	return mr_corpus(&c);
}

int
mr_cmd_merge(const struct mr_args *o, const struct mr_paths *p)
{
	(void)p;
	return mr_merge(o->out, (const char *const *)o->names, o->nnames);
}

/* --- versions, fetch ------------------------------------------------- */

int
mr_cmd_versions(const struct mr_args *o, const struct mr_paths *p)
{
	(void)p;
	if ((o->given & O_FORMAT) && o->format != MR_FMT_HUMAN && o->format != MR_FMT_JSON) {
		weprintf("versions --format: want human or json");
		return MR_USAGE;
	}
	/* the registry: main loaded it (--allocators, --alloc) */
	return mr_release_cmd_versions(mr_registry_current(), (const char *const *)o->names,
				       o->nnames, o->format == MR_FMT_JSON);
}

int
mr_cmd_fetch(const struct mr_args *o, const struct mr_paths *p)
{
	(void)p;
	return mr_release_cmd_fetch(mr_registry_current(), (const char *const *)o->names,
				    o->nnames);
}

/* --- platforms ------------------------------------------------------- */

int
mr_cmd_platforms(const struct mr_args *o, const struct mr_paths *p)
{
	struct mr_plat_opts po = { 0 };
	int f = o->format_word ? mr_plat_fmt_parse(o->format_word) : MR_PLAT_MD;

	if (f < 0) {
		weprintf("platforms --format '%s': want md, tsv, html or json", o->format_word);
		return MR_USAGE;
	}
	po.dirs = (const char *const *)o->names;
	po.ndirs = o->nnames;
	po.expected_dir = p->expected_dir;
	po.cases_dir = p->cases_dir;
	po.format = (enum mr_plat_fmt)f;
	po.out = stdout;
	return mr_platforms(&po);
}
