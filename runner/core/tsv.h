/* tsv: a strict reader of the TSV files memrepro reads (docs/formats.md).
 *
 * A file is optional '#' comment lines, a header row naming the columns,
 * then rows with exactly as many tab-separated fields as the header.
 * Columns are found by name.  Every complaint names path:line:column,
 * the column being the 1-based byte position where the field starts.
 */
#ifndef MR_TSV_H
#define MR_TSV_H

#include <stdarg.h>

#include <stdio.h>
#include <sys/types.h>

struct mr_tsv {
	char *path;       /* as given to mr_tsv_open, for messages (owned) */
	FILE *f;          /* the open file */
	long line;        /* line number of the current row (1-based) */
	char *buf;        /* the current line, split in place (owned) */
	size_t cap;       /* allocated bytes of buf */
	int ncols;        /* number of header fields */
	char **cols;      /* header names (owned) */
	char **field;     /* ncols fields of the current row, into buf */
	int *fcol;        /* byte column (1-based) of each field */
	char **comments;  /* '#' lines before the header, '#' and one space
	                     removed (owned) */
	int ncomments;    /* number of comments */
};

/* Print "path:line:col: message" on stderr, as compilers do, so editors can
 * jump to it.  col 0 leaves the column out, line 0 the line too. */
void mr_verrat(const char *path, long line, long col, const char *fmt, va_list ap);
void mr_errat(const char *path, long line, long col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The whole text file path into *out (a fresh strbuf, NUL-terminated):
 * a regular file (a FIFO does not hang the open) of at most max bytes and
 * no NUL byte; what names it in the message ("claims file").  Returns 0;
 * -ENOENT when it does not exist (nothing printed); -1 otherwise
 * (printed as path[:line:col]: why). */
struct strbuf;
int mr_read_text(const char *path, size_t max, const char *what, struct strbuf *out);

/* Open path and read its header.  Returns 0; -ENOENT when the file does
 * not exist (nothing printed); -1 on any other problem (printed).  On
 * failure nothing needs closing. */
int mr_tsv_open(struct mr_tsv *t, const char *path);

/* Like mr_tsv_open, for the file rel of the results directory dir (which
 * may come from anywhere): opened with mr_sio_fopen, so never through a
 * symbolic link, only a regular file, at most cap bytes read; messages
 * name dir/rel.  -ENOENT when there is no such file (nothing printed),
 * -1 on any other problem (printed). */
int mr_tsv_open_in(struct mr_tsv *t, const char *dir, const char *rel, off_t cap);

/* Index of the column called name, or -1 when the header has none. */
int mr_tsv_col(const struct mr_tsv *t, const char *name);

/* Like mr_tsv_col, but a missing column is an error: prints
 * "path:L:1: missing column NAME" (L: the header's line) and returns -1. */
int mr_tsv_need(const struct mr_tsv *t, const char *name);

/* Read the next row.  Returns 1 (a row is in field[]), 0 at the end of the
 * file, -1 on a malformed row (printed). */
int mr_tsv_next(struct mr_tsv *t);

/* Field col of the current row (col from mr_tsv_col; valid until the next
 * mr_tsv_next). */
const char *mr_tsv_get(const struct mr_tsv *t, int col);

/* Print "path:line:column: message" pointing at field col of the current
 * row (col < 0: at the start of the line).  Returns -1. */
int mr_tsv_err(const struct mr_tsv *t, int col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Field col as a finite number into *out: 0, or -1 (printed "expected a
 * number in column NAME, got "abc"").  With dash_ok, a field "-" (not
 * measured) gives NAN and 0. */
int mr_tsv_num(const struct mr_tsv *t, int col, int dash_ok, double *out);

/* Field col as a decimal integer in [min, max]: 0, or -1 (printed). */
int mr_tsv_int(const struct mr_tsv *t, int col, long long min, long long max,
	       long long *out);

/* Close and free everything; t may be zeroed or already closed. */
void mr_tsv_close(struct mr_tsv *t);

#endif
