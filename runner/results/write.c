/* write: create the results directory and write its TSV files. */
#include "results/write.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "core/safeio.h"
#include "core/tsv.h"
#include "core/util.h"
#include "results/row.h"

/* Less free space than this where the results go is refused before any
 * run starts: one run's log alone may take MR_SPAWN_LOG_MAX. */
#define MIN_FREE_KB (32u << 10)

char *
mr_results_default_dir(void)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	struct stat st;
	char *dir;
	int i;

	localtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
	dir = esprintf("results/%s", stamp);
	for (i = 2; stat(dir, &st) == 0; i++) {
		free(dir);
		dir = esprintf("results/%s-%d", stamp, i);
	}
	return dir;
}

/* Empty but for the lock file (a runner that stopped before its first
 * file leaves that). */
static int
empty_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int empty = 1;

	if (!d)
		return -1;
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0 &&
		    strcmp(de->d_name, MR_RESULTS_LOCK) != 0)
			empty = 0;
	closedir(d);
	return empty;
}

/* Refuse a filesystem with less than MIN_FREE_KB free: dir, or its
 * nearest existing parent when it is still to be made. */
static int
check_space(const char *dir)
{
	char *p = estrdup(dir), *slash;
	struct statvfs sv;
	unsigned long long kb;
	int rc = 0;

	while (statvfs(*p ? p : "/", &sv) < 0) {
		if (errno != ENOENT || strcmp(p, ".") == 0) {
			weprintf("results directory %s:", dir);
			free(p);
			return -1;
		}
		if ((slash = strrchr(p, '/')) != NULL)
			*slash = '\0';
		else
			strcpy(p, ".");
	}
	kb = (unsigned long long)sv.f_bavail * sv.f_frsize / 1024;
	if (kb < MIN_FREE_KB) {
		weprintf("results directory %s: only %llu KiB free on its filesystem, "
			 "need at least %u MiB: nothing was run", dir, kb, MIN_FREE_KB >> 10);
		rc = -1;
	}
	free(p);
	return rc;
}

static FILE *
create(struct mr_results *r, const char *name, const char *header)
{
	char *path = esprintf("%s/%s", r->dir, name);
	FILE *f = fopen(path, "wex");

	if (!f || (header && (fputs(header, f) == EOF || fflush(f) == EOF))) {
		weprintf("create %s:", path);
		if (f)
			fclose(f);
		f = NULL;
	}
	free(path);
	return f;
}

/* Every file starts with case, config and repeat (row_lead). */
_Static_assert(MR_RUNS_CASE == 0 && MR_RUNS_CONFIG == 1 && MR_RUNS_REPEAT == 2 &&
	       MR_CKPTS_CASE == 0 && MR_CKPTS_CONFIG == 1 && MR_CKPTS_REPEAT == 2 &&
	       MR_SERIES_CASE == 0 && MR_SERIES_CONFIG == 1 && MR_SERIES_REPEAT == 2,
	       "case, config, repeat lead every file");

/* A figure that may not have been measured (MR_NOT_MEASURED: "-"). */
static void
row_fig(struct mr_row *w, int col, uint64_t v)
{
	if (v == MR_NOT_MEASURED)
		mr_row_str(w, col, "-");
	else
		mr_row_u64(w, col, v);
}

/* The case, config and repeat columns, first in every file. */
static void
row_lead(struct mr_row *w, int n, const struct mr_results_run *run)
{
	mr_row_start(w, n);
	mr_row_str(w, 0, run->casename);
	mr_row_str(w, 1, run->config);
	mr_row_fmt(w, 2, "%d", run->repeat);
}

/* The header rows of runs.tsv, checkpoints.tsv and series.tsv. */
struct headers {
	struct strbuf runs, ckpts, series;
};

static void
headers_make(struct headers *h)
{
	memset(h, 0, sizeof *h);
	mr_row_header(&h->runs, mr_runs_cols, MR_RUNS_NCOLS);
	mr_row_header(&h->ckpts, mr_ckpts_cols, MR_CKPTS_NCOLS);
	mr_row_header(&h->series, mr_series_cols, MR_SERIES_NCOLS);
}

