/* merge: join shard results directories (merge.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <fcntl.h>

#include "results/merge.h"
#include "results/mergechk.h"
#include "results/read.h"
#include "core/safeio.h"
#include "matrix/shard.h"
#include "core/util.h"
#include "core/rmtree.h"
#include "proto/schema.h"

/* env.tsv keys every shard must agree on: what makes two runs one matrix. */
static const char *const same_keys[] = {
	MR_ENVK_PLATFORM, MR_ENVK_MEMREPRO_VERSION, MR_ENVK_COMMIT, MR_ENVK_PROFILE,
	MR_ENVK_REPEAT, MR_ENVK_INTERVAL_MS, MR_ENVK_TIMEOUT_S, MR_ENVK_CASES, MR_ENVK_MEM_CAP_MIB,
	MR_ENVK_SHARD_PLAN, MR_ENVK_OPTIONS, MR_ENVK_ASLR, MR_ENVK_RLIMIT_AS, MR_ENVK_RLIMIT_STACK, NULL,
};

static const char *const files[] = { MR_FILE_RUNS, MR_FILE_CKPTS, MR_FILE_SERIES, NULL };

/* One data row of a file of one shard, with what orders it: case (as
 * env.tsv's cases), repeat, config, then where it was.  The configs of a
 * repeat go in the order of their names, not of the matrix (which merge
 * does not know), so the merged files do not depend on the split. */
struct row {
	char *line;   /* with its newline (owned) */
	int casei;    /* the case's place in env.tsv's "cases" */
	long repeat;
	char *cfg;    /* the config (owned) */
	int shard;    /* index into dirs */
	long ln;      /* line in its file */
	char *key;    /* runs.tsv: "case\tconfig\trepeat" (owned), else NULL */
};

struct shard {
	const char *dir;
	struct mr_rd rd;
	int k, n;
	char *options; /* options without the --shard word (owned) */
};

static int
by_place(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int c;

	if (x->casei != y->casei)
		return x->casei < y->casei ? -1 : 1;
	if (x->repeat != y->repeat)
		return x->repeat < y->repeat ? -1 : 1;
	if ((c = strcmp(x->cfg, y->cfg)) != 0)
		return c;
	if (x->shard != y->shard)
		return x->shard < y->shard ? -1 : 1;
	return (x->ln > y->ln) - (x->ln < y->ln);
}

static int
by_key(const void *a, const void *b)
{
	const struct row *const *x = a, *const *y = b;
	int c = strcmp((*x)->key, (*y)->key);

	return c ? c : ((*x)->shard > (*y)->shard) - ((*x)->shard < (*y)->shard);
}

/* The recorded options less the --shard=K/N word. */
static char *
options_sans_shard(const char *opts)
{
	struct strbuf b = { 0 };
	char *copy = estrdup(opts ? opts : ""), *tok, *save = NULL;

	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		if (strncmp(tok, "--shard=", 8) != 0)
			sb_printf(&b, "%s%s", b.len ? " " : "", tok);
	free(copy);
	return b.s ? b.s : estrdup("");
}

/* Position of name among the blank-separated names, or n when absent. */
static int
case_place(const char *cases, const char *name)
{
	size_t len = strlen(name);
	const char *p = cases;
	int i = 0;

	while (p && *p) {
		size_t w = strcspn(p, " ");

		if (w == len && strncmp(p, name, len) == 0)
			return i;
		i++;
		p += w;
		p += strspn(p, " ");
	}
	return 1 << 20;
}

