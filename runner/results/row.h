/* row: a row of a results file (runs.tsv, checkpoints.tsv, series.tsv),
 * its fields set by column (proto/schema.h's enums), then written in the
 * file's column order, so that no figure can land under another's name.
 */
#ifndef MR_ROW_H
#define MR_ROW_H

#include <stdint.h>

#include "core/util.h"
#include "proto/schema.h"

/* The most columns of a results file: checkpoints.tsv's. */
enum { MR_ROW_MAX = MR_CKPTS_NCOLS };

struct mr_row {
	int n;                     /* columns of the file */
	const char *f[MR_ROW_MAX]; /* the field of each column; NULL: not set */
	char num[MR_ROW_MAX][32];  /* the text of the numeric fields */
};

/* Start an empty row of n columns (n <= MR_ROW_MAX). */
void mr_row_start(struct mr_row *w, int n);

/* Set column col to s (not copied: it must live until mr_row_end). */
void mr_row_str(struct mr_row *w, int col, const char *s);

/* Set column col to the printf of fmt (at most 31 bytes). */
void mr_row_fmt(struct mr_row *w, int col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

void mr_row_u64(struct mr_row *w, int col, uint64_t v);

/* Append the row to b, tab-separated, with its newline.  Every column
 * must have been set: a column left out is a bug of the writer, and
 * aborts rather than shift the columns after it. */
void mr_row_end(struct strbuf *b, const struct mr_row *w);

/* The header row of a file of columns cols[0..n-1], appended to h. */
void mr_row_header(struct strbuf *h, const char *const *cols, int n);

/* The header rows of runs.tsv, checkpoints.tsv and series.tsv. */
struct mr_row_headers {
	struct strbuf runs, ckpts, series;
};

/* Make them all (h need not be initialised); free with
 * mr_row_headers_free. */
void mr_row_headers(struct mr_row_headers *h);
void mr_row_headers_free(struct mr_row_headers *h);

#endif
