/* chlay: the layout of a series chart's small multiples (chlay.h).
 *
 * One panel per value of the panel axis, the other axes as colours, at
 * most MR_LAY_MAX_LINES colours in a panel.  A panel with more is split
 * by a further axis (the one that leaves the fewest panels), else into
 * parts.
 */
#include "out/chlay.h"

#include <stdlib.h>
#include <string.h>

#define MAX_LINES MR_LAY_MAX_LINES

#define VI(L, i, a) ((L)->vi[(i) * (L)->nax + (a)])

/* Values in reading order: unset first, numbers by value, else as text. */
static int
cmp_val(const void *pa, const void *pb)
{
	const char *a = *(const char *const *)pa, *b = *(const char *const *)pb;
	char *ea, *eb;
	double x, y;

	if (!a || !b)
		return (!a != !b) ? (!a ? -1 : 1) : 0;
	x = strtod(a, &ea);
	y = strtod(b, &eb);
	if (ea != a && !*ea && eb != b && !*eb && x != y)
		return x < y ? -1 : 1;
	return strcmp(a, b);
}

/* Configs i and j over the panel axes (panel) or the colour axes. */
static int
cmp_tuple(const struct mr_lay *L, int i, int j, int panel)
{
	int r, a;

	if (panel) {
		for (r = 1; r <= L->npan; r++)
			for (a = 0; a < L->nax; a++)
				if (L->pan[a] == r && VI(L, i, a) != VI(L, j, a))
					return VI(L, i, a) - VI(L, j, a);
		return 0;
	}
	for (a = 0; a < L->nax; a++)
		if (!L->pan[a] && VI(L, i, a) != VI(L, j, a))
			return VI(L, i, a) - VI(L, j, a);
	return 0;
}

static int
cmp_cfg(const struct mr_lay *L, int i, int j)
{
	int c = cmp_tuple(L, i, j, 1);

	return c ? c : cmp_tuple(L, i, j, 0);
}

/* Order the configs and group them by their panel axes: L->ord, grp,
 * ngrp.  Returns the most colours in one group. */
static int
group(struct mr_lay *L)
{
	int i, j, most = 0, ncol = 0;

	for (i = 0; i < L->n; i++)
		L->ord[i] = i;
	for (i = 1; i < L->n; i++) /* insertion sort: a case has few configs */
		for (j = i; j > 0 && cmp_cfg(L, L->ord[j - 1], L->ord[j]) > 0; j--) {
			int t = L->ord[j];

			L->ord[j] = L->ord[j - 1];
			L->ord[j - 1] = t;
		}
	L->ngrp = 0;
	for (i = 0; i < L->n; i++) {
		int c = L->ord[i], p = i ? L->ord[i - 1] : -1;

		if (p < 0 || cmp_tuple(L, p, c, 1)) {
			L->ngrp++;
			ncol = 0;
		}
		if (p < 0 || cmp_tuple(L, p, c, 1) || cmp_tuple(L, p, c, 0))
			ncol++;
		L->grp[c] = L->ngrp - 1;
		if (ncol > most)
			most = ncol;
	}
	return most;
}

/* Make axis a a panel axis, the least significant. */
static void
to_panel(struct mr_lay *L, int a)
{
	L->pan[a] = ++L->npan;
}

/* Colour axes whose value is the same throughout every group say
 * nothing a panel's title cannot: they become panel axes. */
static int
absorb(struct mr_lay *L)
{
	int a, i, most = group(L);

	for (a = 0; a < L->nax; a++) {
		int same = 1;

		if (L->pan[a])
			continue;
		for (i = 1; i < L->n && same; i++)
			same = L->grp[L->ord[i]] != L->grp[L->ord[i - 1]] ||
			       VI(L, L->ord[i], a) == VI(L, L->ord[i - 1], a);
		if (same) {
			to_panel(L, a);
			most = group(L);
		}
	}
	return most;
}

static int
ncolour_axes(const struct mr_lay *L)
{
	int a, n = 0;

	for (a = 0; a < L->nax; a++)
		n += !L->pan[a];
	return n;
}

/* Choose the panel axes: the declared one (else allocator), then, while a panel would
 * have more than MAX_LINES colours and two colour axes or more are
 * left, the colour axis after whose move the fewest panels have at most
 * MAX_LINES colours (else the fewest colours). */
