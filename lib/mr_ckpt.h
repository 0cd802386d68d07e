/* mr_ckpt: checkpoints — named moments at which a case records its own
 * memory figures.
 *
 * Under the runner the environment carries MEMREPRO_CKPT_FD (a pipe to write
 * records to) and MEMREPRO_ACK_FD (a pipe the runner answers on).  A
 * checkpoint writes one record, then blocks until the runner acknowledges
 * it, so the runner can measure the whole process tree (children included)
 * while the case stands still at that moment.  If the runner is gone the
 * read returns EOF and the case goes on.
 *
 * Run by hand (no such variables) a checkpoint prints one readable line on
 * stdout instead, so a case alone reads like the original report.
 *
 * The path reads /proc and formats with no stdio and no malloc.
 */
#ifndef MR_CKPT_H
#define MR_CKPT_H

#include <stddef.h>

/* Record figures now under name ([a-z0-9_-]+, declared by the case).
 * Repeated names are numbered 1, 2, ... (the record's seq).
 * Returns 0, or -errno when the record could not be written; the case
 * should go on either way. */
int mr_checkpoint(const char *name);

/* Set up from the environment; called by mr_case_init(). */
void mr_ckpt_init(void);

#endif
