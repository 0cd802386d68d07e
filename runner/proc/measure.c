/* measure: the runner's figures at a checkpoint — see measure.h. */
#include "proc/measure.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "mr_proc.h"
#include "proc/tree.h"

/* Indexes into mr_record.v: the schema's checkpoint metrics
 * (proto/schema.h), whose record keys are mr_ckpt_keys. */
enum {
	CK_T_US = MR_CK_T_MS, CK_RSS = MR_CK_RSS_KB, CK_VSZ = MR_CK_VSZ_KB,
	CK_PSS = MR_CK_PSS_KB, CK_PRIVATE_CLEAN = MR_CK_PRIVATE_CLEAN_KB,
	CK_PRIVATE_DIRTY = MR_CK_PRIVATE_DIRTY_KB,
	CK_SHARED_DIRTY = MR_CK_SHARED_DIRTY_KB, CK_ANON = MR_CK_ANON_KB,
	CK_ANON_HUGE = MR_CK_ANON_HUGE_KB, CK_MAPS = MR_CK_MAPS,
	CK_LAZYFREE = MR_CK_LAZYFREE_KB, CK_SWAP = MR_CK_SWAP_KB,
	CK_HWM = MR_CK_HWM_KB, CK_USER = MR_CK_USER_MS, CK_SYS = MR_CK_SYS_MS,
	CK_MINFLT = MR_CK_MINFLT, CK_MAJFLT = MR_CK_MAJFLT,
};

/* The case's /proc/PID/status, through an fd opened at its first
 * checkpoint and read from offset 0 in one pread: the kernel makes it
 * afresh at each such read, of the process the fd was opened for (never
 * another that reuses the pid), and an open and a close less per record
 * count at a million checkpoints.  Falls back to mr_proc_status. */
static void
case_status(struct mr_run *r, struct mr_status *st)
{
	char buf[8192];
	ssize_t n = -1;

	if (r->status_fd < 0) {
		char path[64];

		snprintf(path, sizeof path, "/proc/%d/status", (int)r->pid);
		r->status_fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	if (r->status_fd >= 0)
		n = pread(r->status_fd, buf, sizeof buf - 1, 0);
	if (n > 0 && (size_t)n < sizeof buf - 1) {
		buf[n] = '\0';
		if (mr_proc_parse_status(buf, (size_t)n, st) == 0)
			return;
	}
	(void)mr_proc_status(r->pid, st);
}

void
mr_measure_tree(struct mr_run *r, struct mr_record *row)
{
	int n = mr_tree_case(r->pid, &r->cg, r->since, r->tree), i;

	for (i = 1; i < n; i++) {
		struct mr_rollup ru;
		struct mr_statm sm;

		if (mr_proc_statm(r->tree[i], &sm) < 0 || mr_proc_rollup(r->tree[i], &ru) < 0)
			continue;
		if (r->tree[i] == r->pid) {
			struct mr_status st = { 0 };

			/* The case's own smaps_rollup is read here, on the
			 * runner's clock: read by the case it would cost the
			 * case sys time (a fiber case walks 20,000 mappings). */
			case_status(r, &st);
			row->v[CK_PSS] = ru.pss_kb;
			row->v[CK_PRIVATE_CLEAN] = ru.private_clean_kb;
			row->v[CK_PRIVATE_DIRTY] = ru.private_dirty_kb;
			row->v[CK_SHARED_DIRTY] = ru.shared_dirty_kb;
			row->v[CK_ANON] = ru.anon_kb;
			row->v[CK_LAZYFREE] = ru.lazyfree_kb;
			row->v[CK_SWAP] = ru.swap_kb;
			row->v[CK_HWM] = st.hwm_kb;
			row->v[CK_ANON_HUGE] = ru.anon_huge_kb;
			/* the case's own count only: vm.max_map_count
			 * bounds each process, so a sum over the tree
			 * would compare with nothing */
			if (mr_proc_maps(r->pid, &row->v[CK_MAPS]) < 0)
				row->v[CK_MAPS] = MR_NOT_MEASURED;
		}
		row->tree_rss_kb += sm.rss_kb;
		row->tree_pss_kb += ru.pss_kb;
		row->tree_private_dirty_kb += ru.private_dirty_kb;
		row->tree_nproc++;
	}
	if (r->cg.v && mr_cgroup_usage(&r->cg, &row->cgroup_kb) < 0)
		row->cgroup_kb = MR_NOT_MEASURED;
}

/* VmSize and VmRSS from statm; utime, stime, minflt and majflt from
 * stat; t_us from the runner's clock since the fork. */
int
mr_measure_figures(const struct mr_run *r, struct mr_record *row, char *why, size_t size)
{
	struct mr_pstat st;
	struct mr_statm sm;
	long tck = sysconf(_SC_CLK_TCK);

	row->t_us = (mr_now_ns() - r->t0) / 1000;
	if (mr_proc_stat(r->pid, &st) < 0 || mr_proc_statm(r->pid, &sm) < 0 || tck <= 0) {
		snprintf(why, size, "%s: its figures could not be read from /proc", row->name);
		return -1;
	}
	if (st.state == 'Z' || st.state == 'X') {
		snprintf(why, size, "%s: the program exited before its ack, its figures gone", row->name);
		return -1;
	}
	row->v[CK_RSS] = sm.rss_kb;
	row->v[CK_VSZ] = sm.vsz_kb;
	row->v[CK_MINFLT] = st.minflt;
	row->v[CK_MAJFLT] = st.majflt;
	row->v[CK_USER] = st.utime * 1000 / (uint64_t)tck;
	row->v[CK_SYS] = st.stime * 1000 / (uint64_t)tck;
	return 0;
}