/* Check what the shards say about themselves.  Returns 0 or -1 (printed). */
static int
check_shards(struct shard *sh, int n)
{
	int i, j;
	char *seen;

	for (i = 0; i < n; i++) {
		const char *v = mr_rd_env(&sh[i].rd, MR_ENVK_SHARD);

		if (!v) {
			weprintf("merge: %s was not run with --shard K/N (" MR_FILE_ENV " has no shard key): not a shard",
				 sh[i].dir);
			return -1;
		}
		if (mr_shard_parse(v, &sh[i].k, &sh[i].n) < 0) {
			weprintf("merge: %s/" MR_FILE_ENV ": shard '%s' is not K/N", sh[i].dir, v);
			return -1;
		}
		sh[i].options = options_sans_shard(mr_rd_env(&sh[i].rd, MR_ENVK_OPTIONS));
	}
	for (i = 1; i < n; i++) {
		for (j = 0; same_keys[j]; j++) {
			const char *a = strcmp(same_keys[j], MR_ENVK_OPTIONS) == 0 ? sh[0].options :
					mr_rd_env(&sh[0].rd, same_keys[j]);
			const char *b = strcmp(same_keys[j], MR_ENVK_OPTIONS) == 0 ? sh[i].options :
					mr_rd_env(&sh[i].rd, same_keys[j]);

			if ((a || b) && (!a || !b || strcmp(a, b) != 0)) {
				weprintf("merge: %s has %s '%s' but %s has '%s': refusing to merge shards of different runs",
					 sh[i].dir, same_keys[j], b ? b : "(not recorded)",
					 sh[0].dir, a ? a : "(not recorded)");
				return -1;
			}
		}
		if (sh[i].n != sh[0].n) {
			weprintf("merge: %s is shard %d/%d but %s is shard %d/%d: refusing to merge shards of different splits",
				 sh[i].dir, sh[i].k, sh[i].n, sh[0].dir, sh[0].k, sh[0].n);
			return -1;
		}
	}
	seen = ecalloc((size_t)sh[0].n + 1, sizeof *seen);
	for (i = 0; i < n; i++) {
		if (seen[sh[i].k]) {
			weprintf("merge: shard %d/%d is given twice (%s)", sh[i].k, sh[i].n, sh[i].dir);
			free(seen);
			return -1;
		}
		seen[sh[i].k] = 1;
	}
	for (i = 1; i <= sh[0].n; i++)
		if (!seen[i]) {
			weprintf("merge: shard %d/%d is missing: the merged results would lack its runs",
				 i, sh[0].n);
			free(seen);
			return -1;
		}
	free(seen);
	return 0;
}

/* Read the data rows of file of every shard into *rows; every header
 * must be the first's (into *header).  Returns how many, or -1. */
static long
read_rows(struct shard *sh, int n, const char *file, char **header, struct row **rows)
{
	long nr = 0, cap = 0;
	int i;

	*header = NULL;
	*rows = NULL;
	for (i = 0; i < n; i++) {
		char *path = mr_rd_path(sh[i].dir, file), *line = NULL;
		FILE *f = mr_sio_fopen(sh[i].dir, file, strcmp(file, MR_FILE_SERIES) == 0 ?
				       MR_SIO_SERIES_MAX : MR_SIO_TSV_MAX);
		size_t lcap = 0;
		long ln = 0;
		int ccase = -1, crep = -1, ccfg = -1;

		if (!f) {
			if (errno == ENOENT)
				weprintf("merge: open %s:", path);
			free(path);
			return -1;
		}
		while (getline(&line, &lcap, f) > 0) {
			char *copy, *fld[256];
			int nf, c;

			ln++;
			if (line[0] == '#' && ccase < 0)
				continue;
			copy = estrdup(line);
			copy[strcspn(copy, "\r\n")] = '\0';
			nf = split(copy, '\t', fld, 256);
			if (ccase < 0) {
				/* the header row */
				for (c = 0; c < nf; c++) {
					if (strcmp(fld[c], "case") == 0)
						ccase = c;
					else if (strcmp(fld[c], "repeat") == 0)
						crep = c;
					else if (strcmp(fld[c], "config") == 0)
						ccfg = c;
				}
				free(copy);
				if (!*header) {
					*header = estrdup(line);
				} else if (strcmp(*header, line) != 0) {
					weprintf("merge: %s: its columns differ from %s/%s: refusing to merge results of different memrepro versions",
						 path, sh[0].dir, file);
					goto bad;
				}
				if (ccase < 0 || crep < 0 || ccfg < 0) {
					weprintf("merge: %s:%ld: no case, config or repeat column", path, ln);
					goto bad;
				}
				continue;
			}
			if (nf <= ccase || nf <= crep || nf <= ccfg) {
				free(copy);
				weprintf("merge: %s:%ld: row too short", path, ln);
				goto bad;
			}
			if (nr == cap) {
				cap = cap ? 2 * cap : 1024;
				*rows = erealloc(*rows, (size_t)cap * sizeof **rows);
			}
			{
				struct row *w = &(*rows)[nr++];
				long long r = 0;

				w->line = estrdup(line);
				parse_ll(fld[crep], &r);
				w->repeat = (long)r;
				w->casei = case_place(mr_rd_env(&sh[0].rd, MR_ENVK_CASES), fld[ccase]);
				w->cfg = estrdup(fld[ccfg]);
				w->shard = i;
				w->ln = ln;
				w->key = strcmp(file, MR_FILE_RUNS) == 0 ?
					 esprintf("%s\t%s\t%s", fld[ccase], fld[ccfg], fld[crep]) : NULL;
			}
			free(copy);
		}
		if (ferror(f)) {
			weprintf("merge: read %s:", path);
			goto bad;
		}
		fclose(f);
		free(line);
		free(path);
		continue;
bad:
		fclose(f);
		free(line);
		free(path);
		return -1;
	}
	return nr;
}

