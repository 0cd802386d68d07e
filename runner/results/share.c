/* share: the rest of the machine's CPU over a results directory's runs
 * — see read.h (mr_rd_share). */
#include "results/read.h"

#include <math.h>
#include <string.h>

#include "proto/schema.h"
#include "proc/machine.h"

int
mr_rd_board(const struct mr_rd *R)
{
	const char *v = mr_rd_env(R, MR_ENVK_OTHER_CPU);

	return v && strcmp(v, MR_OTHER_CPU_BOARD) == 0;
}

void
mr_rd_share(struct mr_rd *R)
{
	double other = 0, life = 0, share;
	int i, j, board = mr_rd_board(R);

	for (i = 0; i < R->nk; i++)
		for (j = 0; j < R->k[i].nrun; j++) {
			struct mr_rd_run *r = &R->k[i].run[j];
			double l = r->m[MR_RM_WALL_MS] +
				   (isnan(r->m[MR_RM_PAUSE_MS]) ? 0 : r->m[MR_RM_PAUSE_MS]);

			/* older results: a run beside others counted theirs,
			 * which says nothing of the machine */
			if (!board && r->overlap > 0)
				r->other_cpu_ms = -1;
			if (r->outcome != MR_RD_OK || r->other_cpu_ms < 0 || isnan(l))
				continue;
			/* a short run was watched longer (proc/machine.h) */
			if (l < MR_MACHINE_WINDOW_MS)
				l = MR_MACHINE_WINDOW_MS;
			other += (double)r->other_cpu_ms;
			life += l;
		}
	share = life >= MR_RD_SHARE_MIN_MS ? other / life : NAN;
	for (i = 0; i < R->nk; i++)
		for (j = 0; j < R->k[i].nrun; j++)
			R->k[i].run[j].session_share = share;
}
