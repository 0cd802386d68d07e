/* muslbuild: the case binary an allocator with "build = musl" runs.
 *
 * musl's allocator (mallocng) is its libc's malloc: it cannot be
 * preloaded into a glibc program, so the Makefile builds each case a
 * second time with musl-gcc, statically, into CASES/musl/NAME (CASES: the
 * cases directory).  A case whose source says it needs glibc (a header
 * line " * No musl build: REASON") has no such binary; the build leaves
 * CASES/musl/NAME.skip, whose one line is the reason.
 */
#ifndef MR_MUSLBUILD_H
#define MR_MUSLBUILD_H

#include "proto/cases.h"

/* The musl build of case c: a fresh path (CASES/musl/NAME) and NULL in
 * *why when it is an executable file; NULL and a fresh reason in *why
 * (the case's own from NAME.skip, or that there is no build) otherwise. */
char *mr_musl_case_path(const struct mr_cases_desc *c, char **why);

/* musl's version, as its dynamic loader (/lib/ld-musl-ARCH.so.1, Debian
 * package musl, built from the same source as libc.a) says it run bare:
 * "Version 1.2.3" on stderr.  Fresh string, or NULL when there is no
 * loader or it says no version. */
char *mr_musl_version(void);

#endif
