/* child: the forked child's side, between fork and exec.
 *
 * System calls only, nothing that allocates: the child is a copy of the
 * runner at the fork.  A failure goes back to the parent as an errno on a close-on-exec pipe (a
 * successful exec closes it: the parent reads nothing) and the child dies
 * with _exit(127).
 */
#ifndef MR_CHILD_H
#define MR_CHILD_H

#include <sys/types.h>

/* What the child sends when it could not join its memory cgroup: the
 * errno plus this, to tell it from an exec failure. */
#define MR_CHILD_CGROUP_FAILED 0x10000

/* The fds a case's child starts from (all close-on-exec). */
struct mr_child_fds {
	int in;     /* becomes 0: /dev/null */
	int out;    /* becomes 1 and 2: the write end of the output pipe */
	int ckpt;   /* becomes MR_ENV_CKPT_FD: the checkpoint pipe's write end */
	int ack;    /* becomes MR_ENV_ACK_FD: the ack pipe's read end */
	int err;    /* the error pipe's write end */
	int cgroup; /* cgroup.procs of the run's memory cgroup, or -1 */
	int kill;   /* cgroup.procs of the run's kill cgroup, or -1 */
};

/* Default dispositions of the signals mr_spawn_init catches or ignores,
 * and an empty mask. */
void mr_child_signals(void);

/* Send errno on the error pipe errfd and _exit(127). */
_Noreturn void mr_child_fail(int errfd);

/* Become the case: its own process group, default signals, killed with
 * the runner (which must be parent, or it exits at once), its cgroups
 * joined before anything of it is allocated, fds 0-4 as the case expects
 * them and no other, execve(argv[0], argv, env).  Never returns. */
_Noreturn void mr_child_exec(char *const *argv, char *const *env, pid_t parent,
			     const struct mr_child_fds *fds);

#endif
