/* allocconf: the allocator options of the configs, asked of the allocator.
 *
 * jemalloc takes its options from MALLOC_CONF and, of one it does not
 * know or a value it cannot read, says "<jemalloc>: Invalid conf pair:
 * KEY:VALUE" on stderr and runs on without it: a run under a misspelt
 * option (jemalloc.dirty_decay=0) would be measured as if the option had
 * been set.  Before anything runs, each distinct option environment of a
 * config is given to its allocator in the probe child (alloc.h's
 * "__probe-alloc", the allocator preloaded as a run has it); what the
 * allocator says there of its options is a usage error.
 */
#ifndef MR_MATRIX_ALLOCCONF_H
#define MR_MATRIX_ALLOCCONF_H

#include "matrix/alloctypes.h"
#include "matrix/matrix.h"
#include "core/util.h"

/* Check the option environments (optenv) of the configs of mats[0..n-1]
 * under their allocators in t (one that cannot be used, or the C
 * library, is not asked).  self_exe: the runner's own path.  Returns 0,
 * or -1 with err "--axis jemalloc.KEY: jemalloc 5.3.0 refused it:
 * Invalid conf pair: KEY:VALUE". */
int mr_allocconf_check(const struct mr_alloc_tab *t, const struct mr_matrix *mats, int n,
		       const char *self_exe, struct strbuf *err);

#endif
