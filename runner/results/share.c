/* share: the rest of the machine's CPU over a results directory's runs
 * — see read.h (mr_rd_share). */
#include "results/read.h"

#include <math.h>

void
mr_rd_share(struct mr_rd *R)
{
	double other = 0, life = 0, share;
	int i, j;

	for (i = 0; i < R->nk; i++)
		for (j = 0; j < R->k[i].nrun; j++) {
			const struct mr_rd_run *r = &R->k[i].run[j];
			double l = r->m[MR_RM_WALL_MS] +
				   (isnan(r->m[MR_RM_PAUSE_MS]) ? 0 : r->m[MR_RM_PAUSE_MS]);

			if (r->outcome != MR_RD_OK || r->other_cpu_ms < 0 || isnan(l))
				continue;
			other += (double)r->other_cpu_ms;
			life += l;
		}
	share = life >= MR_RD_SHARE_MIN_MS ? other / life : NAN;
	for (i = 0; i < R->nk; i++)
		for (j = 0; j < R->k[i].nrun; j++)
			R->k[i].run[j].session_share = share;
}
