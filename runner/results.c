/* results: create the results directory and write its TSV files. */
#include "results.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "util.h"

static const char runs_header[] =
	"case\tconfig\trepeat\toutcome\tdetail\twall_ms\tpause_ms\tuser_ms\tsys_ms\t"
	"maxrss_kb\tminflt\tmajflt\tpeak_rss_kb\tpeak_tree_rss_kb\tsamples\tlog\n";
static const char series_header[] =
	"case\tconfig\trepeat\tt_ms\trss_kb\tvsz_kb\ttree_rss_kb\ttree_nproc\n";

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

static int
empty_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int empty = 1;

	if (!d)
		return -1;
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			empty = 0;
	closedir(d);
	return empty;
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

int
mr_results_open(struct mr_results *r, const char *dir)
{
	struct strbuf h = { 0 };
	struct stat st;
	char *logs;
	int i, rc;

	memset(r, 0, sizeof *r);
	if (stat(dir, &st) == 0) {
		if (!S_ISDIR(st.st_mode)) {
			weprintf("results directory %s: exists and is not a directory", dir);
			return -1;
		}
		if (empty_dir(dir) != 1) {
			weprintf("results directory %s: exists and is not empty (choose another --out)", dir);
			return -1;
		}
	}
	if ((rc = mkdir_p(dir)) < 0) {
		errno = -rc;
		weprintf("create %s:", dir);
		return -1;
	}
	r->dir = estrdup(dir);
	logs = esprintf("%s/logs", dir);
	rc = mkdir(logs, 0755);
	if (rc < 0)
		weprintf("create %s:", logs);
	free(logs);
	sb_add(&h, "case\tconfig\trepeat\tcheckpoint\tseq");
	for (i = 0; i < MR_SPAWN_NCKPT; i++)
		sb_printf(&h, "\t%s", mr_spawn_ckpt_metric[i]);
	sb_add(&h, "\ttree_rss_kb\ttree_pss_kb\ttree_private_dirty_kb\ttree_nproc\n");
	if (rc == 0 &&
	    (r->env = create(r, "env.tsv", "key\tvalue\n")) != NULL &&
	    (r->runs = create(r, "runs.tsv", runs_header)) != NULL &&
	    (r->ckpts = create(r, "checkpoints.tsv", h.s)) != NULL &&
	    (r->series = create(r, "series.tsv", series_header)) != NULL)
		rc = 0;
	else
		rc = -1;
	sb_free(&h);
	if (rc)
		mr_results_close(r);
	return rc;
}

static int
put(struct mr_results *r, FILE *f, const char *name, const struct strbuf *b)
{
	if (b->len && (fwrite(b->s, 1, b->len, f) != b->len || fflush(f) == EOF)) {
		weprintf("write %s/%s:", r->dir, name);
		return -1;
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
	char *dir = esprintf("%s/logs/%s", r->dir, casename);

	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		weprintf("create %s:", dir);
		free(dir);
		return NULL;
	}
	free(dir);
	return esprintf("logs/%s/%s.%d.log", casename, safe, repeat);
}

int
mr_results_add(struct mr_results *r, const struct mr_results_run *run)
{
	const struct mr_spawn_res *res = run->res;
	struct strbuf b = { 0 };
	char lead[1024];
	size_t i;
	int j, rc = 0;

	snprintf(lead, sizeof lead, "%s\t%s\t%d", run->casename, run->config, run->repeat);
	if (res) {
		sb_printf(&b, "%s\t%s\t%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
			  "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64, lead, run->outcome, run->detail,
			  res->wall_ms, res->pause_ms, res->user_ms, res->sys_ms, res->maxrss_kb,
			  res->minflt, res->majflt);
		/* a run shorter than one interval has no sampled peak */
		if (res->nsamples)
			sb_printf(&b, "\t%" PRIu64 "\t%" PRIu64, res->peak_rss_kb,
				  res->peak_tree_rss_kb);
		else
			sb_add(&b, "\t-\t-");
		sb_printf(&b, "\t%zu\t%s\n", res->nsamples, run->log);
	} else
		/* never started: no figures ("-"), no samples */
		sb_printf(&b, "%s\t%s\t%s\t-\t-\t-\t-\t-\t-\t-\t-\t-\t0\t%s\n",
			  lead, run->outcome, run->detail, run->log);
	/* checkpoints and series first: a reader that sees the runs.tsv row
	 * finds the run's other rows already there */
	if (res && res->nckpts) {
		struct strbuf c = { 0 };

		for (i = 0; i < res->nckpts; i++) {
			const struct mr_spawn_ckpt *k = &res->ckpts[i];

			sb_printf(&c, "%s\t%s\t%lu\t%" PRIu64 ".%03u", lead, k->name, k->seq,
				  k->t_us / 1000, (unsigned)(k->t_us % 1000));
			for (j = 1; j < MR_SPAWN_NCKPT; j++)
				sb_printf(&c, "\t%" PRIu64, k->v[j]);
			sb_printf(&c, "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\n",
				  k->tree_rss_kb, k->tree_pss_kb, k->tree_private_dirty_kb,
				  k->tree_nproc);
		}
		rc |= put(r, r->ckpts, "checkpoints.tsv", &c);
		sb_free(&c);
	}
	if (res && res->nsamples) {
		struct strbuf s = { 0 };

		for (i = 0; i < res->nsamples; i++) {
			const struct mr_spawn_sample *x = &res->samples[i];

			sb_printf(&s, "%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\n",
				  lead, x->t_ms, x->rss_kb, x->vsz_kb, x->tree_rss_kb, x->tree_nproc);
		}
		rc |= put(r, r->series, "series.tsv", &s);
		sb_free(&s);
	}
	rc |= put(r, r->runs, "runs.tsv", &b);
	sb_free(&b);
	return rc ? -1 : 0;
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
			const struct mr_spawn_ckpt *k = &res->ckpts[res->nckpts - 1];

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
