/* proof: which of the runner's children are the run's — see proof.h. */
#include "proc/proof.h"

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc/env.h"
#include "mr_proc.h"

int
mr_proof_stat(pid_t pid, long *ppid, unsigned long long *start)
{
	struct mr_pstat st;

	if (pid <= 0 || mr_proc_stat(pid, &st) < 0)
		return -1;
	*ppid = st.ppid;
	*start = st.start;
	return 0;
}

/* By pid and start time, so that a pid reused later is not taken for
 * one (a start time is only as fine as a tick). */
struct pidref {
	pid_t pid;
	unsigned long long start;
};

static int
in_refs(const struct pidref *v, int n, pid_t pid, unsigned long long start)
{
	int i;

	for (i = 0; i < n; i++)
		if (v[i].pid == pid && v[i].start == start)
			return 1;
	return 0;
}


static struct pidref inherited[MR_PROOF_INHERITED_MAX];
static int ninherited;

void
mr_proof_note_inherited(const pid_t *kids, int n)
{
	pid_t self = getpid();
	long ppid;
	int i;

	for (i = 0; i < n && ninherited < MR_PROOF_INHERITED_MAX; i++)
		if (mr_proof_stat(kids[i], &ppid, &inherited[ninherited].start) == 0 &&
		    ppid == (long)self)
			inherited[ninherited++].pid = kids[i];
}

int
mr_proof_inherited(pid_t pid, unsigned long long start)
{
	return in_refs(inherited, ninherited, pid, start);
}

/* The processes proved the run's while they could be (proof.h): as many
 * as a run's tree can hold (proc/tree.h), once full the gone ones
 * dropped. */
#define PROVED_MAX 4096
static struct pidref proved[PROVED_MAX];
static int nproved;
/* Full, and nothing gone when last looked: not looked again until an
 * entry is forgotten (each look reads every entry's stat). */
static int stuck;

void
mr_proof_remember(pid_t pid, unsigned long long start)
{
	int i, kept = 0;
	unsigned long long now;
	long ppid;

	if (in_refs(proved, nproved, pid, start))
		return;
	if (nproved == PROVED_MAX) {
		/* full: keep only those still there (gone ones reaped by
		 * someone, their pid free for anyone) */
		if (stuck)
			return; /* not remembered: proved again by token while it can be */
		for (i = 0; i < nproved; i++)
			if (mr_proof_stat(proved[i].pid, &ppid, &now) == 0 && now == proved[i].start)
				proved[kept++] = proved[i];
		nproved = kept;
		stuck = nproved == PROVED_MAX;
		if (stuck)
			return;
	}
	proved[nproved].pid = pid;
	proved[nproved++].start = start;
}

void
mr_proof_forget(pid_t pid)
{
	int i;

	for (i = 0; i < nproved; i++)
		if (proved[i].pid == pid) {
			proved[i] = proved[--nproved];
			stuck = 0;
			return;
		}
}

int
mr_proof_have_children(void)
{
	siginfo_t si;

	/* without reaping (WNOWAIT): a child that is not the run's (a -j
	 * worker, say) stays for its own waiter */
	si.si_pid = 0;
	return !(waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT | __WALL) < 0 &&
		 errno == ECHILD);
}

/* Proof by descent.  A process comes to be our child only by our fork or,
 * as we are a subreaper, when its parent dies while it descends from us.
 * So when the runner had no child at all as it forked the case (no
 * descendant, then), every child it has until it forks again descends
 * from the case.  The case forked so, or 0. */
static int alone_at_fork;
static pid_t sole_case;

void
mr_proof_forking(void)
{
	alone_at_fork = !mr_proof_have_children();
	sole_case = 0;
}

void
mr_proof_forked(pid_t pid)
{
	sole_case = alone_at_fork && pid > 0 ? pid : 0;
	alone_at_fork = 0;
	nproved = stuck = 0;
}

void
mr_proof_ended(pid_t cs)
{
	if (sole_case == cs)
		sole_case = 0;
	nproved = stuck = 0;
}

/* The cgroup and the token tell an orphan of the run from an orphan of a
 * job we inherited (the shell's `(sleep 1; daemon &) &` before it exec'd
 * the runner): both come to us, and only the first is ours to kill. */
int
mr_proof_child(pid_t pid, pid_t self, unsigned long long since, const struct mr_cgroup *cg,
	       pid_t cs)
{
	unsigned long long start;
	long ppid;

	if (pid <= 1 || pid == self || mr_proof_stat(pid, &ppid, &start) < 0 ||
	    ppid != (long)self || start < since || mr_proof_inherited(pid, start))
		return 0;
	if (in_refs(proved, nproved, pid, start))
		return 1;
	if (!(cs > 0 && cs == sole_case) && !(cg && mr_cgroup_has(cg, pid) == 1) &&
	    !mr_env_has_token(pid))
		return 0;
	mr_proof_remember(pid, start);
	return 1;
}
