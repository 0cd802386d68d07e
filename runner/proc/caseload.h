/* caseload: running a case binary with --describe and parsing what it
 * prints (proto/cases.h: the parser; this file: the process).
 */
#ifndef MR_CASELOAD_H
#define MR_CASELOAD_H

#include "core/util.h"
#include "proto/cases.h"

/* Run dir/name --describe (no shell, 10 s limit, environment without
 * LD_PRELOAD/GLIBC_TUNABLES/MEMREPRO_*) and parse its output into *out.
 * Returns 0; -1 with a message in err when the case could not describe
 * itself (did not run, exited non-zero, timed out); -2 when its output is
 * bad, with a message in the compiler form of docs/formats.md
 * ("<path> --describe:LINE:COL: ...", printed without a program name).
 * On error *out is zeroed and owns nothing. */
int mr_cases_load(const char *dir, const char *name, struct mr_cases_desc *out,
		  struct strbuf *err);

#endif