static void
headers_free(struct headers *h)
{
	sb_free(&h->runs);
	sb_free(&h->ckpts);
	sb_free(&h->series);
}

/* --- the lock ------------------------------------------------------- */

/* The pid a lock file names, or 0 (none, or one being written). */
static long
lock_pid(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
	long long pid;

	if (n <= 1 || buf[n - 1] != '\n')
		return 0;
	buf[n - 1] = '\0';
	if (strspn(buf, "0123456789") != (size_t)(n - 1) || parse_ll(buf, &pid) < 0 ||
	    pid <= 0 || pid > INT32_MAX)
		return 0;
	return (long)pid;
}

/* Open dir's lock file, created (create) or only if it exists.  It must be
 * a regular file of one link: the directory may come from elsewhere, and
 * the runner writes its pid into it.  Returns the fd (close-on-exec), or
 * -1, with a message printed when create (else quietly). */
static int
lock_open(const char *dir, int create)
{
	char *path = esprintf("%s/%s", dir, MR_RESULTS_LOCK);
	int fd = open(path, (create ? O_RDWR | O_CREAT : O_RDONLY) | O_NOFOLLOW |
		      O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0644);
	struct stat st;

	if (fd < 0) {
		if (!create)
			;
		else if (errno == ELOOP)
			weprintf("results directory %s: %s is a symbolic link: refusing it", dir, path);
		else if (errno == ENOENT || errno == ENOTDIR)
			weprintf("results directory %s:", dir);
		else
			weprintf("results directory %s: lock %s:", dir, path);
		free(path);
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1) {
		if (create)
			weprintf("results directory %s: %s is not a regular file of its own (one link): refusing it",
				 dir, path);
		close(fd);
		free(path);
		errno = EPERM;
		return -1;
	}
	free(path);
	return fd;
}

/* "results directory DIR is being written by another memrepro (pid N):
 * ADVICE".  The pid is the one that took the lock; workers it forked (-j)
 * hold the lock too, and may outlive it. */
static void
say_busy(const char *dir, long pid, const char *advice)
{
	if (pid)
		weprintf("results directory %s is being written by another memrepro (pid %ld): %s",
			 dir, pid, advice);
	else
		weprintf("results directory %s is being written by another memrepro: %s", dir, advice);
}

/* flock without blocking, again after a signal (a few times: bounded). */
static int
try_flock(int fd, int op)
{
	int i, rc = -1;

	for (i = 0; i < 8; i++)
		if ((rc = flock(fd, op | LOCK_NB)) == 0 || errno != EINTR)
			break;
	return rc;
}

