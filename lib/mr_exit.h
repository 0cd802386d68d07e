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
 * the last line it wrote on stderr is the reason.  Each code's outcome in
 * runs.tsv follows it (docs/formats.md); any other code is `failed`. */
enum {
	MR_EXIT_OK = 0,    /* ran to the end: ok */
	MR_EXIT_FAIL = 1,  /* the work itself failed (mmap refused, ...): failed */
	MR_EXIT_USAGE = 2, /* bad command line or parameter (mr_usage): usage-error */
	MR_EXIT_SKIP = 4,  /* cannot run here; reason on the last stderr line: skipped */
	MR_EXIT_EXEC = 127, /* never a case's own: the program could not be
	                       executed (by the runner's child, a loader or a
	                       shell, which says why last): exec-failed */
};

#endif
