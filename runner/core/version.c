/* version: dpkg's comparison of upstream versions — see version.h. */
#include "core/version.h"

#include <string.h>

const char *const mr_vop_names[] = {
	[MR_V_ANY] = "", [MR_V_EQ] = "", [MR_V_LT] = "<", [MR_V_LE] = "<=",
	[MR_V_GT] = ">", [MR_V_GE] = ">=",
};

static int
isdigit_(int c)
{
	return c >= '0' && c <= '9';
}

static int
isalpha_(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* The weight of a character in a run of non-digits, as dpkg's order():
 * '~' before the end, the end before letters, letters before the rest. */
static int
order(int c)
{
	if (isdigit_(c))
		return 0;
	if (isalpha_(c))
		return c;
	if (c == '~')
		return -1;
	if (c)
		return c + 256;
	return 0;
}

int
mr_version_cmp(const char *a, const char *b)
{
	while (*a || *b) {
		int first = 0;

		while ((*a && !isdigit_(*a)) || (*b && !isdigit_(*b))) {
			int ac = order(*a), bc = order(*b);

			if (ac != bc)
				return ac - bc;
			a++;
			b++;
		}
		while (*a == '0')
			a++;
		while (*b == '0')
			b++;
		while (isdigit_(*a) && isdigit_(*b)) {
			if (!first)
				first = *a - *b;
			a++;
			b++;
		}
		if (isdigit_(*a))
			return 1;
		if (isdigit_(*b))
			return -1;
		if (first)
			return first;
	}
	return 0;
}

int
mr_version_valid(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || !isdigit_(s[0]))
		return 0;
	for (i = 1; i < n; i++)
		if (!isdigit_(s[i]) && !isalpha_(s[i]) && !strchr(".+~-", s[i]))
			return 0;
	return 1;
}

int
mr_version_satisfies(const char *v, enum mr_vop op, const char *want)
{
	int c;

	if (op == MR_V_ANY)
		return 1;
	if (!v)
		return 0;
	c = mr_version_cmp(v, want);
	switch (op) {
	case MR_V_EQ:
		return c == 0;
	case MR_V_LT:
		return c < 0;
	case MR_V_LE:
		return c <= 0;
	case MR_V_GT:
		return c > 0;
	case MR_V_GE:
		return c >= 0;
	default:
		return 1;
	}
}

char *
mr_version_lead(const char *s, char *buf, size_t n)
{
	size_t i = 0;

	if (!s || n == 0)
		return NULL;
	while (*s && !isdigit_(*s))
		s++;
	if (!*s)
		return NULL;
	while ((isdigit_(*s) || *s == '.') && i + 1 < n)
		buf[i++] = *s++;
	while (i > 0 && buf[i - 1] == '.')
		i--;
	buf[i] = '\0';
	return buf;
}
