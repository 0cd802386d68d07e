/* tree: the processes of a run, found, counted and ended — see tree.h. */
#include "proc/tree.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/util.h"
#include "proc/env.h"
#include "proc/proof.h"
#include "mr_proc.h"

/* How long leftovers of a case may take to die after SIGKILL. */
#define REAP_LIMIT_MS 5000

/* The kernel's PF_EXITING in /proc/PID/stat's flags: the process has
 * begun to exit (its memory, and with it its environment, may be gone). */
#define MR_PF_EXITING 0x4u

struct pinfo {
	pid_t pid, ppid, pgid;
};

/* pid's /proc/PID/stat (lib/mr_proc's reader) into *st: its state,
 * ppid, flags and start time are what the proofs below use.  0 or -1. */
static int
pstat_of(pid_t pid, struct mr_pstat *st)
{
	return pid > 0 && mr_proc_stat(pid, st) == 0 ? 0 : -1;
}

/* Without CONFIG_PROC_CHILDREN: every process's parent and group from
 * /proc/PID/stat.  Returns how many, in a fresh array. */
static int
scan_proc(struct pinfo **out)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	struct pinfo *v = NULL;
	int n = 0, cap = 0;

	*out = NULL;
	if (!d)
		return 0;
	while ((de = readdir(d)) != NULL) {
		struct mr_pstat st;
		char *end;
		long pid;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		pid = strtol(de->d_name, &end, 10);
		if (*end || pid > INT32_MAX || pstat_of((pid_t)pid, &st) < 0)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			v = erealloc(v, (size_t)cap * sizeof *v);
		}
		v[n].pid = (pid_t)pid;
		v[n].ppid = (pid_t)st.ppid;
		v[n].pgid = (pid_t)st.pgrp;
		n++;
	}
	closedir(d);
	*out = v;
	return n;
}

static int
in_list(const pid_t *v, int n, pid_t p)
{
	int i;

	for (i = 0; i < n; i++)
		if (v[i] == p)
			return 1;
	return 0;
}

unsigned long long
mr_tree_since(pid_t pid)
{
	unsigned long long start;
	long ppid;

	return mr_proof_stat(pid, &ppid, &start) < 0 ? 0 : start;
}

/* The fallback tree: root, every descendant by parent links, and every
 * member of group pgid (0: none); of root's children only those that
 * started at since or later. */
static int
tree_scan(pid_t root, pid_t pgid, unsigned long long since, const struct mr_cgroup *cg,
	  pid_t *out, int max)
{
	struct pinfo *v;
	int nv = scan_proc(&v), n = 0, i, grew = 1;

	out[n++] = root;
	while (grew && n < max) {
		grew = 0;
		for (i = 0; i < nv && n < max; i++) {
			if (in_list(out, n, v[i].pid))
				continue;
			if (v[i].ppid == root && !mr_proof_child(v[i].pid, root, since, cg, pgid))
				continue;
			if (in_list(out, n, v[i].ppid) || (pgid > 0 && v[i].pgid == pgid)) {
				out[n++] = v[i].pid;
				grew = 1;
			}
		}
	}
	free(v);
	return n;
}

/* root and its descendants (breadth first, root at [0]), of root's
 * children only those that started at since or later; pgid's members too
 * when the kernel cannot list children.  Returns how many. */
static int
tree_list(pid_t root, pid_t pgid, unsigned long long since, const struct mr_cgroup *cg,
	  pid_t *out, int max)
{
	int n = 0, i, j;

	out[n++] = root;
	for (i = 0; i < n && n < max; i++) {
		int k = mr_proc_children(out[i], out + n, max - n);

		if (k == -ENOTSUP)
			return tree_scan(root, pgid, since, cg, out, max);
		if (k < 0)
			continue;
		k = k < max - n ? k : max - n;
		if (i == 0) {
			int kept = 0;

			for (j = 0; j < k; j++)
				if (mr_proof_child(out[n + j], root, since, cg, pgid))
					out[n + kept++] = out[n + j];
			k = kept;
		}
		n += k;
	}
	return n;
}

/* The processes of the run, for reading their figures: the members of
 * its cgroup where it has one, else every descendant of the runner.
 * During a run the case is our only child and, as we are a subreaper, its
 * orphans become our children: so this finds the case, its descendants,
 * and those of them that were orphaned or left its group.  [0] is the
 * runner itself (not measured); returns how many, at least 1.  A pid read
 * here may be reused by the time it is read: a wrong figure at worst, it
 * is never signalled (see kill_children). */