static void
choose_axes(struct mr_lay *L, const char *panels)
{
	int a, most;

	for (a = 0; a < L->nax; a++)
		if (!strcmp(L->ax[a].key, panels))
			to_panel(L, a);
	/* a declared axis these runs do not vary: the default's */
	for (a = 0; a < L->nax && !L->npan; a++)
		if (!strcmp(L->ax[a].key, "allocator"))
			to_panel(L, a);
	most = absorb(L);
	while (most > MAX_LINES && ncolour_axes(L) >= 2) {
		int best = -1, bfit = 0, bgrp = 0, bmost = 0;

		for (a = 0; a < L->nax; a++) {
			int m, fit;

			if (L->pan[a])
				continue;
			L->pan[a] = L->npan + 1;
			L->npan++;
			m = group(L);
			fit = m <= MAX_LINES;
			if (best < 0 || fit > bfit ||
			    (fit == bfit && (L->ngrp < bgrp || (L->ngrp == bgrp && m < bmost)))) {
				best = a;
				bfit = fit;
				bgrp = L->ngrp;
				bmost = m;
			}
			L->npan--;
			L->pan[a] = 0;
		}
		to_panel(L, best);
		most = absorb(L);
	}
	/* Panels of one line each, and few of them: one panel whose lines
	 * are the panel axis' values reads better. */
	if (!ncolour_axes(L) && L->ngrp > 1 && L->ngrp <= MAX_LINES) {
		for (a = 0; a < L->nax; a++)
			L->pan[a] = 0;
		L->npan = 0;
	}
	group(L);
}

/* "key=value" of config i over the panel axes (panel) or the colour
 * axes, ", "-separated: an unset key is left out of a panel's title and
 * said "key unset" in a colour's name.  '|' (the script's separator)
 * becomes '/'. */
static char *
pairs(const struct mr_lay *L, int i, int panel)
{
	struct strbuf b = {0};
	int r, a;
	char *s;

	for (r = panel ? 1 : 0; r <= (panel ? L->npan : 0); r++)
		for (a = 0; a < L->nax; a++) {
			const char *v = L->ax[a].val[VI(L, i, a)];

			if (panel ? L->pan[a] != r : L->pan[a] != 0)
				continue;
			if (panel && !v)
				continue;
			sb_printf(&b, "%s%s%s%s", b.len ? ", " : "", L->ax[a].key,
				  v ? "=" : " unset", v ? v : "");
		}
	s = b.s ? b.s : estrdup("");
	for (r = 0; s[r]; r++)
		if (s[r] == '|')
			s[r] = '/';
	return s;
}

/* When every value of the first panel axis has the same number of
 * panels, 2 to 4 of them (its parts, or a second panel axis), a row of
 * panels per value: L->ncols. */
static void
lay_columns(struct mr_lay *L)
{
	int a, i, first = -1, run = 0, per = 0, same = 1, prev = -1;

	L->ncols = 0;
	for (a = 0; a < L->nax; a++)
		if (L->pan[a] == 1)
			first = a;
	if (first < 0)
		return;
	for (i = 0; i < L->n; i++) {
		int c = L->ord[i], v = VI(L, c, first);

		if (i && L->panel[c] == L->panel[L->ord[i - 1]])
			continue;
		if (i && v != prev) {
			same &= !per || run == per;
			per = run;
			run = 0;
		}
		prev = v;
		run++;
	}
	same &= !per || run == per;
	if (same && run >= 2 && run <= 4)
		L->ncols = run;
}

/* Colours (the colour axes' values, in order, the same in every panel)
 * and panels (a group, split in parts of at most MAX_LINES colours). */
