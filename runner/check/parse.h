/* parse: the parser of the claims language (docs/formats.md, "Claims"),
 * recursive descent over the tokens of lex.c into a struct mr_claims
 * (claims.h: mr_claims_parse).  Its parts for the other files of the
 * parser: versions (pversion.c) and axis directives (pdirective.c).
 * Every function here reports bad input with mr_lex_err (file:line:col)
 * and does not return then.
 */
#ifndef MR_PARSE_H
#define MR_PARSE_H

#include <stddef.h>

#include "check/lex.h"

/* Whether vp bounds a version from one side (a range's half). */
int mr_vp_bound(const struct mr_vpair *vp);

/* How many bytes of version characters start at pos. */
size_t mr_lex_version_len(const struct mr_parser *p, size_t pos);

/* The version of n bytes at pos (at line, col), checked; what names the
 * thing versioned, for the message.  The claims' own copy. */
char *mr_parse_version(struct mr_parser *p, size_t pos, size_t n, int line, int col,
		       const char *what);

/* allocator=NAME[@[OP]VERSION]: the value token v read (as val) into vp;
 * the version part is read here.  Returns the value as written. */
char *mr_parse_alloc_spec(struct mr_parser *p, const struct mr_tok *v, char *val,
			  struct mr_vpair *vp);

/* libc=VERSION or libc OP VERSION: the value token v read (as val). */
void mr_parse_libc_version(struct mr_parser *p, const struct mr_tok *v, const char *val,
			   struct mr_vpair *vp);

/* "since NAME@VERSION" after a reported status ("since" already read),
 * into the claim being read. */
void mr_parse_since(struct mr_parser *p);

/* "unless NAME@[OP]VERSION" ("unless" already read), into the claim being
 * read: NAME an allocator (not libc: a claim ranges over libcs with a
 * reference's libc range). */
void mr_parse_unless(struct mr_parser *p);

/* "axis KEY=V1[,V2...]" to the end of the line ("axis" already read). */
void mr_parse_axis(struct mr_parser *p);

/* After the file: every reference that leaves a directive's key unnamed
 * takes the configs without it (claims.h). */
void mr_claims_mark_unset(struct mr_claims *cs);

#endif
