/* Fuzz target: what a case prints for --describe (runner/proto/cases.c).  The
 * case is called what the input's "name" line says (the parser checks the
 * two agree), so real descriptions go deep. */
#include <string.h>

#include "proto/cases.h"
#include "fuzz.h"
#include "core/util.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mr_cases_desc d;
	struct strbuf err = { 0 };
	const char *text = (const char *)data, *p;
	char name[72] = "fuzz";

	p = size > 6 && memcmp(text, "name\t", 5) == 0 ? text :
	    memmem(text, size, "\nname\t", 6);
	if (p) {
		size_t off, n = 0;

		p += *p == '\n' ? 6 : 5;
		off = (size_t)(p - text);
		while (off + n < size && n < sizeof name - 1 && p[n] != '\n')
			n++;
		memcpy(name, p, n);
		name[n] = '\0';
		if (!mr_name_case(name))
			strcpy(name, "fuzz");
	}
	if (mr_cases_parse(name, "fuzz --describe", text, size, &d, &err) == 0)
		mr_cases_free(&d);
	sb_free(&err);
	return 0;
}
