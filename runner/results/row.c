/* row: a row of a results file, set by column — see row.h. */
#include "results/row.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert((int)MR_RUNS_NCOLS <= MR_ROW_MAX && (int)MR_SERIES_NCOLS <= MR_ROW_MAX,
	       "MR_ROW_MAX is the widest file");

void
mr_row_start(struct mr_row *w, int n)
{
	memset(w->f, 0, sizeof w->f);
	w->n = n;
}

void
mr_row_str(struct mr_row *w, int col, const char *s)
{
	w->f[col] = s;
}

void
mr_row_fmt(struct mr_row *w, int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->num[col], sizeof w->num[col], fmt, ap);
	va_end(ap);
	w->f[col] = w->num[col];
}

void
mr_row_u64(struct mr_row *w, int col, uint64_t v)
{
	mr_row_fmt(w, col, "%" PRIu64, v);
}

void
mr_row_end(struct strbuf *b, const struct mr_row *w)
{
	int i;

	for (i = 0; i < w->n; i++) {
		if (!w->f[i]) {
			weprintf("results: column %d of a row was not set", i);
			abort();
		}
		sb_printf(b, "%s%s", i ? "\t" : "", w->f[i]);
	}
	sb_add(b, "\n");
}

void
mr_row_header(struct strbuf *h, const char *const *cols, int n)
{
	int i;

	for (i = 0; i < n; i++)
		sb_printf(h, "%s%s", i ? "\t" : "", cols[i]);
	sb_add(h, "\n");
}

void
mr_row_headers(struct mr_row_headers *h)
{
	memset(h, 0, sizeof *h);
	mr_row_header(&h->runs, mr_runs_cols, MR_RUNS_NCOLS);
	mr_row_header(&h->ckpts, mr_ckpts_cols, MR_CKPTS_NCOLS);
	mr_row_header(&h->series, mr_series_cols, MR_SERIES_NCOLS);
}

void
mr_row_headers_free(struct mr_row_headers *h)
{
	sb_free(&h->runs);
	sb_free(&h->ckpts);
	sb_free(&h->series);
}
