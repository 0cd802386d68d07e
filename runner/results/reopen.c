/* reopen: a results directory reopened to resume an interrupted run —
 * see write.h (mr_results_reopen). */
#include "results/write.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/safeio.h"
#include "core/tsv.h"
#include "core/util.h"
#include "results/row.h"

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
	struct mr_row_headers h;
	static const char *const names[] = { MR_FILE_ENV, MR_FILE_RUNS, MR_FILE_CKPTS, MR_FILE_SERIES };
	FILE **files[] = { &r->env, &r->runs, &r->ckpts, &r->series };
	int i, rc = 0;

	memset(r, 0, sizeof *r);
	memset(done, 0, sizeof *done);
	r->lock = lock;
	if (mr_results_space(dir) < 0) {
		mr_results_close(r);
		return -1;
	}
	mr_row_headers(&h);
	if (repair(dir, MR_FILE_ENV, MR_SIO_ENV_MAX, "key\tvalue\n", NULL, NULL) < 0 ||
	    repair(dir, MR_FILE_RUNS, MR_SIO_TSV_MAX, h.runs.s, NULL, done) < 0)
		rc = -1;
	if (rc == 0) {
		qsort(done->key, (size_t)done->n, sizeof *done->key, cmp_key);
		for (i = 1; i < done->n; i++) {
			if (strcmp(done->key[i - 1], done->key[i]) == 0) {
				mr_errat(dir, 0, 0, MR_FILE_RUNS " has a run twice: cannot resume");
				rc = -1;
				break;
			}
		}
	}
	if (rc == 0 && (repair(dir, MR_FILE_CKPTS, MR_SIO_TSV_MAX, h.ckpts.s, done, NULL) < 0 ||
			repair(dir, MR_FILE_SERIES, MR_SIO_SERIES_MAX, h.series.s, done, NULL) < 0))
		rc = -1;
	mr_row_headers_free(&h);
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
	int rc = mr_tsv_open_in(&t, dir, MR_FILE_ENV, MR_SIO_ENV_MAX), ck, cv;

	memset(fp, 0, sizeof *fp);
	if (rc == -ENOENT) {
		char *path = mr_sio_path(dir, MR_FILE_ENV);

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
