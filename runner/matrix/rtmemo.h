/* rtmemo: the runtimes (runtime.h) this process has resolved, by spec.
 *
 * The session checks the runtime axis' versions before anything runs
 * (configs.h: one that does not exist is a usage error) and resolves
 * them again for the runs (origtab.h); the second mr_runtime_get of a
 * spec takes the first's answer instead of asking npm or the releases
 * again.  Not for measured code: this mallocs.
 */
#ifndef MR_RTMEMO_H
#define MR_RTMEMO_H

#include "matrix/rttypes.h"

/* A deep copy of the resolution of spec into *out (free it with
 * mr_runtime_free, runtime.h): 1; 0 when spec was not resolved before. */
int mr_rtmemo_get(const char *spec, struct mr_runtime *out);

/* Keep a deep copy of rt (rt->spec set) for later mr_rtmemo_get. */
void mr_rtmemo_put(const struct mr_runtime *rt);

#endif