int
mr_tree_case(pid_t pgid, const struct mr_cgroup *cg, unsigned long long since, pid_t *buf)
{
	int n = mr_cgroup_procs(cg, buf + 1, MR_TREE_MAX - 1);

	buf[0] = getpid();
	if (n >= 0)
		return n + 1;
	return tree_list(buf[0], pgid, since, cg, buf, MR_TREE_MAX);
}

/*
 * Killing takes proof, reading does not.  The runner signals only:
 *  - the case's process group, and only while the case is not reaped (a
 *    zombie keeps its pid, so the group id cannot be anyone else's yet);
 *  - the run's cgroup as a whole (cgroup.kill: the kernel finds the
 *    members, no pid is read);
 *  - a child of its own: /proc/PID/stat names the runner as the parent,
 *    and a child stays the runner's, pid and all, until the runner reaps
 *    it; and proved the run's (proc/proof.h).
 * A deeper descendant is never signalled by its pid: killing the
 * runner's children orphans their children, which come to the runner (a
 * subreaper) and are killed in their turn, until it has none left and
 * none of its children is on its way out with its own still to hand on.
 */

/* The runner's children (candidates: each is proved by mr_proof_child before
 * it is signalled).  Returns how many, at most max. */
static int
own_children(pid_t self, pid_t *out, int max)
{
	int n = mr_proc_children(self, out, max), i;

	/* no children files, or one not as the kernel writes them: every
	 * process's parent, from /proc/PID/stat */
	if (n < 0) {
		struct pinfo *v;
		int nv = scan_proc(&v);

		for (i = n = 0; i < nv && n < max; i++)
			if (v[i].ppid == self)
				out[n++] = v[i].pid;
		free(v);
	}
	return n < 0 ? 0 : n < max ? n : max;
}

void
mr_tree_note_inherited(void)
{
	pid_t v[MR_PROOF_INHERITED_MAX];

	mr_proof_note_inherited(v, own_children(getpid(), v, MR_PROOF_INHERITED_MAX));
}

/* SIGKILL every child of ours of the run (started at since or later) but
 * spare (0: none), and reap those of them that have ended, counting them
 * in *reaped (NULL: not counted).  Returns how many it found. */
static int
kill_children(pid_t self, unsigned long long since, const struct mr_cgroup *cg,
	      pid_t cs, pid_t spare, pid_t *buf, int *reaped)
{
	int n = own_children(self, buf, MR_TREE_MAX), i, found = 0;

	for (i = 0; i < n; i++) {
		if (buf[i] == spare || !mr_proof_child(buf[i], self, since, cg, cs))
			continue;
		found++;
		kill(buf[i], SIGKILL);
		if (waitpid(buf[i], NULL, WNOHANG | __WALL) == buf[i]) {
			mr_proof_forget(buf[i]);
			if (reaped)
				++*reaped;
		}
	}
	return found;
}

/* Prove the run's processes while they still have their environment,
 * before anything is killed: our children of the run (mr_proof_child
 * remembers them), and their descendants carrying the token, which come
 * to us as their parents die (cs: the case, pgid of its group). */
static void
prove_tree(pid_t self, unsigned long long since, const struct mr_cgroup *cg, pid_t cs,
	   pid_t *buf)
{
	int n = tree_list(self, cs, since, cg, buf, MR_TREE_MAX), i;

	for (i = 1; i < n; i++) {
		unsigned long long start;
		long ppid;

		if (mr_proof_stat(buf[i], &ppid, &start) == 0 && ppid != (long)self &&
		    start >= since && mr_env_has_token(buf[i]))
			mr_proof_remember(buf[i], start);
	}
}

/* Has a thread of pid, other than its leader, begun to exit and not yet
 * ended? */
static int
thread_leaving(pid_t pid)
{
	char path[64];
	struct dirent *de;
	DIR *d;
	int seen = 0, leaving = 0;

	snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
	if (!(d = opendir(path)))
		return 0;
	while (!leaving && seen++ < MR_TREE_MAX && (de = readdir(d)) != NULL) {
		struct mr_pstat st;
		char *end;
		long tid = strtol(de->d_name, &end, 10);

		leaving = de->d_name[0] >= '1' && de->d_name[0] <= '9' && !*end &&
			  tid != (long)pid && tid <= INT32_MAX && pstat_of((pid_t)tid, &st) == 0 &&
			  (st.flags & MR_PF_EXITING) && st.state != 'Z' && st.state != 'X';
	}
	closedir(d);
	return leaving;
}

