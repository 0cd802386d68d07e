/* mr_exit: the exit protocol of every case, in one table.
 *
 * Cases exit with these (through mr_case.h), lib's checkpoint channel
 * exits with MR_EXIT_USAGE on a bad environment, and the runner maps each
 * to an outcome: it never guesses.  Included by all three, it includes
 * nothing.
 */
#ifndef MR_EXIT_H
#define MR_EXIT_H

/* MR_EXIT_SKIP: the case cannot run here (missing kernel feature, ...);
 * the last line it wrote on stderr is the reason. */
enum {
	MR_EXIT_OK = 0,    /* ran to the end */
	MR_EXIT_FAIL = 1,  /* the work itself failed (mmap refused, ...) */
	MR_EXIT_USAGE = 2, /* bad command line or parameter */
	MR_EXIT_SKIP = 4,  /* cannot run here; reason on the last stderr line */
};

#endif