int
mr_results_lock(const char *dir, const char *advice)
{
	int fd = lock_open(dir, 1);
	char buf[32];
	int len;

	if (fd < 0)
		return -1;
	if (try_flock(fd, LOCK_EX) < 0) {
		int held = errno == EWOULDBLOCK;

		if (!held)
			weprintf("results directory %s: lock %s/%s:", dir, dir, MR_RESULTS_LOCK);
		else
			say_busy(dir, lock_pid(fd), advice);
		close(fd);
		return -1;
	}
	/* who holds it, for the message above; the lock itself is the flock */
	len = snprintf(buf, sizeof buf, "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) < 0 || pwrite(fd, buf, (size_t)len, 0) != len)
		weprintf("results directory %s: write %s/%s:", dir, dir, MR_RESULTS_LOCK);
	return fd;
}

int
mr_results_busy(const char *dir, long *pid)
{
	int fd = lock_open(dir, 0), busy = 0;

	*pid = 0;
	/* none, or not a regular file: no runner of ours made it */
	if (fd < 0)
		return 0;
	if (try_flock(fd, LOCK_SH) < 0 && errno == EWOULDBLOCK) {
		busy = 1;
		*pid = lock_pid(fd);
	}
	close(fd); /* and with it the shared lock */
	return busy;
}

/* --- writing -------------------------------------------------------- */

int
mr_results_open(struct mr_results *r, const char *dir)
{
	struct headers h;
	struct stat st;
	char *logs;
	long pid;
	int rc;

	memset(r, 0, sizeof *r);
	r->lock = -1;
	if (stat(dir, &st) == 0) {
		if (!S_ISDIR(st.st_mode)) {
			weprintf("results directory %s: exists and is not a directory", dir);
			return -1;
		}
		if (empty_dir(dir) != 1) {
			if (mr_results_busy(dir, &pid) == 1)
				say_busy(dir, pid, "choose another --out");
			else
				weprintf("results directory %s: exists and is not empty (choose another --out)", dir);
			return -1;
		}
	}
	if (check_space(dir) < 0)
		return -1;
	if ((rc = mkdir_p(dir)) < 0) {
		errno = -rc;
		weprintf("create %s:", dir);
		return -1;
	}
	/* two runners given the same new directory: the second stops here,
	 * or at the O_EXCL create of the files below */
	if ((r->lock = mr_results_lock(dir, "choose another --out")) < 0)
		return -1;
	r->dir = estrdup(dir);
	logs = esprintf("%s/logs", dir);
	rc = mkdir(logs, 0755);
	if (rc < 0)
		weprintf("create %s:", logs);
	free(logs);
	headers_make(&h);
	if (rc == 0 &&
	    (r->env = create(r, "env.tsv", "key\tvalue\n")) != NULL &&
	    (r->runs = create(r, "runs.tsv", h.runs.s)) != NULL &&
	    (r->ckpts = create(r, "checkpoints.tsv", h.ckpts.s)) != NULL &&
	    (r->series = create(r, "series.tsv", h.series.s)) != NULL)
		rc = 0;
	else
		rc = -1;
	headers_free(&h);
	if (rc)
		mr_results_close(r);
	return rc;
}

/* Append b to f whole or not at all: write() straight to the file (the
 * FILE's buffer is always empty here), and on a short write (a full disk)
 * cut the file back to where it was, so no reader ever meets half a row. */
static int
put(struct mr_results *r, FILE *f, const char *name, const struct strbuf *b)
{
	int fd = fileno(f), e;
	const char *p = b->s;
	size_t left = b->len;
	off_t at;

	if (!left)
		return 0;
	if (fflush(f) == EOF || (at = lseek(fd, 0, SEEK_END)) < 0) {
		weprintf("write %s/%s:", r->dir, name);
		return -1;
	}
	while (left) {
		ssize_t n = write(fd, p, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			e = n < 0 ? errno : ENOSPC;
			if (ftruncate(fd, at) < 0)
				weprintf("truncate %s/%s:", r->dir, name);
			errno = e;
			weprintf("write %s/%s:", r->dir, name);
			return -1;
		}
		p += n;
		left -= (size_t)n;
	}
	return 0;
}

int
mr_results_env(struct mr_results *r, const struct mr_envfp *fp)
{
	struct strbuf b = { 0 };
	int i, rc;

	for (i = 0; i < fp->n; i++)
		sb_printf(&b, "%s\t%s\n", fp->key[i], fp->val[i]);
	rc = put(r, r->env, "env.tsv", &b);
	sb_free(&b);
	return rc;
}

char *
mr_results_log(struct mr_results *r, const char *casename, const char *safe,
	       int repeat)
{
	char *dir = esprintf("logs/%s", casename), why[MR_SIO_WHY];
	char *log = esprintf("logs/%s/%s.%d.log", casename, safe, repeat);

	/* A resumed directory may have links planted in it: logs/<case> is
	 * a real directory in it, and whatever is at the log's place (the
	 * log of the run that was interrupted, or a link) is removed, so
	 * the run's log is a new file, never written through a link. */
	if (mr_sio_mkdir(r->dir, dir, why) < 0 || mr_sio_unlink(r->dir, log, why) < 0) {
		char *path = mr_sio_path(r->dir, log);

		weprintf("%s: %s: refusing to write the log there", path, why);
		free(path);
		free(log);
		log = NULL;
	}
	free(dir);
	return log;
}

/* The runs.tsv row of run. */
static void
runs_row(struct strbuf *b, const struct mr_results_run *run)
{
	const struct mr_spawn_res *res = run->res;
	struct mr_row w;
	int m;

	row_lead(&w, MR_RUNS_NCOLS, run);
	mr_row_str(&w, MR_RUNS_OUTCOME, run->outcome);
	mr_row_str(&w, MR_RUNS_DETAIL, run->detail);
	mr_row_str(&w, MR_RUNS_LOG, run->log);
	if (!res) {
		/* never started: no figures ("-"), no samples */
		for (m = 0; m < MR_NRUN_METRICS; m++)
			mr_row_str(&w, MR_RUNS_METRIC_COL(m), "-");
		mr_row_str(&w, MR_RUNS_SAMPLES, "0");
		mr_row_str(&w, MR_RUNS_OVERLAP, "-");
		mr_row_str(&w, MR_RUNS_STOPPED_MS, "-");
		mr_row_end(b, &w);
		return;
	}
	mr_row_u64(&w, MR_RUNS_WALL_MS, res->wall_ms);
	mr_row_u64(&w, MR_RUNS_PAUSE_MS, res->pause_ms);
	mr_row_u64(&w, MR_RUNS_USER_MS, res->user_ms);
	mr_row_u64(&w, MR_RUNS_SYS_MS, res->sys_ms);
	mr_row_u64(&w, MR_RUNS_MAXRSS_KB, res->maxrss_kb);
	mr_row_u64(&w, MR_RUNS_MINFLT, res->minflt);
	mr_row_u64(&w, MR_RUNS_MAJFLT, res->majflt);
	if (res->nsamples) {
		mr_row_u64(&w, MR_RUNS_PEAK_RSS_KB, res->peak_rss_kb);
		mr_row_u64(&w, MR_RUNS_PEAK_TREE_RSS_KB, res->peak_tree_rss_kb);
	} else {
		/* a run shorter than one interval has no sampled peak */
		mr_row_str(&w, MR_RUNS_PEAK_RSS_KB, "-");
		mr_row_str(&w, MR_RUNS_PEAK_TREE_RSS_KB, "-");
	}
	row_fig(&w, MR_RUNS_CGROUP_PEAK_KB, res->cgroup_peak_kb);
	mr_row_fmt(&w, MR_RUNS_SAMPLES, "%zu", res->nsamples);
	mr_row_fmt(&w, MR_RUNS_OVERLAP, "%d", run->overlap);
	mr_row_u64(&w, MR_RUNS_STOPPED_MS, res->stopped_ms);
	mr_row_end(b, &w);
}

/* The checkpoints.tsv row of checkpoint k of run. */
static void
ckpts_row(struct strbuf *b, const struct mr_results_run *run,
	  const struct mr_record *k)
{
	struct mr_row w;
	int m;

	row_lead(&w, MR_CKPTS_NCOLS, run);
	mr_row_str(&w, MR_CKPTS_CHECKPOINT, k->name);
	mr_row_fmt(&w, MR_CKPTS_SEQ, "%lu", k->seq);
	mr_row_fmt(&w, MR_CKPTS_T_MS, "%" PRIu64 ".%03u", k->t_us / 1000,
		(unsigned)(k->t_us % 1000));
	/* the other figures the record carries: v[] is indexed like the
	 * checkpoint metrics (v[0] is t_us, above) */
	for (m = 1; m < MR_NCKPT_KEYS; m++)
		mr_row_u64(&w, MR_CKPTS_METRIC_COL(m), k->v[m]);
	mr_row_u64(&w, MR_CKPTS_TREE_RSS_KB, k->tree_rss_kb);
	mr_row_u64(&w, MR_CKPTS_TREE_PSS_KB, k->tree_pss_kb);
	mr_row_u64(&w, MR_CKPTS_TREE_PRIVATE_DIRTY_KB, k->tree_private_dirty_kb);
	mr_row_u64(&w, MR_CKPTS_TREE_NPROC, k->tree_nproc);
	row_fig(&w, MR_CKPTS_CGROUP_KB, k->cgroup_kb);
	mr_row_end(b, &w);
}

/* The series.tsv row of sample x of run. */
static void
series_row(struct strbuf *b, const struct mr_results_run *run,
	   const struct mr_spawn_sample *x)
{
	struct mr_row w;

	row_lead(&w, MR_SERIES_NCOLS, run);
	mr_row_u64(&w, MR_SERIES_T_MS, x->t_ms);
	mr_row_u64(&w, MR_SERIES_RSS_KB, x->rss_kb);
	mr_row_u64(&w, MR_SERIES_VSZ_KB, x->vsz_kb);
	mr_row_u64(&w, MR_SERIES_TREE_RSS_KB, x->tree_rss_kb);
	mr_row_u64(&w, MR_SERIES_TREE_NPROC, x->tree_nproc);
	row_fig(&w, MR_SERIES_CGROUP_KB, x->cgroup_kb);
	mr_row_end(b, &w);
}

int
mr_results_add(struct mr_results *r, const struct mr_results_run *run)
{
	const struct mr_spawn_res *res = run->res;
	struct strbuf b = { 0 };
	size_t i;
	int rc = 0;

	runs_row(&b, run);
	/* checkpoints and series first: a reader that sees the runs.tsv row
	 * finds the run's other rows already there */
	if (res && res->nckpts) {
		struct strbuf c = { 0 };

		for (i = 0; i < res->nckpts; i++)
			ckpts_row(&c, run, &res->ckpts[i]);
		rc |= put(r, r->ckpts, "checkpoints.tsv", &c);
		sb_free(&c);
	}
	if (res && res->nsamples) {
		struct strbuf s = { 0 };

		for (i = 0; i < res->nsamples; i++)
			series_row(&s, run, &res->samples[i]);
		rc |= put(r, r->series, "series.tsv", &s);
		sb_free(&s);
	}
	rc |= put(r, r->runs, "runs.tsv", &b);
	sb_free(&b);
	return rc ? -1 : 0;
}

/* --- resume --------------------------------------------------------- */

static int
cmp_key(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The run key of a row: its first three fields, "case\tconfig\trepeat";
 * NULL when the row has fewer. */
static char *
row_key(const char *line)
{
	const char *p = line;
	int tabs = 0;

	for (; *p && *p != '\n'; p++)
		if (*p == '\t' && ++tabs == 3)
			break;
	if (tabs < 2)
		return NULL;
	return estrndup(line, (size_t)(p - line));
}

/* Repair one file of dir for a resume (read through safeio.h, at most
 * max bytes): its first line must be header;
 * a last line without newline is cut off; with done, rows of a run not in
 * done are dropped; without, the runs are collected into *out (runs.tsv).
 * Rewrites the file (temporary + rename) only when something is dropped.
 * Returns 0 or -1 (printed). */
static int
repair(const char *dir, const char *name, off_t max, const char *header,
       const struct mr_results_done *done, struct mr_results_done *out)
{
	char *path = esprintf("%s/%s", dir, name), *line = NULL;
	struct strbuf keep = { 0 };
	size_t cap = 0, ntabs = 0;
	long lineno = 0, dropped = 0, cut = 0;
	const char *p;
	ssize_t n;
	FILE *f = mr_sio_fopen(dir, name, max);
	int rc = 0;

	for (p = header; *p; p++)
		ntabs += *p == '\t';
	if (!f) {
		if (errno == ENOENT)
			weprintf("--resume: %s:", path);
		free(path);
		return -1;
	}
	while ((n = getline(&line, &cap, f)) > 0) {
		size_t tabs = 0;
		ssize_t i;

		lineno++;
		if (line[n - 1] != '\n') {
			cut = 1; /* a write the runner did not finish */
			break;
		}
		if (lineno == 1) {
			if (strcmp(line, header) != 0) {
				mr_errat(path, 1, 1, "not the header this memrepro writes "
					 "(results of another version?): cannot resume");
				rc = -1;
				break;
			}
			sb_add(&keep, line);
			continue;
		}
		for (i = 0; i < n; i++)
			tabs += line[i] == '\t';
		if (tabs != ntabs) {
			mr_errat(path, lineno, 1, "expected %zu tab-separated fields as in the header, got %zu: cannot resume",
				 ntabs + 1, tabs + 1);
			rc = -1;
			break;
		}
		if (done || out) {
			char *k = row_key(line);

			if (done && !bsearch(&k, done->key, (size_t)done->n, sizeof *done->key, cmp_key)) {
				dropped++;
				free(k);
				continue;
			}
			if (out) {
				out->key = erealloc(out->key, (size_t)(out->n + 1) * sizeof *out->key);
				out->key[out->n++] = k;
			} else {
				free(k);
			}
		}
		sb_add(&keep, line);
	}
	if (rc == 0 && ferror(f)) {
		weprintf("--resume: read %s:", path);
		rc = -1;
	}
	if (rc == 0 && lineno == 0) {
		mr_errat(path, 0, 0, "empty: not a results directory this memrepro wrote");
		rc = -1;
	}
	fclose(f);
	free(line);
	if (rc == 0 && (cut || dropped)) {
		char *tmp = esprintf("%s.resume.%ld", path, (long)getpid());
		int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		size_t off = 0;

		while (fd >= 0 && off < keep.len) {
			ssize_t w = write(fd, keep.s + off, keep.len - off);

			if (w <= 0)
				break;
			off += (size_t)w;
		}
		if (fd < 0 || off < keep.len || fsync(fd) < 0 || close(fd) < 0 ||
		    rename(tmp, path) < 0) {
			weprintf("--resume: rewrite %s:", path);
			unlink(tmp);
			rc = -1;
		} else {
			fprintf(stderr, "%s: resuming: dropped %s%s%ld row%s of the run that was interrupted\n",
				path, cut ? "a line cut short" : "", cut && dropped ? " and " : "",
				dropped, dropped == 1 ? "" : "s");
		}
		free(tmp);
	}
	sb_free(&keep);
	free(path);
	return rc;
}

int
mr_results_reopen(struct mr_results *r, const char *dir, int lock,
		  struct mr_results_done *done)
{
	struct headers h;
	static const char *const names[] = { "env.tsv", "runs.tsv", "checkpoints.tsv", "series.tsv" };
	FILE **files[] = { &r->env, &r->runs, &r->ckpts, &r->series };
	int i, rc = 0;

	memset(r, 0, sizeof *r);
	memset(done, 0, sizeof *done);
	r->lock = lock;
	if (check_space(dir) < 0) {
		mr_results_close(r);
		return -1;
	}
	headers_make(&h);
	if (repair(dir, "env.tsv", MR_SIO_ENV_MAX, "key\tvalue\n", NULL, NULL) < 0 ||
	    repair(dir, "runs.tsv", MR_SIO_TSV_MAX, h.runs.s, NULL, done) < 0)
		rc = -1;
	if (rc == 0) {
		qsort(done->key, (size_t)done->n, sizeof *done->key, cmp_key);
		for (i = 1; i < done->n; i++) {
			if (strcmp(done->key[i - 1], done->key[i]) == 0) {
				mr_errat(dir, 0, 0, "runs.tsv has a run twice: cannot resume");
				rc = -1;
				break;
			}
		}
	}
	if (rc == 0 && (repair(dir, "checkpoints.tsv", MR_SIO_TSV_MAX, h.ckpts.s, done, NULL) < 0 ||
			repair(dir, "series.tsv", MR_SIO_SERIES_MAX, h.series.s, done, NULL) < 0))
		rc = -1;
	headers_free(&h);
	r->dir = estrdup(dir);
	/* appended to as they are: never through a planted symbolic link */
	for (i = 0; rc == 0 && i < 4; i++) {
		char why[MR_SIO_WHY];
		int fd = mr_sio_open_append(dir, names[i], why);

		if (fd < 0 || !(*files[i] = fdopen(fd, "a"))) {
			char *path = mr_sio_path(dir, names[i]);

			if (fd < 0)
				weprintf("--resume: %s: %s: refusing to write it", path, why);
			else
				weprintf("--resume: open %s:", path);
			if (fd >= 0)
				close(fd);
			free(path);
			rc = -1;
		}
	}
	if (rc < 0) {
		mr_results_close(r);
		mr_results_done_free(done);
	}
	return rc;
}

int
mr_results_done_has(const struct mr_results_done *done, const char *casename,
		    const char *config, int repeat)
{
	char *k = esprintf("%s\t%s\t%d", casename, config, repeat);
	int has = done->n && bsearch(&k, done->key, (size_t)done->n, sizeof *done->key, cmp_key);

	free(k);
	return has;
}

void
mr_results_done_free(struct mr_results_done *done)
{
	int i;

	for (i = 0; i < done->n; i++)
		free(done->key[i]);
	free(done->key);
	memset(done, 0, sizeof *done);
}

int
mr_results_read_env(const char *dir, struct mr_envfp *fp)
{
	struct mr_tsv t;
	int rc = mr_tsv_open_in(&t, dir, "env.tsv", MR_SIO_ENV_MAX), ck, cv;

	memset(fp, 0, sizeof *fp);
	if (rc == -ENOENT) {
		char *path = mr_sio_path(dir, "env.tsv");

		mr_errat(path, 0, 0, "no such file: not a results directory");
		free(path);
	}
	if (rc < 0)
		return -1;
	if ((ck = mr_tsv_need(&t, "key")) < 0 || (cv = mr_tsv_need(&t, "value")) < 0) {
		mr_tsv_close(&t);
		return -1;
	}
	while ((rc = mr_tsv_next(&t)) > 0)
		mr_envfp_add(fp, mr_tsv_get(&t, ck), mr_tsv_get(&t, cv));
	mr_tsv_close(&t);
	if (rc < 0)
		mr_envfp_free(fp);
	return rc < 0 ? -1 : 0;
}

int
mr_results_env_add(struct mr_results *r, const char *key, const char *val)
{
	struct strbuf b = { 0 };
	int rc;

	sb_printf(&b, "%s\t%s\n", key, val);
	rc = put(r, r->env, "env.tsv", &b);
	sb_free(&b);
	return rc;
}

int
mr_results_close(struct mr_results *r)
{
	FILE **f[] = { &r->env, &r->runs, &r->ckpts, &r->series };
	size_t i;
	int rc = 0;

	for (i = 0; i < sizeof f / sizeof f[0]; i++) {
		if (*f[i] && fclose(*f[i]) == EOF) {
			weprintf("close in %s:", r->dir);
			rc = -1;
		}
		*f[i] = NULL;
	}
	/* the workers (-j) that inherited it hold it until they exit too */
	if (r->lock >= 0)
		close(r->lock);
	r->lock = -1;
	free(r->dir);
	r->dir = NULL;
	return rc;
}

void
mr_results_progress(FILE *out, const struct mr_results_run *run,
		    const char *shortc, int nrepeat)
{
	const struct mr_spawn_res *res = run->res;

	fprintf(out, "%s%s%s #%d/%d %s", run->casename, *shortc ? " " : "", shortc,
		run->repeat, nrepeat, run->outcome);
	if (strcmp(run->detail, "-") != 0)
		fprintf(out, " (%s)", run->detail);
	if (res) {
		fprintf(out, " %.2f s", (double)res->wall_ms / 1000);
		if (res->nckpts) {
			const struct mr_record *k = &res->ckpts[res->nckpts - 1];

			fprintf(out, " rss@%s %.1f MiB", k->name, (double)k->v[1] / 1024);
		} else if (res->nsamples) {
			fprintf(out, " peak rss %.1f MiB", (double)res->peak_rss_kb / 1024);
		} else if (res->maxrss_kb) {
			fprintf(out, " maxrss %.1f MiB", (double)res->maxrss_kb / 1024);
		}
	}
	fputc('\n', out);
	fflush(out);
}