/* Is a child of ours, started at since or later and not one we
 * inherited, on its way out: begun to exit (PF_EXITING), or a member of
 * the case's group cs (0: none), which was SIGKILLed whole and may not
 * have run since, and not yet to be waited for?  Proved or not: it hands
 * its own children on only as it exits, so the tree has not ended while
 * one is.  A leader that exited before its threads shows Z while they run
 * on: then its threads tell. */
static int
exiting_children(pid_t self, unsigned long long since, pid_t cs, pid_t *buf)
{
	int n = own_children(self, buf, MR_TREE_MAX), i;

	for (i = 0; i < n; i++) {
		struct mr_pstat st;

		if (pstat_of(buf[i], &st) < 0 || st.ppid != (long)self || st.start < since ||
		    st.state == 'X' || mr_proof_inherited(buf[i], st.start) ||
		    mr_tree_ended(buf[i]))
			continue;
		if ((cs > 0 && st.pgrp == (long)cs) ||
		    (st.state == 'Z' ? thread_leaving(buf[i]) : !!(st.flags & MR_PF_EXITING)))
			return 1;
	}
	return 0;
}

/* Has our child pid ended (a zombie), without reaping it? */
int
mr_tree_ended(pid_t pid)
{
	siginfo_t si;

	si.si_pid = 0;
	return waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT | __WALL) == 0 &&
	       si.si_pid == pid;
}

/* Is pid alive (not a zombie, not gone)? */
static int
alive(pid_t pid)
{
	struct mr_pstat st;

	return pstat_of(pid, &st) == 0 && st.state != 'Z' && st.state != 'X';
}

/* What the last mr_tree_end left running unproved (see mr_tree_unproved). */
static char unproved[MR_TREE_UNPROVED_MAX];

const char *
mr_tree_unproved(void)
{
	return unproved;
}

/* Our children that came to us since the case's start (since) and are
 * not proved the run's: named in unproved ("pid N (comm)", a few, then
 * how many more), never signalled. */
static void
name_unproved(pid_t self, unsigned long long since, const struct mr_cgroup *cg,
	      pid_t cs, pid_t *buf)
{
	int n = own_children(self, buf, MR_TREE_MAX), i, named = 0, more = 0;
	size_t len = 0;

	unproved[0] = '\0';
	for (i = 0; i < n; i++) {
		char path[64], comm[64] = "?";
		struct mr_pstat st;

		/* a zombie, or one on its way out (PF_EXITING: killed with the
		 * run, its environment, and so the token, already gone), is not
		 * running */
		if (mr_proof_child(buf[i], self, since, cg, cs) || pstat_of(buf[i], &st) < 0 ||
		    st.ppid != (long)self || st.start < since || st.state == 'Z' ||
		    st.state == 'X' || (st.flags & MR_PF_EXITING) ||
		    mr_proof_inherited(buf[i], st.start))
			continue;
		if (named == 4 || len + 96 > sizeof unproved) {
			more++;
			continue;
		}
		snprintf(path, sizeof path, "/proc/%d/comm", (int)buf[i]);
		if (mr_proc_read(path, comm, sizeof comm) > 0)
			comm[strcspn(comm, "\n")] = '\0';
		len += (size_t)snprintf(unproved + len, sizeof unproved - len, "%spid %d (%s)",
					named ? ", " : "", (int)buf[i], comm);
		named++;
	}
	if (more)
		snprintf(unproved + len, sizeof unproved - len, " and %d more", more);
}

static int end_tree(pid_t pid, const struct mr_cgroup *cg, pid_t *buf, int *st,
		    struct rusage *ru, unsigned long long since);

/* End the case pid: end_tree, then name what it left unproved (on
 * success); the run's proofs end with it. */
int
mr_tree_end(pid_t pid, const struct mr_cgroup *cg, pid_t *buf, int *st,
	    struct rusage *ru)
{
	unsigned long long since = 0;
	long ppid;
	int rc;

