/* escape: strings written inside JSON and XML (and HTML) documents.
 *
 * Shared by the JSON and JUnit writers (format.h) and the report's HTML
 * (doc.h).  Control characters and invalid UTF-8 are replaced, never
 * passed through, so a case's output in a detail cannot break the
 * document it is written into.
 */
#ifndef MR_ESCAPE_H
#define MR_ESCAPE_H

#include <stdio.h>

/* Write s (NULL: nothing) as the content of a JSON string, without the
 * quotes: '"' and '\\' escaped, control characters as \n, \t or \u00XX,
 * invalid UTF-8 as \ufffd. */
void mr_esc_json(FILE *f, const char *s);

/* Write s (NULL: nothing) as XML character data or an attribute value:
 * & < > " ' as entities, newline and tab as character references, other
 * control characters (which XML 1.0 does not admit) as '?', invalid
 * UTF-8 as U+FFFD. */
void mr_esc_xml(FILE *f, const char *s);

/* A fresh copy of s (a label from the results: a version, a runtime)
 * with only the characters a version label is made of, others '?': safe
 * to write unescaped in Markdown and HTML (a table's column head). */
char *mr_esc_head(const char *s);

#endif