static void
free_rows(struct row *rows, long n)
{
	long i;

	for (i = 0; i < n; i++) {
		free(rows[i].line);
		free(rows[i].key);
		free(rows[i].cfg);
	}
	free(rows);
}

/* No (case, config, repeat) in two shards.  0 or -1 (printed). */
static int
check_overlap(struct shard *sh, struct row *rows, long n)
{
	struct row **v = ecalloc((size_t)n + 1, sizeof *v);
	long i;
	int rc = 0;

	for (i = 0; i < n; i++)
		v[i] = &rows[i];
	qsort(v, (size_t)n, sizeof *v, by_key);
	for (i = 1; i < n && rc == 0; i++)
		if (strcmp(v[i - 1]->key, v[i]->key) == 0) {
			char *k = estrdup(v[i]->key), *f[3];

			split(k, '\t', f, 3);
			weprintf("merge: case %s config %s repeat %s is in %s and in %s: refusing overlapping shards",
				 f[0], f[1], f[2], sh[v[i - 1]->shard].dir, sh[v[i]->shard].dir);
			free(k);
			rc = -1;
		}
	free(v);
	return rc;
}

/* Open the log rel of a shard's directory dir through safeio.h (a
 * regular file of at most MR_SIO_LOG_MAX bytes, never a link): the
 * descriptor, its size in *size; -ENOENT when there is none (nothing
 * printed), -1 after printing why it is refused. */
static int
open_log(const char *dir, const char *rel, off_t *size)
{
	char why[MR_SIO_WHY];
	int fd = mr_sio_open(dir, rel, MR_SIO_LOG_MAX, size, why);
	struct stat st;

	/* a hard link may be to a file outside the results directory: its
	 * other name is not known, so it is not copied */
	if (fd >= 0 && fstat(fd, &st) == 0 && st.st_nlink > 1) {
		snprintf(why, sizeof why, "a hard link (%lu names)", (unsigned long)st.st_nlink);
		close(fd);
		fd = -1;
	}
	if (fd < 0 && fd != -ENOENT) {
		char *path = mr_rd_path(dir, rel);

		weprintf("merge: %s: %s: refusing to read it", path, why);
		free(path);
		return -1;
	}
	return fd;
}

/* Copy the log rel of dir to dst (created afresh): at most the size it
 * had when opened, so a file that grows cannot fill the disk.  A log that
 * is not there (a run that never started) is not copied.  0 or -1
 * (printed). */
