#include "out/doc.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/safeio.h"
#include "core/util.h"
#include "out/escape.h"

static int
alnum(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Markdown text: what could start emphasis, code, a link, HTML or a table
 * cell is escaped; an underscore inside a word and a '<' that starts no
 * tag cannot (GFM), so they stay.  ('>' and '#' matter only at the start
 * of a line, where this text never is.) */
static void
md_esc(struct mr_doc *d, const char *s)
{
	const char *p;

	for (p = s; *p; p++) {
		if (*p == '\n' || *p == '\r' || *p == '\t')
			fputc(' ', d->md);
		else if (*p == '_' && p > s && alnum(p[-1]) && alnum(p[1]))
			fputc('_', d->md);
		else if (*p == '<' && !alnum(p[1]) && !strchr("/!?", p[1]))
			fputc('<', d->md); /* not a tag: "8 MiB < 32 MiB" */
		else if (strchr("\\`*_[]<|~", *p))
			fprintf(d->md, "\\%c", *p);
		else
			fputc(*p, d->md);
	}
}


/* Plain text. */
void
mr_doc_text(struct mr_doc *d, const char *s)
{
	md_esc(d, s);
	mr_esc_xml(d->html, s);
}

void
mr_doc_textf(struct mr_doc *d, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		eprintf("vasprintf:");
	va_end(ap);
	mr_doc_text(d, s);
	free(s);
}

/* Inline code: a backtick fence longer than any run inside. */
void
mr_doc_code(struct mr_doc *d, const char *s)
{
	int run = 0, longest = 0, i;
	const char *p;

	for (p = s; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	for (i = 0; i <= longest; i++)
		fputc('`', d->md);
	if (*s == '`' || (*s && s[strlen(s) - 1] == '`'))
		fputc(' ', d->md);
	for (p = s; *p; p++) {
		if (*p == '|' && d->in_table)
			fputs("\\|", d->md);
		else if (*p == '\n' || *p == '\t')
			fputc(' ', d->md);
		else
			fputc(*p, d->md);
	}
	if (*s == '`' || (*s && s[strlen(s) - 1] == '`'))
		fputc(' ', d->md);
	for (i = 0; i <= longest; i++)
		fputc('`', d->md);
	fputs("<code>", d->html);
	mr_esc_xml(d->html, s);
	fputs("</code>", d->html);
}

void
mr_doc_bold(struct mr_doc *d, const char *s)
{
	fputs("**", d->md);
	md_esc(d, s);
	fputs("**", d->md);
	fputs("<strong>", d->html);
	mr_esc_xml(d->html, s);
	fputs("</strong>", d->html);
}

/* The same tags in both: GitHub renders them in Markdown, in a table
 * cell too, and the text between them is still Markdown. */
void
mr_doc_details(struct mr_doc *d, const char *summary)
{
	fputs("<details><summary>", d->md);
	md_esc(d, summary);
	fputs("</summary>", d->md);
	fputs("<details><summary>", d->html);
	mr_esc_xml(d->html, summary);
	fputs("</summary>", d->html);
}

void
mr_doc_details_end(struct mr_doc *d)
{
	fputs("</details>", d->md);
	fputs("</details>", d->html);
}

/* href is a path relative to the results directory, or "#anchor". */
void
mr_doc_link(struct mr_doc *d, const char *s, const char *href)
{
	fputc('[', d->md);
	md_esc(d, s);
	fprintf(d->md, "](%s)", href);
	fprintf(d->html, "<a href=\"");
	mr_esc_xml(d->html, href);
	fprintf(d->html, "\">");
	mr_esc_xml(d->html, s);
	fprintf(d->html, "</a>");
}

/* The HTML page holds no file of the results: a path, not a link. */
void
mr_doc_file(struct mr_doc *d, const char *rel)
{
	fputc('[', d->md);
	md_esc(d, rel);
	fprintf(d->md, "](%s)", rel);
	fputs("<code>", d->html);
	mr_esc_xml(d->html, rel);
	fputs("</code>", d->html);
}

void
mr_doc_heading(struct mr_doc *d, int level, const char *id, const char *s)
{
	fprintf(d->md, "\n%.*s ", level, "######");
	md_esc(d, s);
	fputs("\n\n", d->md);
	fprintf(d->html, "<h%d", level);
	if (id) {
		fputs(" id=\"", d->html);
		mr_esc_xml(d->html, id);
		fputc('"', d->html);
	}
	fputc('>', d->html);
	mr_esc_xml(d->html, s);
	fprintf(d->html, "</h%d>\n", level);
}

void
mr_doc_para(struct mr_doc *d)
{
	fputs("<p>", d->html);
}

void
mr_doc_para_end(struct mr_doc *d)
{
	fputs("\n\n", d->md);
	fputs("</p>\n", d->html);
}

void
mr_doc_badge(struct mr_doc *d, const char *s, const char *cls, int loud)
{
	if (loud)
		fprintf(d->md, "**%s**", s);
	else
		fputs(s, d->md);
	fprintf(d->html, "<span class=\"v v-%s\">%s</span>", cls, s);
}

void
mr_doc_table(struct mr_doc *d, const char *const *head)
{
	int i;

	fputc('|', d->md);
	fputs("<table>\n<thead><tr>", d->html);
	for (i = 0; head[i]; i++) {
		fprintf(d->md, " %s |", head[i]);
		fprintf(d->html, "<th>%s</th>", head[i]);
	}
	fputs("\n|", d->md);
	for (i = 0; head[i]; i++)
		fputs("---|", d->md);
	fputc('\n', d->md);
	fputs("</tr></thead>\n<tbody>\n", d->html);
	d->in_table = 1;
}

void
mr_doc_row(struct mr_doc *d)
{
	fputc('|', d->md);
	fputs("<tr>", d->html);
	d->ncell = 0;
}

void
mr_doc_cell(struct mr_doc *d)
{
	if (d->ncell++) {
		fputs(" |", d->md);
		fputs("</td>", d->html);
	}
	fputc(' ', d->md);
	fputs("<td>", d->html);
}

void
mr_doc_row_end(struct mr_doc *d)
{
	if (d->ncell) {
		fputs(" |", d->md);
		fputs("</td>", d->html);
	}
	fputc('\n', d->md);
	fputs("</tr>\n", d->html);
}

void
mr_doc_table_end(struct mr_doc *d)
{
	fputc('\n', d->md);
	fputs("</tbody>\n</table>\n", d->html);
	d->in_table = 0;
}

static const char b64[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* The stream in as base64, into f; in is closed. */
static void
base64_file(FILE *f, FILE *in)
{
	unsigned char buf[3 * 1024];
	size_t n, i;

	while ((n = fread(buf, 1, sizeof buf, in)) > 0) {
		for (i = 0; i < n; i += 3) {
			unsigned v = buf[i] << 16 | (i + 1 < n ? buf[i + 1] << 8 : 0) |
				     (i + 2 < n ? buf[i + 2] : 0);

			fputc(b64[v >> 18 & 63], f);
			fputc(b64[v >> 12 & 63], f);
			fputc(i + 1 < n ? b64[v >> 6 & 63] : '=', f);
			fputc(i + 2 < n ? b64[v & 63] : '=', f);
		}
		/* only the last read may end short of a multiple of 3 */
		if (n % 3)
			break;
	}
	fclose(in);
}

int
mr_doc_image(struct mr_doc *d, const char *alt, const char *rel)
{
	char *png = esprintf("%s.png", rel);
	FILE *in = mr_sio_fopen(d->dir, png, MR_SIO_IMAGE_MAX);

	free(png);
	if (!in)
		return -1;
	fprintf(d->md, "![");
	md_esc(d, alt);
	fprintf(d->md, "](%s.png)\n\n[SVG](%s.svg)", rel, rel);
	{
		char *tsv = esprintf("%s/%s.tsv", d->dir, rel);

		if (access(tsv, R_OK) == 0)
			fprintf(d->md, " · [data](%s.tsv)", rel);
		free(tsv);
	}
	fputs("\n\n", d->md);
	fputs("<figure><img alt=\"", d->html);
	mr_esc_xml(d->html, alt);
	fputs("\" src=\"data:image/png;base64,", d->html);
	base64_file(d->html, in);
	fputs("\"></figure>\n", d->html);
	return 0;
}

static const char css[] =
	"body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;"
	"max-width:1240px;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}"
	"h1{font-size:1.7em;border-bottom:2px solid #ddd;padding-bottom:.2em}"
	"h2{font-size:1.35em;margin-top:2em;border-bottom:1px solid #e4e4e4}"
	"h3{font-size:1.1em;margin-top:1.5em}"
	"table{border-collapse:collapse;margin:.5em 0 1em;font-size:.92em;"
	"display:block;overflow-x:auto;max-width:100%}"
	"td:first-child code{white-space:nowrap}"
	"th,td{border:1px solid #ddd;padding:.3em .55em;text-align:left;vertical-align:top}"
	"th{background:#f4f4f4}tr:nth-child(even) td{background:#fafafa}"
	"code{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:.9em;"
	"background:#f3f3f3;padding:.05em .3em;border-radius:3px}"
	"figure{margin:1em 0}img{max-width:100%;height:auto;border:1px solid #e4e4e4}"
	".v{font-weight:600;padding:.05em .4em;border-radius:3px;white-space:nowrap}"
	".v-held{color:#1a6b2a;background:#e3f3e6}.v-regressed{color:#fff;background:#c62828}"
	".v-improved{color:#0b5d6b;background:#d8f0f4}.v-notrepro{color:#7a5a00;background:#fbf0cc}"
	".v-skipped{color:#666;background:#eee}"
	"summary{cursor:pointer}details code{display:inline-block;margin-top:.3em}";

void
mr_doc_begin(struct mr_doc *d, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
	      d->html);
	mr_esc_xml(d->html, title);
	fprintf(d->html, "</title>\n<style>%s</style>\n</head>\n<body>\n", css);
	fprintf(d->md, "# ");
	md_esc(d, title);
	fputs("\n\n", d->md);
	fputs("<h1>", d->html);
	mr_esc_xml(d->html, title);
	fputs("</h1>\n", d->html);
}

void
mr_doc_end(struct mr_doc *d)
{
	fputs("</body>\n</html>\n", d->html);
}
