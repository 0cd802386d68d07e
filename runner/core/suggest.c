/* suggest: how near two names are, for "did you mean" — see suggest.h. */
#include "core/suggest.h"

#include <string.h>

/* Edit distance of a and b, capped at 9 (names are short). */
int
mr_edit_distance(const char *a, const char *b)
{
	int d[32][32], la = (int)strlen(a), lb = (int)strlen(b), i, j;

	if (la > 30 || lb > 30)
		return 9;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			int sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			int del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;

			d[i][j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
		}
	}
	return d[la][lb] > 9 ? 9 : d[la][lb];
}

