/* guestmerge: a guest's results into the session's — see guestmerge.h. */
#include "guest/guestmerge.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/safeio.h"
#include "core/util.h"
#include "proto/schema.h"
#include "results/row.h"

#define MAXF 256

static int
by_key(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	size_t nx = strcspn(x, "="), ny = strcspn(y, "=");
	int c = strncmp(x, y, nx < ny ? nx : ny);

	return c ? c : (nx > ny) - (nx < ny);
}

char *
mr_guest_config(const char *c, const char *frag)
{
	char *all = esprintf("%s%s%s", c && strcmp(c, "-") ? c : "", c && *c && strcmp(c, "-") ? "," : "",
			     frag);
	char *v[MAXF];
	struct strbuf b = { 0 };
	int n = split(all, ',', v, MAXF), i;

	qsort(v, (size_t)n, sizeof *v, by_key);
	for (i = 0; i < n; i++)
		if (*v[i])
			sb_printf(&b, "%s%s", b.len ? "," : "", v[i]);
	free(all);
	return b.s ? b.s : estrdup("");
}

/* Append text to path (created with header when new). */
static int
append(const char *path, const char *header, const char *text)
{
	struct stat st;
	int fresh = stat(path, &st) < 0, fd, ok;

	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0) {
		weprintf("%s:", path);
		return -1;
	}
	ok = (!fresh || !header || write(fd, header, strlen(header)) == (ssize_t)strlen(header)) &&
	     write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	close(fd);
	if (!ok)
		weprintf("write %s:", path);
	return ok ? 0 : -1;
}

/* Whether a run of case c with outcome and detail was killed by the
 * guest's OOM killer: it crashed of SIGKILL and the killer named a
 * process of its name (a comm: at most 15 characters of it). */
static int
oom_killed(const struct mr_guest_merge *m, const char *c, const char *outcome, const char *detail)
{
	size_t n = m->oom ? strlen(m->oom) : 0;

	return n && strcmp(outcome, "crashed") == 0 && strncmp(detail, "SIGKILL", 7) == 0 &&
	       strncmp(c, m->oom, n) == 0 && (!c[n] || n == 15);
}

/* One file of the guest into out's, rows rewritten; runs.tsv's keys
 * (case, guest config, repeat) into *seen. */
static int
merge_file(const struct mr_guest_merge *m, const char *name, int isruns, struct strbuf *seen)
{
	/* the guest wrote it: no link followed, bounded (core/safeio.h) */
	char *src = esprintf("%s/results/%s", m->sub, name);
	char *dst = esprintf("%s/%s", m->out, name);
	FILE *f = mr_sio_fopen(m->out, src, MR_SIO_TSV_MAX);
	struct strbuf hdr = { 0 }, rows = { 0 };
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int rc = 0, first = 1;

	while (f && (len = getline(&line, &cap, f)) > 0) {
		char *v[MAXF], *cfg;
		int n, i;

		if (line[len - 1] != '\n') /* a run cut off: no row */
			break;
		if (first) {
			sb_add(&hdr, line);
			first = 0;
			continue;
		}
		line[len - 1] = '\0';
		if ((n = split(line, '\t', v, MAXF)) < 3 || (isruns && n <= MR_RUNS_DETAIL))
			continue;
		if (isruns)
			sb_printf(seen, "\n%s\t%s\t%s\n", v[0], v[1], v[2]);
		cfg = mr_guest_config(v[1], m->frag);
		for (i = 0; i < n; i++) {
			const char *x = i == 1 ? cfg : v[i];

			if (isruns && i == MR_RUNS_DETAIL && oom_killed(m, v[0], v[MR_RUNS_OUTCOME], x))
				sb_printf(&rows, "%s; %s", x, m->oom_note);
			else if (isruns && i == MR_RUNS_ACCEL && m->accel)
				sb_add(&rows, m->accel);
			else if (isruns && i == MR_RUNS_LOG && strcmp(x, "-"))
				sb_printf(&rows, "%s/results/%s", m->sub, x);
			else
				sb_add(&rows, x);
			sb_add(&rows, i + 1 < n ? "\t" : "\n");
		}
		free(cfg);
	}
	if (f)
		fclose(f);
	if (rows.len)
		rc = append(dst, hdr.s, rows.s);
	free(line);
	free(src);
	free(dst);
	sb_free(&hdr);
	sb_free(&rows);
	return rc;
}