	unproved[0] = '\0';
	/* the case's start: what the run started started after it */
	if (mr_proof_stat(pid, &ppid, &since) < 0 || ppid != (long)getpid())
		since = ~0ull; /* cannot be: it is our unreaped child */
	rc = end_tree(pid, cg, buf, st, ru, since);
	if (rc == 0)
		name_unproved(getpid(), since, cg, pid, buf);
	mr_proof_ended(pid);
	return rc;
}

/* End the case pid (our child, not yet reaped, its own group's leader)
 * and everything it started, then reap it: its group and its cgroup
 * killed at once, our other children of the run one by one as they come
 * to us, until none is left.  The case's status and rusage go to *st and
 * *ru.  Bounded: after REAP_LIMIT_MS it says what would not die and
 * returns -ETIMEDOUT (the case unreaped, *st 0, if it was the one). */
static int
end_tree(pid_t pid, const struct mr_cgroup *cg, pid_t *buf, int *st,
	 struct rusage *ru, unsigned long long since)
{
	uint64_t limit = mr_now_ns() + (uint64_t)REAP_LIMIT_MS * 1000000u;
	pid_t self = getpid();
	int reaped = 0, none = 0;

	/* the children the case left us are proved while they still have
	 * their environment: before anything is killed */
	prove_tree(self, since, cg, pid, buf);
	if (pid > 1 && pid != getpgrp())
		kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	(void)mr_cgroup_kill(cg);
	for (;;) {
		int left = kill_children(self, since, cg, pid, reaped ? 0 : pid, buf, NULL);

		if (!reaped && mr_tree_ended(pid)) {
			while (wait4(pid, st, __WALL, ru) < 0 && errno == EINTR)
				;
			mr_proof_forget(pid);
			reaped = 1;
			continue; /* its orphans are ours now */
		}
		/* Done when we have no child at all, or twice in a row none
		 * of the run: a child reaped in one round may have orphaned
		 * its own to us after that round's list was read. */
		if (reaped && !mr_proof_have_children())
			return 0;
		/* one on its way out has yet to orphan its own to us */
		if (!left && exiting_children(self, since, pid, buf))
			left = -1;
		if (reaped && !left && ++none == 2)
			return 0;
		if (left)
			none = 0;
		if (mr_now_ns() > limit) {
			if (!reaped)
				weprintf("case pid %d did not die within %d s of SIGKILL: left unreaped",
					 (int)pid, REAP_LIMIT_MS / 1000);
			else if (left < 0)
				weprintf("a child of the runner started during the run of case pid %d was still exiting %d s after SIGKILL",
					 (int)pid, REAP_LIMIT_MS / 1000);
			else
				weprintf("%d leftover process%s of case pid %d did not die within %d s of SIGKILL",
					 left, left == 1 ? "" : "es", (int)pid, REAP_LIMIT_MS / 1000);
			return -ETIMEDOUT;
		}
		(void)mr_cgroup_kill(cg);
		usleep(1000);
	}
}

/* Once the case has ended by itself (a zombie not yet reaped, so nothing
 * was killed yet): how many of its descendants are still alive. */
int
mr_tree_leftovers(pid_t pid, const struct mr_cgroup *cg, unsigned long long since,
		  pid_t *buf)
{
	int n = mr_tree_case(pid, cg, since, buf), i, k, left = 0;
	pid_t self = buf[0];

	for (i = 1; i < n; i++)
		left += buf[i] != pid && alive(buf[i]);
	/* a child of the run that left its cgroup (a root case can) */
	if (cg->v || cg->kill_dir) {
		pid_t *kids = emalloc(MR_TREE_MAX * sizeof *kids);
		int nk = own_children(self, kids, MR_TREE_MAX);

		for (k = 0; k < nk; k++)
			left += kids[k] != pid && !in_list(buf + 1, n - 1, kids[k]) &&
				mr_proof_child(kids[k], self, since, cg, pid) && alive(kids[k]);
		free(kids);
	}
	return left;
}

int
mr_tree_strays(pid_t *buf)
{
	uint64_t limit = mr_now_ns() + (uint64_t)REAP_LIMIT_MS * 1000000u;
	pid_t self = getpid();
	int reaped = 0;

	for (;;) {
		int before = reaped, left = kill_children(self, 0, NULL, 0, 0, buf, &reaped);

		if (!left && exiting_children(self, 0, 0, buf))
			left = -1; /* its own come to us as it goes */
		if (!left)
			return reaped;
		if (mr_now_ns() > limit)
			return reaped + (left > 0 ? left - (reaped - before) : 0);
		usleep(1000);
	}
}
