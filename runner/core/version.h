/* version: upstream versions as Debian spells them ("5.2.1", "2.10",
 * "3.0.1~rc1"), compared as dpkg compares them, and the version
 * constraints a claim may put on an allocator or on the libc
 * (docs/formats.md, "Versions in claims").
 */
#ifndef MR_VERSION_H
#define MR_VERSION_H

#include <stddef.h>

/* A constraint on a version: none (any version), or OP VERSION. */
enum mr_vop {
	MR_V_ANY, /* no version named */
	MR_V_EQ,  /* "5.2.1": exactly this one */
	MR_V_LT, MR_V_LE, MR_V_GT, MR_V_GE,
};

/* "", "", "<", "<=", ">", ">=", by enum mr_vop. */
extern const char *const mr_vop_names[];

/* Compare two upstream versions as dpkg does (verrevcmp): runs of
 * non-digits compare character by character, letters before other
 * characters and '~' before everything, even the end; runs of digits
 * compare as numbers (2.10 > 2.8.1).  Returns <0, 0 or >0. */
int mr_version_cmp(const char *a, const char *b);

/* Whether the n bytes at s are an upstream version: a digit, then
 * digits, letters and . + ~ - only. */
int mr_version_valid(const char *s, size_t n);

/* Whether version v satisfies "op want" (MR_V_ANY: always; a NULL v, a
 * version not recorded: only MR_V_ANY). */
int mr_version_satisfies(const char *v, enum mr_vop op, const char *want);

/* The leading version in an environment record, into buf (size n): from
 * the first digit, digits and dots ("5.3.0-0-g54eaed1d..." -> "5.3.0",
 * "glibc 2.36" -> "2.36").  Returns buf, or NULL when s has no digit. */
char *mr_version_lead(const char *s, char *buf, size_t n);

#endif
