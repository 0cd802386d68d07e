/* repfigs: the figures of one case in the report (repcase.h): its key
 * figure, the notes on the report's figures, and a table per figure the
 * report printed (a metric at a checkpoint, or its growth): a row per
 * config the report gave, the report's value beside ours (its program's
 * on the report's runtime and on today's, where the results ran it, and
 * the model's).
 */
#ifndef MR_REPFIGS_H
#define MR_REPFIGS_H

#include "check/verdict.h"
#include "out/doc.h"
#include "results/read.h"

/* The figures of case k (expected/<case>.figures, in k->figs) over the
 * results R. */
void mr_repfigs_write(struct mr_doc *d, const struct mr_rd *R, const struct mr_vd_case *k);

#endif
