/* mr_ckpt: checkpoints — a case records its own memory figures.
 *
 * The path from mr_checkpoint() to the write() uses no stdio and no malloc:
 * an interposed allocator would count our bookkeeping, and a stdio buffer
 * could be flushed at a moment we did not choose.  Numbers are formatted by
 * hand into a stack buffer; /proc is read by mr_proc into stack buffers.
 */
#include "mr_ckpt.h"
#include "mr_exit.h"
#include "mr_proc.h"
#include "mr_schema.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define MR_CKPT_RECORD_MAX 1024 /* docs/formats.md: one record, one write */
#define MR_CKPT_NAMES 64        /* distinct checkpoint names per process */

static int ckpt_fd = -1;   /* records go here; -1: by hand */
static int ack_fd = -1;    /* one byte back per record */
static int runner_gone;    /* the runner closed its end: stop writing */
static struct timespec t0; /* mr_ckpt_init: the case's start */
static int (*ckpt_declared)(const char *name); /* mr_ckpt_init's */
static int t0_set;

/* Occurrences per name, for seq. */
static struct {
	char name[MR_CKPT_NAME_MAX + 1];
	unsigned long count;
} seen[MR_CKPT_NAMES];

/* --- a tiny formatter into a fixed buffer: no stdio ---------------------- */

struct buf {
	char s[MR_CKPT_RECORD_MAX + 1];
	size_t len;
	int overflow; /* something did not fit */
};

static void add_s(struct buf *b, const char *s)
{
	for (; *s; s++) {
		if (b->len >= MR_CKPT_RECORD_MAX) {
			b->overflow = 1;
			return;
		}
		b->s[b->len++] = *s;
	}
}

static void add_u(struct buf *b, uint64_t v)
{
	char tmp[21];
	size_t n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n) {
		if (b->len >= MR_CKPT_RECORD_MAX) {
			b->overflow = 1;
			return;
		}
		b->s[b->len++] = tmp[--n];
	}
}

/* v / div rounded to `decimals` places (0..3), e.g. 154440 KiB / 1024
 * with 1 decimal -> "150.8". */
static void add_fixed(struct buf *b, uint64_t v, uint64_t div, int decimals)
{
	uint64_t scale = 1, q;
	int i;

	for (i = 0; i < decimals; i++)
		scale *= 10;
	q = (v * scale + div / 2) / div; /* KiB figures: no overflow here */
	add_u(b, q / scale);
	if (decimals) {
		uint64_t frac = q % scale;
		char d[4];

		for (i = decimals - 1; i >= 0; i--) {
			d[i] = (char)('0' + frac % 10);
			frac /= 10;
		}
		d[decimals] = '\0';
		add_s(b, ".");
		add_s(b, d);
	}
}

static void add_kv(struct buf *b, const char *key, uint64_t v)
{
	add_s(b, "\t");
	add_s(b, key);
	add_s(b, "=");
	add_u(b, v);
}

/* Write a message on stderr with write(): this path has no stdio. */
static void say(const char *a, const char *b, const char *c)
{
	struct buf m = { .len = 0 };

	add_s(&m, "memrepro: ");
	add_s(&m, a);
	add_s(&m, b);
	add_s(&m, c);
	add_s(&m, "\n");
	(void)!write(2, m.s, m.len);
}

/* --- set-up -------------------------------------------------------------- */

/* The fd number in environment variable var: -1 when unset; exits with
 * MR_EXIT_USAGE when it is not a decimal number naming an open fd with
 * the wanted access mode. */
static int env_fd(const char *var, int want_write)
{
	const char *v = getenv(var);
	long fd = 0;
	int fl;

	if (!v)
		return -1;
	if (!*v || strlen(v) > 9) {
		say(var, " is not a file descriptor number: ", v);
		exit(MR_EXIT_USAGE);
	}
	for (const char *p = v; *p; p++) {
		if (*p < '0' || *p > '9') {
			say(var, " is not a file descriptor number: ", v);
			exit(MR_EXIT_USAGE);
		}
		fd = fd * 10 + (*p - '0');
	}
	fl = fcntl((int)fd, F_GETFL);
	if (fl < 0) {
		say(var, " names no open file descriptor: ", v);
		exit(MR_EXIT_USAGE);
	}
	fl &= O_ACCMODE;
	if (want_write ? fl == O_RDONLY : fl == O_WRONLY) {
		say(var, want_write ? " is not open for writing: "
				    : " is not open for reading: ", v);
		exit(MR_EXIT_USAGE);
	}
	/* A program the case execs must not inherit the runner's pipes. */
	if (fcntl((int)fd, F_SETFD, FD_CLOEXEC) < 0) {
		say(var, ": cannot set FD_CLOEXEC on ", v);
		exit(MR_EXIT_USAGE);
	}
	return (int)fd;
}

