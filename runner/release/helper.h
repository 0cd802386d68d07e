/* helper: the bounded runner of apt-get, apt-cache and dpkg-deb (execve
 * with an argv, no shell, proc/capture.h) for the release sources and the
 * cache.  Internal to release/. */
#ifndef MR_REL_HELPER_H
#define MR_REL_HELPER_H

#include "core/util.h"

/* Timeouts of the helpers, in ms (MEMREPRO_HELPER_TIMEOUT=SECONDS, when
 * set, replaces them all: tests of a hanging helper). */
#define MR_REL_T_QUERY 60000     /* apt-cache, dpkg-deb -f, indextargets */
#define MR_REL_T_UPDATE 300000   /* apt-get update */
#define MR_REL_T_DOWNLOAD 600000 /* apt-get download */
#define MR_REL_T_UNPACK 300000   /* dpkg-deb -x */

/* The timeout ms, or MEMREPRO_HELPER_TIMEOUT's in ms when it is set. */
long mr_rel_timeout(long ms);

/* Run argv (argv[0] a command found in PATH, or a path) in dir (NULL:
 * ours) with our environment minus APT_CONFIG, plus LC_ALL=C and
 * apt_config (NULL: none), output (stdout, and stderr too when
 * with_stderr) into out.  Killed after timeout_ms.  0 when it exited 0;
 * -1 with why: "NAME: exit N: last lines of its output", "NAME: timed
 * out after N s (killed)", "NAME: cannot run: ...". */
int mr_rel_helper(const char *dir, const char *const *argv, const char *apt_config,
		  long timeout_ms, int with_stderr, struct strbuf *out, struct strbuf *why);

/* The first line of a helper's output out that apt marks as an error
 * ("E: "), else the first it marks as a warning ("W: "), else its last
 * line, appended to why. */
void mr_rel_gist(const char *out, struct strbuf *why);

#endif
