#include "out/format.h"

#include <string.h>

#include "check/check.h"
#include "core/util.h"

static const char *const names[] = { "human", "tap", "junit", "json", NULL };

int
mr_fmt_parse(const char *name)
{
	int i;

	for (i = 0; names[i]; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

const char *
mr_fmt_plural(int n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

char *
mr_fmt_totals(const struct mr_vd_totals *t)
{
	struct strbuf b = {0};

	if (t->has_claims) {
		sb_printf(&b, "%d %s held, %d reproduces, %d regressed", t->held,
			  mr_fmt_plural(t->held, "claim", "claims"), t->reproduces,
			  t->regressed);
		if (t->notrepro)
			sb_printf(&b, ", %d %s not reproduce", t->notrepro,
				  mr_fmt_plural(t->notrepro, "does", "do"));
		if (t->cskipped)
			sb_printf(&b, ", %d skipped", t->cskipped);
		if (t->cundefined)
			sb_printf(&b, ", %d undefined", t->cundefined);
	} else {
		sb_add(&b, "no claims");
	}
	if (t->has_bl) {
		sb_printf(&b, "; baseline %d held, %d regressed, %d improved",
			  t->bheld, t->bregressed, t->bimproved);
		if (t->bmissing)
			sb_printf(&b, ", %d not measured", t->bmissing);
	} else {
		sb_add(&b, "; no baseline");
	}
	sb_printf(&b, "; %d %s ok, %d failed", t->rok,
		  mr_fmt_plural(t->rok, "run", "runs"), t->rfailed);
	if (t->rskipped)
		sb_printf(&b, ", %d skipped", t->rskipped);
	return b.s;
}

void
mr_fmt_write(const struct mr_vds *vs, const struct mr_fmt_opts *o)
{
	switch (o->format) {
	case MR_FMT_HUMAN:
		mr_fmt_human(vs, o);
		break;
	case MR_FMT_TAP:
		mr_fmt_tap(vs, o);
		break;
	case MR_FMT_JUNIT:
		mr_fmt_junit(vs, o);
		break;
	case MR_FMT_JSON:
		mr_fmt_json(vs, o);
		break;
	}
	fflush(o->out);
}

int
mr_fmt_check(const struct mr_check_opts *o)
{
	struct mr_vds vs;
	struct mr_fmt_opts fo = { 0 };
	int rc;

	if (mr_check_eval(o, &vs) != MR_OK)
		return MR_USAGE;
	fo.format = o->format;
	fo.verbose = o->verbose;
	fo.color = o->color;
	fo.out = o->out ? o->out : stdout;
	mr_fmt_write(&vs, &fo);
	rc = vs.status;
	mr_vds_free(&vs);
	return rc;
}
