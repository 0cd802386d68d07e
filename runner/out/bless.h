/* bless: what blessing a results directory changes, said and asked.
 *
 * check/blessplan.h works out each case's new baseline and how it differs from
 * the one in expected/; this prints that (rows moved beyond the old
 * tolerance, new and gone rows, left-out configs), asks before writing when
 * asked to, writes through check/blessplan.h and says what was written.
 */
#ifndef MR_OUT_BLESS_H
#define MR_OUT_BLESS_H

struct mr_check_opts;

/* Write <expected>/<platform>/<case>.tsv for each case in the results from
 * the medians, spreads and tolerances of its ok runs (configs with failed or
 * skipped runs are left out and said so).  First prints to o->out (NULL:
 * stdout) what changes against the baseline there (rows moved beyond the
 * old tolerance, new and gone rows; with o->verbose every one, and the
 * rows that moved within it); with o->interactive and not o->yes it then
 * asks on stdin, and writes only on "y".  A baseline whose rows would not
 * change is not rewritten.  Returns MR_OK, or MR_USAGE on bad input /
 * MR_FAILED when something could not be written or the question was
 * declined. */
int mr_bless(const struct mr_check_opts *o);

#endif