static int
copy_file(const char *dir, const char *rel, const char *dst)
{
	char buf[65536];
	off_t size = 0, done = 0;
	int in = open_log(dir, rel, &size), out, rc = 0;
	ssize_t r = 0;
	char *slash, *d;

	if (in < 0)
		return in == -ENOENT ? 0 : -1;
	d = estrdup(dst);
	if ((slash = strrchr(d, '/')) != NULL) {
		*slash = '\0';
		if ((rc = mkdir_p(d)) < 0) {
			errno = -rc;
			weprintf("merge: create %s:", d);
			free(d);
			close(in);
			return -1;
		}
	}
	free(d);
	out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (out < 0) {
		weprintf("merge: create %s:", dst);
		close(in);
		return -1;
	}
	/* each read moves on or ends the loop: at most size bytes in all */
	while (rc == 0 && done < size &&
	       (r = read(in, buf, (size_t)(size - done) < sizeof buf ?
				  (size_t)(size - done) : sizeof buf)) > 0) {
		if (write(out, buf, (size_t)r) != r)
			rc = -1;
		done += r;
	}
	if (r < 0 || rc < 0 || close(out) < 0) {
		char *src = mr_rd_path(dir, rel);

		weprintf("merge: copy %s to %s:", src, dst);
		free(src);
		rc = -1;
	}
	close(in);
	return rc;
}

/* Write one merged file.  0 or -1 (printed). */
static int
write_file(const char *out, const char *file, const char *header, struct row *rows, long n)
{
	char *path = mr_rd_path(out, file);
	FILE *f = mr_create_out(path);
	long i;
	int rc = 0;

	if (!f) {
		weprintf("merge: create %s:", path);
		free(path);
		return -1;
	}
	if (n) /* no rows (a series of no samples): rows may be NULL */
		qsort(rows, (size_t)n, sizeof *rows, by_place);
	fputs(header, f);
	for (i = 0; i < n; i++)
		fputs(rows[i].line, f);
	if (ferror(f) | fclose(f)) {
		weprintf("merge: write %s:", path);
		rc = -1;
	}
	free(path);
	return rc;
}

/* env.tsv: the first shard's less its shard keys, plus merged_from. */
static int
write_env(const char *out, struct shard *sh, int n)
{
	char *path = mr_rd_path(out, MR_FILE_ENV);
	FILE *f = mr_create_out(path);
	int i, rc = 0;

	if (!f) {
		weprintf("merge: create %s:", path);
		free(path);
		return -1;
	}
	fputs("key\tvalue\n", f);
	for (i = 0; i < sh[0].rd.nenv; i++) {
		const char *k = sh[0].rd.envk[i];

		if (strcmp(k, MR_ENVK_SHARD) == 0 || strcmp(k, MR_ENVK_SHARD_PAIRS) == 0)
			continue;
		if (strcmp(k, MR_ENVK_OPTIONS) == 0)
			fprintf(f, MR_ENVK_OPTIONS "\t%s\n", sh[0].options[0] ? sh[0].options : "-");
		else
			fprintf(f, "%s\t%s\n", k, sh[0].rd.envv[i]);
	}
	fputs("merged_from\t", f);
	for (i = 0; i < n; i++) {
		const char *p;

		if (i)
			fputc(' ', f);
		for (p = sh[i].dir; *p; p++)
			if (*p == ' ')
				fputs("\\s", f);
			else if (*p == '\\')
				fputs("\\\\", f);
			else if (*p != '\t' && *p != '\n' && *p != '\r')
				fputc(*p, f);
	}
	fputc('\n', f);
	if (ferror(f) | fclose(f)) {
		weprintf("merge: write %s:", path);
		rc = -1;
	}
	free(path);
	return rc;
}

/* The log column of a runs.tsv row, or NULL for "-". */
static char *
row_log(const char *header, const char *line)
{
	char *h = estrdup(header), *l = estrdup(line), *hf[256], *lf[256], *log = NULL;
	int nh, nl, c;

	h[strcspn(h, "\r\n")] = '\0';
	l[strcspn(l, "\r\n")] = '\0';
	nh = split(h, '\t', hf, 256);
	nl = split(l, '\t', lf, 256);
	for (c = 0; c < nh && c < nl; c++)
		if (strcmp(hf[c], "log") == 0 && strcmp(lf[c], "-") != 0)
			log = estrdup(lf[c]);
	free(h);
	free(l);
	return log;
}

/* Write the merged directory: into a temporary one beside out, renamed
 * to out once whole, removed on any error, so that out is whole or not
 * there.  MR_OK or MR_FAILED (printed). */
static int
write_merged(const char *out, struct shard *sh, int ndirs, char **header,
	     struct row **rows, const long *nrows)
{
	char *tmp = mr_merge_tmp_beside(out);
	int rc = tmp ? MR_OK : MR_FAILED, f;
	long i;

