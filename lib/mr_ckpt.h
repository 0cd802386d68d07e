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
 * stdout instead, so a case alone reads like the original report:
 *
 *   checkpoint created#1     t=0.512 s  rss 150.8 MiB  pss 149.0 MiB
 *   private_dirty 140.1 MiB  lazyfree 0.0 MiB  vsz 6.3 GiB  user 0.1 s ...
 *
 * (one line).  The path reads /proc and formats with no stdio and no malloc.
 *
 * The record (docs/formats.md), one write() of at most 1024 bytes:
 *   ckpt NAME SEQ t_us= rss_kb= vsz_kb= user_ms= sys_ms= minflt= majflt=
 * (tab separated): what only the case knows cheaply — its clock, its
 * rusage, statm.  The runner reads smaps_rollup and status of the case
 * and counts its mappings (maps) while it waits for the ack, so that cost
 * (both walk every mapping) is not charged to the case.  By hand the case reads them itself
 * for its line.  t_us and the rusage figures are taken first, so they do
 * not include the cost of reading /proc for this checkpoint.
 *
 * Not thread-safe: take checkpoints from one thread at a time.
 */
#ifndef MR_CKPT_H
#define MR_CKPT_H

#include <stddef.h>

/* Record figures now under name ([a-z0-9_-]{1,63}, declared by the case
 * in its struct mr_case when mr_case_init was called).  Repeated names are
 * numbered 1, 2, ... (the record's seq); up to 64 distinct names.
 * Returns 0, or -errno: -EINVAL for an undeclared or malformed name,
 * -ENOSPC past 64 names, the error of reading /proc, or -EPIPE once the
 * runner has gone (SIGPIPE is blocked and consumed, never delivered).  A
 * message goes to stderr for the first kinds; the case should go on either
 * way. */
int mr_checkpoint(const char *name);

/* Start the case clock and set up from the environment; called first by
 * mr_case_init(), which passes declared: non-zero for a checkpoint name the
 * case declared (NULL: any name goes).  Both variables must be set, or
 * neither; each must be a
 * decimal number naming an open fd (CKPT writable, ACK readable), else a
 * message and exit MR_EXIT_USAGE (2).  Both fds get FD_CLOEXEC and both
 * variables are removed from the environment, so descendants of the case
 * never write records of their own. */
void mr_ckpt_init(int (*declared)(const char *name));

/* Microseconds since mr_ckpt_init() (the record's t_us). */
unsigned long long mr_ckpt_elapsed_us(void);

#endif
