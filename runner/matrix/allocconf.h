/* allocconf: the allocator options of the configs, asked of the allocator.
 *
 * jemalloc takes its options from MALLOC_CONF and, of one it does not
 * know or a value it cannot read, says "<jemalloc>: Invalid conf pair:
 * KEY:VALUE" on stderr and runs on without it: a run under a misspelt
 * option (jemalloc.dirty_decay=0) would be measured as if the option had
 * been set.  mimalloc reads the MIMALLOC_<OPTION> variables it knows and
 * says nothing of another (purge_delay is 2.1's: 2.0.9 has
 * decommit_delay).  Before anything runs, each distinct option environment of a
 * config is given to its allocator in the probe child (alloc.h's
 * "__probe-alloc", the allocator preloaded as a run has it); what the
 * allocator says there of its options (jemalloc's refusal; an option
 * missing from the list mimalloc prints when verbose) is a usage
 * error.
 */
#ifndef MR_MATRIX_ALLOCCONF_H
#define MR_MATRIX_ALLOCCONF_H

#include "matrix/alloctypes.h"
#include "matrix/matrix.h"
#include "core/util.h"

/* Check the option environments (optenv) of the configs of mats[0..n-1]
 * under their allocators in t (one that cannot be used, or the C
 * library, is not asked), those whose allocator options all come from
 * the axes ax[0..nax-1] (the command line's: a claims file's directive
 * may name an option some versions lack on purpose).  An allocator is
 * refused only when none of its configs' option sets was taken: a
 * version without the option is a difference to measure.  self_exe: the
 * runner's own path.  Returns 0, or -1 with err "--axis jemalloc options:
 * jemalloc 5.3.0 does not take MALLOC_CONF=KEY:VALUE: Invalid conf pair:
 * KEY:VALUE". */
int mr_allocconf_check(const struct mr_alloc_tab *t, const struct mr_matrix *mats, int n,
		       const struct mr_matrix_axis *ax, int nax, const char *self_exe,
		       struct strbuf *err);

#endif