	/* logs first: a runs.tsv row never names a log that is not there */
	for (i = 0; rc == MR_OK && i < nrows[0]; i++) {
		char *log = row_log(header[0], rows[0][i].line), *dst;

		if (!log)
			continue;
		dst = mr_rd_path(tmp, log);
		if (copy_file(sh[rows[0][i].shard].dir, log, dst) < 0)
			rc = MR_FAILED;
		free(dst);
		free(log);
	}
	if (rc == MR_OK && write_env(tmp, sh, ndirs) < 0)
		rc = MR_FAILED;
	/* runs.tsv last, as a run writes it */
	for (f = 2; rc == MR_OK && f >= 0; f--)
		if (write_file(tmp, files[f], header[f], rows[f], nrows[f]) < 0)
			rc = MR_FAILED;
	if (rc == MR_OK && rename(tmp, out) < 0) {
		weprintf("merge: rename %s to %s:", tmp, out);
		rc = MR_FAILED;
	}
	if (rc != MR_OK && tmp && mr_rmtree(tmp) < 0)
		weprintf("merge: remove %s:", tmp);
	free(tmp);
	return rc;
}

int
mr_merge(const char *out, const char *const *dirs, int ndirs)
{
	struct shard *sh = ecalloc((size_t)ndirs + 1, sizeof *sh);
	char *header[3] = { NULL, NULL, NULL };
	struct row *rows[3] = { NULL, NULL, NULL };
	long nrows[3] = { 0, 0, 0 }, i;
	struct stat st;
	int rc = MR_OK, j, f, loaded = 0, rl;

	for (j = 0; j < ndirs && rc == MR_OK; j++, loaded++) {
		sh[j].dir = dirs[j];
		rl = mr_rd_load(&sh[j].rd, dirs[j]);
		if (rl < 0)
			rc = MR_USAGE;
	}
	if (rc == MR_OK && check_shards(sh, ndirs) < 0)
		rc = MR_USAGE;
	for (f = 0; rc == MR_OK && files[f]; f++)
		if ((nrows[f] = read_rows(sh, ndirs, files[f], &header[f], &rows[f])) < 0 ||
		    !header[f]) {
			if (nrows[f] >= 0)
				weprintf("merge: %s/%s has no header row", sh[0].dir, files[f]);
			nrows[f] = 0;
			rc = MR_USAGE;
		}
	if (rc == MR_OK && check_overlap(sh, rows[0], nrows[0]) < 0)
		rc = MR_USAGE;
	if (rc == MR_OK) {
		struct mr_rd *R = ecalloc((size_t)ndirs, sizeof *R);

		for (j = 0; j < ndirs; j++)
			R[j] = sh[j].rd; /* a view: freed with sh */
		if (mr_merge_check_rows(R, ndirs) < 0)
			rc = MR_USAGE;
		free(R);
	}
	/* every log that is there is one merge will copy, before anything is
	 * made: a shard with a link or a FIFO in place of a log is refused
	 * whole, and leaves no half-merged directory behind */
	for (i = 0; rc == MR_OK && i < nrows[0]; i++) {
		char *log = row_log(header[0], rows[0][i].line);
		int fd;

		if (!log)
			continue;
		fd = open_log(sh[rows[0][i].shard].dir, log, NULL);
		if (fd >= 0)
			close(fd);
		else if (fd != -ENOENT)
			rc = MR_USAGE;
		free(log);
	}
	/* an empty directory is removed and made again below */
	if (rc == MR_OK && stat(out, &st) == 0) {
		if (!S_ISDIR(st.st_mode) || rmdir(out) < 0) {
			weprintf("merge: %s exists and is not an empty directory (choose another --out)", out);
			rc = MR_USAGE;
		}
	}
	if (rc == MR_OK)
		rc = write_merged(out, sh, ndirs, header, rows, nrows);
	for (f = 0; f < 3; f++) {
		free_rows(rows[f], nrows[f]);
		free(header[f]);
	}
	for (j = 0; j < loaded; j++) {
		mr_rd_free(&sh[j].rd);
		free(sh[j].options);
	}
	free(sh);
	return rc;
}
