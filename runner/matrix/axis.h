/* axis: one --axis option, the type alone (axes.h parses and checks
 * them), for the modules that take axes without needing their checks.
 */
#ifndef MR_AXIS_H
#define MR_AXIS_H

/* One --axis option. */
struct mr_matrix_axis {
	char *key;    /* "allocator", "glibc.<ns>.<name>" or a case parameter */
	char **vals;  /* owned, as given (canonicalised per case later) */
	int nvals;
};

#endif
