/* numfmt: figures for people — see numfmt.h. */
#include "core/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Copy the digits of s into out with a space between groups of three;
 * the sign and anything after the integer part are copied as they are. */
static void
group(const char *s, char *out)
{
	size_t nd;
	const char *p;

	if (*s == '-')
		*out++ = *s++;
	nd = strspn(s, "0123456789");
	for (p = s; p < s + nd; p++) {
		*out++ = *p;
		if (p + 1 < s + nd && (s + nd - p - 1) % 3 == 0)
			*out++ = ' ';
	}
	strcpy(out, s + nd);
}

char *
mr_fmt_num(char *buf, double v)
{
	char tmp[48];
	double r = round(v);

	if (isnan(v))
		return strcpy(buf, "nan");
	if (isinf(v))
		return strcpy(buf, v < 0 ? "-inf" : "inf");
	if (fabs(v) < 1e15 && fabs(v - r) <= 1e-9 * fmax(1, fabs(v))) {
		snprintf(tmp, sizeof tmp, "%.0f", r == 0 ? 0.0 : r);
		group(tmp, buf);
	} else if (fabs(v) >= 1000 && fabs(v) < 1e15) {
		snprintf(tmp, sizeof tmp, "%.1f", v);
		group(tmp, buf);
	} else {
		snprintf(buf, 48, "%.4g", v);
	}
	return buf;
}
