#include "out/escape.h"

#include <string.h>

#include "core/util.h"

/* Length of the valid UTF-8 sequence at s, or 0. */
static int
utf8_len(const unsigned char *s)
{
	int n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

void
mr_esc_json(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (p && *p) {
		int n = utf8_len(p);

		if (n == 0) {
			fputs("\\ufffd", f);
			p++;
		} else if (*p == '"' || *p == '\\') {
			fprintf(f, "\\%c", *p++);
		} else if (*p == '\n') {
			fputs("\\n", f);
			p++;
		} else if (*p == '\t') {
			fputs("\\t", f);
			p++;
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\u%04x", *p++);
		} else {
			fwrite(p, 1, n, f);
			p += n;
		}
	}
}

void
mr_esc_xml(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (p && *p) {
		int n = utf8_len(p);

		switch (n ? *p : 0) {
		case 0:
			fputs("\xef\xbf\xbd", f); /* U+FFFD */
			p++;
			continue;
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&apos;", f);
			break;
		case '\n':
			fputs("&#10;", f);
			break;
		case '\t':
			fputs("&#9;", f);
			break;
		default:
			/* XML 1.0 admits no other control character. */
			if (*p < 0x20 || *p == 0x7f)
				fputc('?', f);
			else
				fwrite(p, 1, n, f);
		}
		p += n;
	}
}

/* A column head from the results: only what a version label is made of. */
char *
mr_esc_head(const char *s)
{
	char *h = estrdup(s), *p;

	for (p = h; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr("@.+~-_ ()", *p)))
			*p = '?';
	return h;
}
