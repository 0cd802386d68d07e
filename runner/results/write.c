/* write: create the results directory and write its TSV files. */
#include "results/write.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "core/safeio.h"
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

int
mr_results_space(const char *dir)
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

/* --- writing -------------------------------------------------------- */

int
mr_results_open(struct mr_results *r, const char *dir)
{
	struct mr_row_headers h;
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
				mr_results_say_busy(dir, pid, "choose another --out");
			else
				weprintf("results directory %s: exists and is not empty (choose another --out)", dir);
			return -1;
		}
	}
	if (mr_results_space(dir) < 0)
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
	mr_row_headers(&h);
	if (rc == 0 &&
	    (r->env = create(r, MR_FILE_ENV, "key\tvalue\n")) != NULL &&
	    (r->runs = create(r, MR_FILE_RUNS, h.runs.s)) != NULL &&
	    (r->ckpts = create(r, MR_FILE_CKPTS, h.ckpts.s)) != NULL &&
	    (r->series = create(r, MR_FILE_SERIES, h.series.s)) != NULL)
		rc = 0;
	else
		rc = -1;
	mr_row_headers_free(&h);
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
	rc = put(r, r->env, MR_FILE_ENV, &b);
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
	mr_row_str(&w, MR_RUNS_OUTCOME, mr_outcomes[run->outcome]);
	mr_row_str(&w, MR_RUNS_DETAIL, run->detail);
	mr_row_str(&w, MR_RUNS_LOG, run->log);
	if (!res) {
		/* never started: no figures ("-"), no samples */
		for (m = 0; m < MR_NRUN_METRICS; m++)
			mr_row_str(&w, MR_RUNS_METRIC_COL(m), "-");
		mr_row_str(&w, MR_RUNS_SAMPLES, "0");
		mr_row_str(&w, MR_RUNS_OVERLAP, "-");
		mr_row_str(&w, MR_RUNS_STOPPED_MS, "-");
		mr_row_str(&w, MR_RUNS_WAITED, run->waited ? run->waited : "-");
		mr_row_str(&w, MR_RUNS_OTHER_CPU_MS, "-");
		mr_row_str(&w, MR_RUNS_MACHINE, "-");
		mr_row_str(&w, MR_RUNS_ACCEL, "host");
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
	mr_row_str(&w, MR_RUNS_WAITED, run->waited ? run->waited : "-");
	row_fig(&w, MR_RUNS_OTHER_CPU_MS, res->other_cpu_ms);
	mr_row_str(&w, MR_RUNS_MACHINE, res->machine[0] ? res->machine : "-");
	/* a guest's runner does not know it is one: the merge says how
	 * it ran (run/guestmerge.h) */
	mr_row_str(&w, MR_RUNS_ACCEL, "host");
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
		row_fig(&w, MR_CKPTS_METRIC_COL(m), k->v[m]);
	/* "-": a command's exit mark has no figure of them (proc/marks.h) */
	row_fig(&w, MR_CKPTS_TREE_RSS_KB, k->tree_rss_kb);
	row_fig(&w, MR_CKPTS_TREE_PSS_KB, k->tree_pss_kb);
	row_fig(&w, MR_CKPTS_TREE_PRIVATE_DIRTY_KB, k->tree_private_dirty_kb);
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
		rc |= put(r, r->ckpts, MR_FILE_CKPTS, &c);
		sb_free(&c);
	}
	if (res && res->nsamples) {
		struct strbuf s = { 0 };

		for (i = 0; i < res->nsamples; i++)
			series_row(&s, run, &res->samples[i]);
		rc |= put(r, r->series, MR_FILE_SERIES, &s);
		sb_free(&s);
	}
	rc |= put(r, r->runs, MR_FILE_RUNS, &b);
	sb_free(&b);
	return rc ? -1 : 0;
}

int
mr_results_env_add(struct mr_results *r, const char *key, const char *val)
{
	struct strbuf b = { 0 };
	int rc;

	sb_printf(&b, "%s\t%s\n", key, val);
	rc = put(r, r->env, MR_FILE_ENV, &b);
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
		run->repeat, nrepeat, mr_outcomes[run->outcome]);
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
		if (res->machine[0])
			fprintf(out, " [not judged: %s]", res->machine);
	}
	fputc('\n', out);
	fflush(out);
}