/* out/env.tsv from the guest's when out has none (no run on the host);
 * when the guest wrote none, its platform MR_GUEST_NO_PLATFORM. */
static void
take_env(const struct mr_guest_merge *m)
{
	char *dst = esprintf("%s/" MR_FILE_ENV, m->out), *src, *line = NULL;
	struct strbuf b = { 0 };
	struct stat st;
	size_t cap = 0;
	FILE *f;

	if (stat(dst, &st) == 0) {
		free(dst);
		return;
	}
	src = esprintf("%s/results/" MR_FILE_ENV, m->sub);
	if ((f = mr_sio_fopen(m->out, src, MR_SIO_ENV_MAX)) != NULL) {
		while (getline(&line, &cap, f) > 0)
			sb_add(&b, line);
		fclose(f);
	}
	/* a guest that left nothing (hung, panicked before its runner): a
	 * platform no baseline has, so that check reads its failed runs */
	if (!b.len)
		sb_add(&b, "key\tvalue\n" MR_ENVK_PLATFORM "\t" MR_GUEST_NO_PLATFORM "\n");
	append(dst, NULL, b.s);
	free(line);
	free(src);
	free(dst);
	sb_free(&b);
}

/* A file of OUT that no run wrote (none on the host, none measured in the
 * guest) gets its header alone, as a run of this runner writes it: a
 * results directory has all three files. */
static int
headers_only(const struct mr_guest_merge *m, const struct mr_row_headers *h)
{
	const char *name[] = { MR_FILE_CKPTS, MR_FILE_SERIES };
	const char *head[] = { h->ckpts.s, h->series.s };
	int i, rc = 0;

	for (i = 0; i < 2; i++) {
		char *p = esprintf("%s/%s", m->out, name[i]);
		struct stat st;

		if (lstat(p, &st) < 0 && errno == ENOENT)
			rc |= append(p, NULL, head[i]);
		free(p);
	}
	return rc;
}

int
mr_guest_merge(const struct mr_guest_merge *m)
{
	struct strbuf seen = { 0 }, rows = { 0 };
	struct mr_row_headers h;
	char *console = esprintf("%s/%s/console.log", m->out, m->sub);
	char *dst = esprintf("%s/" MR_FILE_RUNS, m->out), *why = estrdup(m->why ? m->why : "-"), *p;
	struct stat st;
	int i, r, added = 0, rc;

	mr_row_headers(&h);
	take_env(m);
	rc = merge_file(m, MR_FILE_CKPTS, 0, &seen);
	if (rc == 0)
		rc = merge_file(m, MR_FILE_SERIES, 0, &seen);
	if (rc == 0)
		rc = merge_file(m, MR_FILE_RUNS, 1, &seen);
	for (p = why; *p; p++)
		if (*p == '\t' || *p == '\n' || *p == '\r')
			*p = ' ';
	for (i = 0; rc == 0 && i < m->npairs; i++)
		for (r = 1; r <= m->pairs[i].repeats; r++) {
			char *key = esprintf("\n%s\t%s\t%d\n", m->pairs[i].casename,
					     m->pairs[i].config, r);
			char *cfg;
			int k;

			if (seen.s && strstr(seen.s, key)) {
				free(key);
				continue;
			}
			free(key);
			cfg = mr_guest_config(m->pairs[i].config, m->frag);
			sb_printf(&rows, "%s\t%s\t%d\t%s\t%s", m->pairs[i].casename, cfg, r,
				  m->outcome, why);
			for (k = MR_RUNS_DETAIL + 1; k < MR_RUNS_LOG; k++)
				if (k == MR_RUNS_ACCEL)
					sb_printf(&rows, "\t%s", m->accel ? m->accel : "host");
				else
					sb_add(&rows, k == MR_RUNS_SAMPLES ? "\t0" : "\t-");
			if (stat(console, &st) == 0)
				sb_printf(&rows, "\t%s/console.log\n", m->sub);
			else
				sb_add(&rows, "\t-\n");
			free(cfg);
			added++;
		}
	if (rc == 0 && rows.len)
		rc = append(dst, h.runs.s, rows.s);
	if (rc == 0)
		rc = headers_only(m, &h);
	sb_free(&seen);
	sb_free(&rows);
	mr_row_headers_free(&h);
	free(console);
	free(dst);
	free(why);
	return rc < 0 ? -1 : added;
}