static void
assign(struct mr_lay *L)
{
	int *byc = ecalloc(L->n + 1, sizeof *byc), i, j, g0;

	for (i = 0; i < L->n; i++)
		byc[i] = i;
	for (i = 1; i < L->n; i++)
		for (j = i; j > 0 && cmp_tuple(L, byc[j - 1], byc[j], 0) > 0; j--) {
			int t = byc[j];

			byc[j] = byc[j - 1];
			byc[j - 1] = t;
		}
	L->ncol = 0;
	L->clabel = ecalloc(L->n + 1, sizeof *L->clabel);
	for (i = 0; i < L->n; i++) {
		if (!i || cmp_tuple(L, byc[i - 1], byc[i], 0))
			L->clabel[L->ncol++] = pairs(L, byc[i], 0);
		L->col[byc[i]] = L->ncol - 1;
	}
	free(byc);
	/* each group's colours, in parts */
	L->npanel = 0;
	L->ptitle = ecalloc(L->n + 1, sizeof *L->ptitle);
	for (g0 = 0; g0 < L->n;) {
		int g1 = g0, m = 0, parts, per, part;
		char *t;

		while (g1 < L->n && L->grp[L->ord[g1]] == L->grp[L->ord[g0]])
			g1++;
		for (i = g0; i < g1; i++)
			m += i == g0 || L->col[L->ord[i]] != L->col[L->ord[i - 1]];
		parts = m > MAX_LINES ? (m + MAX_LINES - 1) / MAX_LINES : 1;
		per = (m + parts - 1) / parts;
		t = pairs(L, L->ord[g0], 1);
		if (!*t && L->n == 1) {
			free(t);
			t = estrdup(L->cf[0].str);
		}
		for (part = 0, m = 0, i = g0; i < g1; i++) {
			m += i == g0 || L->col[L->ord[i]] != L->col[L->ord[i - 1]];
			if (i == g0 || (m - 1) / per != part) {
				part = (m - 1) / per;
				L->ptitle[L->npanel++] = parts > 1 ?
					esprintf("%s%s(part %d of %d)", t, *t ? " " : "",
						 part + 1, parts) :
					estrdup(t);
			}
			L->panel[L->ord[i]] = L->npanel - 1;
		}
		free(t);
		g0 = g1;
	}
	lay_columns(L);
}

/* The layout of configs cf[0..n-1] (n >= 1) with panel axis panels. */
void
mr_lay_make(struct mr_lay *L, const struct mr_config *cf, int n, const char *panels)
{
	int a, i;

	memset(L, 0, sizeof *L);
	L->n = n;
	L->cf = cf;
	L->nax = mr_config_axes(cf, n, &L->ax);
	for (a = 0; a < L->nax; a++)
		qsort(L->ax[a].val, L->ax[a].nval, sizeof *L->ax[a].val, cmp_val);
	L->vi = ecalloc((size_t)n * L->nax + 1, sizeof *L->vi);
	for (i = 0; i < n; i++)
		for (a = 0; a < L->nax; a++) {
			const char *v = mr_config_get(&cf[i], L->ax[a].key);
			int j;

			for (j = 0; j < L->ax[a].nval; j++)
				if (mr_config_same(L->ax[a].val[j], v))
					break;
			VI(L, i, a) = j;
		}
	L->pan = ecalloc(L->nax + 1, sizeof *L->pan);
	L->ord = ecalloc(n + 1, sizeof *L->ord);
	L->grp = ecalloc(n + 1, sizeof *L->grp);
	L->col = ecalloc(n + 1, sizeof *L->col);
	L->panel = ecalloc(n + 1, sizeof *L->panel);
	choose_axes(L, panels);
	assign(L);
}

void
mr_lay_free(struct mr_lay *L)
{
	int i;

	for (i = 0; i < L->npanel; i++)
		free(L->ptitle[i]);
	for (i = 0; i < L->ncol; i++)
		free(L->clabel[i]);
	free(L->ptitle);
	free(L->clabel);
	mr_config_axes_free(L->ax, L->nax);
	free(L->vi);
	free(L->pan);
	free(L->ord);
	free(L->grp);
	free(L->col);
	free(L->panel);
	memset(L, 0, sizeof *L);
}

/* The names of the panel axes (b[0]) and the colour axes (b[1]) for the
 * title: "a, b and c". */
void
mr_lay_axes(const struct mr_lay *L, struct strbuf *b)
{
	int r, a, n, i, m[2] = {0, 0};

	for (a = 0; a < L->nax; a++)
		m[!L->pan[a]]++;
	for (i = 0; i < 2; i++)
		for (r = i ? 0 : 1, n = 0; r <= (i ? 0 : L->npan); r++)
			for (a = 0; a < L->nax; a++)
				if (L->pan[a] == r) {
					sb_printf(&b[i], "%s%s", !n ? "" : n == m[i] - 1 ?
						  " and " : ", ", L->ax[a].key);
					n++;
				}
}
