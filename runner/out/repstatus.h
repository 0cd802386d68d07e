/* repstatus: the top of the report (report.h), before anything else:
 * the status in a line, then what changed against the baseline and
 * which claims failed, per case, grouped by what the regressions share
 * (check/finding.h), with what was not judged.
 */
#ifndef MR_REPSTATUS_H
#define MR_REPSTATUS_H

#include "check/verdict.h"
#include "out/doc.h"

/* The section "Status: passed|failed" (anchor "status") of vs. */
void mr_repstatus_write(struct mr_doc *d, const struct mr_vds *vs);

#endif