void mr_ckpt_init(int (*declared)(const char *name))
{
	ckpt_declared = declared;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	t0_set = 1;
	ckpt_fd = env_fd(MR_ENV_CKPT_FD_VAR, 1);
	ack_fd = env_fd(MR_ENV_ACK_FD_VAR, 0);
	if ((ckpt_fd < 0) != (ack_fd < 0)) {
		say(MR_ENV_CKPT_FD_VAR " and " MR_ENV_ACK_FD_VAR " go together; only one is set",
		    "", "");
		exit(MR_EXIT_USAGE);
	}
	/* Descendants (exec'd or not) see no variables naming fds they do not
	 * have, or that a later open could reuse for something else. */
	unsetenv(MR_ENV_CKPT_FD_VAR);
	unsetenv(MR_ENV_ACK_FD_VAR);
}

unsigned long long mr_ckpt_elapsed_us(void)
{
	struct timespec t;

	if (!t0_set) {
		clock_gettime(CLOCK_MONOTONIC, &t0);
		t0_set = 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (unsigned long long)(((int64_t)(t.tv_sec - t0.tv_sec) * 1000000000 +
				     (t.tv_nsec - t0.tv_nsec)) / 1000);
}

/* --- a checkpoint -------------------------------------------------------- */

/* The next seq of name, or 0 when the table is full. */
static unsigned long next_seq(const char *name)
{
	int i;

	for (i = 0; i < MR_CKPT_NAMES && seen[i].name[0]; i++)
		if (strcmp(seen[i].name, name) == 0)
			return ++seen[i].count;
	if (i == MR_CKPT_NAMES)
		return 0;
	strcpy(seen[i].name, name); /* mr_name_checkpoint bounded its length */
	seen[i].count = 1;
	return 1;
}

static uint64_t tv_ms(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000 + (uint64_t)tv.tv_usec / 1000;
}

/* One write of the whole record.  SIGPIPE (the runner died) is blocked
 * around it and consumed, so it cannot kill the case: the case goes on. */
static int write_record(const char *s, size_t len)
{
	sigset_t pipe_set, old;
	ssize_t n;
	int err = 0;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	sigprocmask(SIG_BLOCK, &pipe_set, &old);
	do
		n = write(ckpt_fd, s, len);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		err = -errno;
		if (err == -EPIPE && !sigismember(&old, SIGPIPE)) {
			/* Drop the SIGPIPE our write raised before unblocking. */
			struct timespec zero = { 0, 0 };

			while (sigtimedwait(&pipe_set, NULL, &zero) < 0 && errno == EINTR)
				;
		}
	} else if ((size_t)n != len) {
		err = -EIO; /* cannot happen on a pipe for <= PIPE_BUF bytes */
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return err;
}

/* Block until the runner has measured us; EOF or an error means it is gone
 * and we carry on without it. */
static void wait_ack(void)
{
	char c;
	ssize_t n;

	do
		n = read(ack_fd, &c, 1);
	while (n < 0 && errno == EINTR);
	if (n != 1)
		runner_gone = 1;
}

/* The line printed when run by hand:
 * checkpoint created#1   t=0.512 s  rss 150.8 MiB  pss ... vsz 6.3 GiB */
static void print_line(const char *name, unsigned long seq, uint64_t t_us,
		       const struct mr_statm *sm, const struct mr_rollup *r,
		       uint64_t user_ms, uint64_t sys_ms)
{
	struct buf b = { .len = 0 };
	size_t start;

	add_s(&b, "checkpoint ");
	start = b.len;
	add_s(&b, name);
	add_s(&b, "#");
	add_u(&b, seq);
	while (b.len < start + 12)
		add_s(&b, " ");
	add_s(&b, "  t=");
	add_fixed(&b, t_us, 1000000, 3);
	add_s(&b, " s  rss ");
	add_fixed(&b, sm->rss_kb, 1024, 1);
	add_s(&b, " MiB  pss ");
	add_fixed(&b, r->pss_kb, 1024, 1);
	add_s(&b, " MiB  private_dirty ");
	add_fixed(&b, r->private_dirty_kb, 1024, 1);
	add_s(&b, " MiB  lazyfree ");
	add_fixed(&b, r->lazyfree_kb, 1024, 1);
	add_s(&b, " MiB  vsz ");
	if (sm->vsz_kb >= 1024 * 1024) {
		add_fixed(&b, sm->vsz_kb, 1024 * 1024, 1);
		add_s(&b, " GiB  user ");
	} else {
		add_fixed(&b, sm->vsz_kb, 1024, 1);
		add_s(&b, " MiB  user ");
	}
	add_fixed(&b, user_ms, 1000, 3);
	add_s(&b, " s  sys ");
	add_fixed(&b, sys_ms, 1000, 3);
	add_s(&b, " s\n");
	(void)!write(1, b.s, b.len);
}

int mr_checkpoint(const char *name)
{
	struct mr_statm sm;
	struct mr_status st;
	struct mr_rollup r;
	struct rusage ru;
	struct buf b = { .len = 0 };
	unsigned long seq;
	uint64_t t_us, user_ms, sys_ms;
	int err;

	/* Time and CPU first, so they describe the case's work up to here and
	 * not our reading of /proc that follows. */
	t_us = mr_ckpt_elapsed_us();
	getrusage(RUSAGE_SELF, &ru);
	user_ms = tv_ms(ru.ru_utime);
	sys_ms = tv_ms(ru.ru_stime);

	if (!mr_name_checkpoint(name) || (ckpt_declared && !ckpt_declared(name))) {
		say("checkpoint name not declared or not " MR_CKPT_NAME_RULE ": ", name, "");
		return -EINVAL;
	}
	seq = next_seq(name);
	if (seq == 0) {
		say("too many distinct checkpoint names; dropped ", name, "");
		return -ENOSPC;
	}
	if ((err = mr_proc_statm(0, &sm)) < 0) {
		say("checkpoint ", name, ": cannot read /proc/self/statm");
		return err;
	}

	/* By hand we read smaps_rollup and status ourselves.  Under the
	 * runner it reads them of us while we wait for the ack, so their cost
	 * (smaps_rollup walks every mapping: 17 ms for a fiber case) lands on
	 * its clock, not in the case's sys time. */
	if (ckpt_fd < 0) {
		if ((err = mr_proc_status(0, &st)) < 0 ||
		    (err = mr_proc_rollup(0, &r)) < 0) {
			say("checkpoint ", name, ": cannot read /proc/self (status, smaps_rollup)");
			return err;
		}
		print_line(name, seq, t_us, &sm, &r, user_ms, sys_ms);
		return 0;
	}
	if (runner_gone)
		return -EPIPE;

	add_s(&b, MR_RECORD_TAG "\t");
	add_s(&b, name);
	add_s(&b, "\t");
	add_u(&b, seq);
	add_kv(&b, MR_RECKEY_T_US, t_us);
	add_kv(&b, MR_RECKEY_RSS_KB, sm.rss_kb);
	add_kv(&b, MR_RECKEY_VSZ_KB, sm.vsz_kb);
	add_kv(&b, MR_RECKEY_USER_MS, user_ms);
	add_kv(&b, MR_RECKEY_SYS_MS, sys_ms);
	add_kv(&b, MR_RECKEY_MINFLT, (uint64_t)ru.ru_minflt);
	add_kv(&b, MR_RECKEY_MAJFLT, (uint64_t)ru.ru_majflt);
	add_s(&b, "\n");
	if (b.overflow)
		return -EOVERFLOW; /* cannot happen: names are short */

	err = write_record(b.s, b.len);
	if (err < 0) {
		runner_gone = 1;
		return err;
	}
	wait_ack();
	return 0;
}
