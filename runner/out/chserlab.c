/* chserlab: the words of the series chart (chseries.h): its title and
 * the note under its panels. */
#include "out/chseries.h"

#include <math.h>
#include <string.h>

#include "out/chutil.h"

/* Add sentence s to the note's lines ('|'-separated), a new line when
 * the current one would pass NOTE_WIDTH characters. */
static void
note_add(struct strbuf *b, const char *s)
{
	const char *last = b->len ? strrchr(b->s, '|') : NULL;
	size_t cur = !b->len ? 0 : last ? strlen(last + 1) : b->len;

	if (b->len)
		sb_add(b, cur + 1 + strlen(s) > NOTE_WIDTH ? "|" : " ");
	sb_add(b, s);
}

/* Append s to the title t on lines of at most TITLE_WIDTH characters,
 * broken after a ", " (a 13 pt line of 1200 px). */
static void
title_wrap(struct strbuf *t, const char *s)
{
	while (strlen(s) > TITLE_WIDTH) {
		const char *cut = s + TITLE_WIDTH - 1;

		while (cut > s && !(cut[0] == ',' && cut[1] == ' '))
			cut--;
		if (cut == s)
			break;
		sb_printf(t, "\n%.*s", (int)(cut + 1 - s), s);
		s = cut + 2;
	}
	sb_printf(t, "\n%s", s);
}

/* The title: the case, what is drawn over what, the axes; the configs
 * without data. */
void
mr_sc_title(const struct sc *c, const char *title, struct strbuf *t)
{
	struct strbuf ax[2] = {{0}, {0}};

	if (c->ncf)
		mr_lay_axes(&c->L, ax);
	sb_printf(t, "%s: %s over %s", c->k->name, c->yname,
		  c->xmode ? c->fs->xunit ? c->fs->xunit : "x" : "time");
	if (ax[0].len)
		sb_printf(t, ", a panel per %s", ax[0].s);
	if (ax[1].len)
		sb_printf(t, ", colours by %s", ax[1].s);
	if (title)
		sb_printf(t, "\n%s", title);
	if (c->nnone && c->ncf) {
		struct strbuf l = {0};

		sb_printf(&l, "(no data: %s", c->none.s);
		if (c->none.len >= MAX_NONE)
			sb_printf(&l, ", ...: %d configs in all", c->nnone);
		sb_add(&l, ")");
		title_wrap(t, l.s);
		sb_free(&l);
	}
	sb_free(&ax[0]);
	sb_free(&ax[1]);
}

/* Whether the drawn runs a and b recorded the same figures at their
 * checkpoints (as many, each within 1 %): their lines likely coincide. */
static int
same_marks(const struct sc *c, const struct srun *a, const struct srun *b)
{
	const struct mr_rd_run *ra = &c->k->run[a->ri], *rb = &c->k->run[b->ri];
	int j;

	if (ra->nck != rb->nck || !ra->nck)
		return 0;
	for (j = 0; j < ra->nck; j++) {
		double x = c->k->ck[ra->ck[j]].m[c->ymet], y = c->k->ck[rb->ck[j]].m[c->ymet];

		if (!(fabs(x - y) <= 0.01 * fmax(x, y)))
			return 0;
	}
	return 1;
}

/* Whether two drawn lines of a panel likely coincide: the later colour
 * then hides the earlier. */
static int
sc_coincide(const struct sc *c)
{
	int i, j;

	for (i = 0; i < c->nrun; i++)
		for (j = i + 1; c->run[i].drawn && j < c->nrun; j++) {
			const struct srun *a = &c->run[i], *b = &c->run[j];

			if (b->drawn && c->L.panel[a->cfg] == c->L.panel[b->cfg] &&
			    c->L.col[a->cfg] != c->L.col[b->cfg] && same_marks(c, a, b))
				return 1;
		}
	return 0;
}

/* Whether the panels share their time axis: their runs' lengths are
 * within SHARE_X of each other (the panels are compared; a panel of runs
 * twenty times shorter than another's gets its own). */
int
mr_sc_shared_x(const struct sc *c)
{
	double lo = INFINITY;
	int i;

	if (c->xmode)
		return 1;
	for (i = 0; i < c->L.npanel; i++)
		if (c->pxmax[i] > 0 && c->pxmax[i] < lo)
			lo = c->pxmax[i];
	return !(c->xmax > SHARE_X * lo);
}

/* The note under the panels: how to read them; with no data, why. */
void
mr_sc_note(const struct sc *c, struct strbuf *note)
{
	char buf[256];

	if (!c->ncf) {
		sb_add(note, c->xmode ? "no run of this case recorded a checkpoint on its x axis"
				      : "no run of this case has a memory sample");
		return;
	}
	if (c->maxrep > 1)
		snprintf(buf, sizeof buf, "Thick: per config the repeat with the median "
			 "peak %s (of up to %d); thin: its other repeats.", c->yname, c->maxrep);
	else
		snprintf(buf, sizeof buf, "One repeat of each config.");
	note_add(note, buf);
	if (c->L.npanel > 1)
		note_add(note, mr_sc_shared_x(c) ? "The panels share their axes." :
			 "The panels share their y axis; each has its own time axis "
			 "(their runs' lengths differ more than 4 times).");
	if (c->xmode) {
		snprintf(buf, sizeof buf, "%s at the checkpoints only (%s), joined by lines.",
			 c->yname, c->fs->xround ? "round by round, so that the runs' rounds line up"
						 : "the report's axis");
		note_add(note, buf);
	}
	if (sc_coincide(c))
		note_add(note, "Where lines coincide, the colour later in the legend is on top.");
	if (c->lazy)
		note_add(note, "Shaded: the part of RSS that is LazyFree (freed with "
			 "MADV_FREE, reclaimable), read at the checkpoints only.");
	if (c->tree == 1)
		note_add(note, "Dashed: the run's memory cgroup (the case and its "
			 "children, each page once).");
	if (c->tree == 2)
		note_add(note, "Dashed: the RSS summed over the case and its children "
			 "(a page they share counted in each).");
	if (c->tree)
		note_add(note, "Circles: the tree's PSS at the checkpoints.");
}

