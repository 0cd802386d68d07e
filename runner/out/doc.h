/* doc: one document written twice, as Markdown and as HTML.
 *
 * Every call writes the same content to both streams: GitHub-flavoured
 * Markdown (images linked relative to it) and a self-contained HTML page
 * (styles inline, PNG images embedded as base64 data: URIs).  Text is
 * escaped for each (escape.h for the HTML); a caller never writes either
 * stream itself, so the two cannot drift apart.
 *
 * A document: mr_doc_begin, then headings, paragraphs (mr_doc_para ...
 * text ... mr_doc_para_end), tables (mr_doc_table, then per row
 * mr_doc_row, mr_doc_cell before each cell's text, mr_doc_row_end, and
 * mr_doc_table_end) and images, then mr_doc_end.
 */
#ifndef MR_DOC_H
#define MR_DOC_H

#include <stdio.h>

struct mr_doc {
	FILE *md;         /* the Markdown stream (not owned) */
	FILE *html;       /* the HTML stream (not owned) */
	const char *dir;  /* the directory images are read from, and the
	                     document's links are relative to */
	int in_table;     /* markdown: '|' must be escaped */
	int ncell;        /* cells written in the current row */
};

/* The head of both documents: an HTML page with the styles, and a first
 * heading title in both. */
void mr_doc_begin(struct mr_doc *d, const char *title);

/* The end of the HTML page. */
void mr_doc_end(struct mr_doc *d);

/* Plain text, escaped for both. */
void mr_doc_text(struct mr_doc *d, const char *s);
void mr_doc_textf(struct mr_doc *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Inline code: s verbatim in a fence of backticks longer than any run
 * of them inside s / in <code>. */
void mr_doc_code(struct mr_doc *d, const char *s);

/* Strong text. */
void mr_doc_bold(struct mr_doc *d, const char *s);

/* Text shown with more one click away: summary (plain text), then what
 * the calls up to mr_doc_details_end write, folded under it (a
 * <details> element in both; inline, so it may stand in a table cell). */
void mr_doc_details(struct mr_doc *d, const char *summary);
void mr_doc_details_end(struct mr_doc *d);

/* A link with text s to href: a path relative to the document, or
 * "#anchor". */
void mr_doc_link(struct mr_doc *d, const char *s, const char *href);

/* A file rel of the results (relative to d->dir): a link in Markdown,
 * which sits beside it; in the self-contained HTML page, which holds no
 * such file, its path as code, not a link. */
void mr_doc_file(struct mr_doc *d, const char *rel);

/* A heading of level 1..6; id (NULL: none) is its HTML anchor. */
void mr_doc_heading(struct mr_doc *d, int level, const char *id, const char *s);

/* A paragraph's start and end. */
void mr_doc_para(struct mr_doc *d);
void mr_doc_para_end(struct mr_doc *d);

/* A short word set off from the text: strong in Markdown when loud, a
 * <span class="v v-CLS"> (the styles of mr_doc_begin: held, regressed,
 * improved, notrepro, skipped) in HTML. */
void mr_doc_badge(struct mr_doc *d, const char *s, const char *cls, int loud);

/* A table with the NULL-terminated column heads head (written as they
 * are: no escaping), its rows and cells, its end. */
void mr_doc_table(struct mr_doc *d, const char *const *head);
void mr_doc_row(struct mr_doc *d);
void mr_doc_cell(struct mr_doc *d);
void mr_doc_row_end(struct mr_doc *d);
void mr_doc_table_end(struct mr_doc *d);

/* The image rel ("plots/<name>", without extension) of d->dir: in
 * Markdown a link to rel.png with links to rel.svg and, when there is
 * one, its data rel.tsv; in HTML rel.png embedded.  The PNG is read as
 * every file of the results is (core/safeio.h): a link planted in its
 * place is refused, not embedded.  Returns 0, or -1 when rel.png cannot
 * be read (nothing written). */
int mr_doc_image(struct mr_doc *d, const char *alt, const char *rel);

#endif
