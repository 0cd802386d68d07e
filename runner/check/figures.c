/* figures: expected/<case>.figures — see figures.h. */
#include "check/figures.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/figline.h"
#include "core/tsv.h"
#include "core/util.h"
#include "matrix/runtime.h"
#include "proto/schema.h"

/* A figures file is a page of text; this is far above any. */
#define FIGS_MAX_BYTES (1u << 20)

int
mr_figs_source_ok(const char *s)
{
	size_t n;

	if (strncmp(s, "seeds/", 6) == 0)
		return s[6] && !strstr(s, "..") && !strchr(s + 6, '/');
	if (strncmp(s, "https://", 8) == 0)
		return s[8] && !strpbrk(s, " \t\"<>");
	/* OWNER/REPO#N: neither word . or .., N without a leading 0 */
	n = mr_fl_repo_word(s);
	if (n == 0 || s[n] != '/' || strspn(s, ".") == n)
		return 0;
	s += n + 1;
	n = mr_fl_repo_word(s);
	if (n == 0 || s[n] != '#' || strspn(s, ".") == n)
		return 0;
	s += n + 1;
	return *s > '0' && *s <= '9' && strspn(s, "0123456789") == strlen(s) && strlen(s) <= 9;
}

static int
parse_figure(struct mr_figs *fs, const struct line *l)
{
	struct mr_fig f;
	const char *why;
	char *end;
	int i;

	memset(&f, 0, sizeof f);
	f.line = l->no;
	f.x = NAN;
	f.col_at = l->n > 1 ? l->w[1].col : 0;
	f.col_cfg = l->n > 2 ? l->w[2].col : 0;
	if (!fs->nsrc)
		return mr_fl_bad(l, 0, "%s before any source line (which seed is it from?)", "figure");
	if (mr_fl_words(l, 6, 7) < 0)
		return -1;
	for (i = 1; i < 6; i++)
		if (mr_fl_plain(l, i, "a word") < 0)
			return -1;
	if (l->n == 7 && mr_fl_quoted(l, 6, "a note") < 0)
		return -1;
	f.src = fs->nsrc - 1;
	if (strcmp(l->w[1].s, "-")) {
		const char *hash = strchr(l->w[1].s, '#');

		f.at = hash ? estrndup(l->w[1].s, (size_t)(hash - l->w[1].s)) : estrdup(l->w[1].s);
		if (!mr_name_checkpoint(f.at)) {
			free(f.at);
			return mr_fl_bad(l, 1, "%s is not a checkpoint name (" MR_CKPT_NAME_RULE ", NAME#N for "
				   "its Nth occurrence, or - for a whole run)", l->w[1].s);
		}
		if (hash) {
			errno = 0;
			f.seq = strtol(hash + 1, &end, 10);
			if (*end || end == hash + 1 || errno || f.seq < 1 || f.seq > 1000000) {
				free(f.at);
				return mr_fl_bad(l, 1, "%s: expected an occurrence number (1, 2, ...) after #",
					   l->w[1].s);
			}
		}
		f.x = mr_figs_x(fs, f.at);
	}
	if (strcmp(l->w[2].s, "-") && mr_config_parse(l->w[2].s, &f.cfg, &why) < 0) {
		free(f.at);
		mr_errat(l->path, l->no, l->w[2].col, "config %s: %s", l->w[2].s, why);
		return -1;
	}
	if (mr_fl_metric(l, 3, l->w[3].s, f.at != NULL, &f.ckpt, &f.metric) < 0)
		goto fail;
	if (f.at && !f.ckpt) {
		mr_fl_bad(l, 3, "%s is a metric of the whole run: write - for its checkpoint", l->w[3].s);
		goto fail;
	}
	if (!f.at && f.ckpt) {
		mr_fl_bad(l, 3, "%s is a checkpoint metric: name the checkpoint", l->w[3].s);
		goto fail;
	}
	errno = 0;
	f.value = strtod(l->w[4].s, &end);
	if (*end || end == l->w[4].s || errno || !isfinite(f.value)) {
		mr_fl_bad(l, 4, "%s is not a number (as printed, without thousands separators)",
		    l->w[4].s);
		goto fail;
	}
	if (!(f.scale = mr_fl_unit_scale(l->w[3].s, l->w[5].s))) {
		mr_errat(l->path, l->no, l->w[5].col, "unit %s is not one of %s (for %s)",
			 l->w[5].s, mr_fl_unit_list(l->w[3].s), l->w[3].s);
		goto fail;
	}
	f.unit = estrdup(l->w[5].s);
	f.printed = estrdup(l->w[4].s);
	f.note = l->n == 7 ? estrdup(l->w[6].s) : NULL;
	fs->f = erealloc(fs->f, sizeof *fs->f * (size_t)(fs->n + 1));
	fs->f[fs->n++] = f;
	return 0;
fail:
	free(f.at);
	mr_config_free(&f.cfg);
	return -1;
}

static int
parse_key(struct mr_figs *fs, const struct line *l)
{
	const char *s, *at, *better;
	char *name;
	int rc;

	if (fs->has_key)
		return mr_fl_bad(l, 0, "a second %s line (one key figure per case)", "key");
	if (mr_fl_words(l, 3, 3) < 0 || mr_fl_plain(l, 1, "a metric") < 0 || mr_fl_plain(l, 2, "lower or higher") < 0)
		return -1;
	s = l->w[1].s ? l->w[1].s : ""; /* mr_fl_words() made sure of it */
	at = strchr(s, '@');
	name = at ? estrndup(s, (size_t)(at - s)) : estrdup(s);
	rc = mr_fl_metric(l, 1, name, at != NULL, &fs->key_ckpt, &fs->key_metric);
	free(name);
	if (rc < 0)
		return -1;
	if (at && !fs->key_ckpt)
		return mr_fl_bad(l, 1, "%s: a metric of the whole run has no checkpoint", s);
	if (!at && fs->key_ckpt)
		return mr_fl_bad(l, 1, "%s: a checkpoint metric needs @CHECKPOINT (or @ for the last)", s);
	if (at && at[1] && !mr_name_checkpoint(at + 1))
		return mr_fl_bad(l, 1, "%s: not a checkpoint name after @", s);
	better = l->w[2].s ? l->w[2].s : "";
	if (!strcmp(better, "lower"))
		fs->key_lower = 1;
	else if (strcmp(better, "higher"))
		return mr_fl_bad(l, 2, "expected lower or higher (which is better), got %s", better);
	fs->key_checkpoint = at && at[1] ? estrdup(at + 1) : NULL;
	fs->has_key = 1;
	fs->key_line = l->no;
	return 0;
}

/* One line that is not empty. */
static int
parse_line(struct mr_figs *fs, const struct line *l)
{
	const char *d = l->w[0].s;

	if (l->w[0].quoted)
		return mr_fl_bad(l, 0, "expected a directive, got a string%s", "");
	if (!strcmp(d, "figure"))
		return parse_figure(fs, l);
	if (!strcmp(d, "key"))
		return parse_key(fs, l);
	if (!strcmp(d, "source")) {
		if (mr_fl_words(l, 3, 3) < 0 || mr_fl_plain(l, 1, "a report") < 0 ||
		    mr_fl_quoted(l, 2, "how the chart names the report") < 0)
			return -1;
		if (!mr_figs_source_ok(l->w[1].s))
			return mr_fl_bad(l, 1, "%s: a report is cited as seeds/FILE, OWNER/REPO#N (a GitHub issue or pull request) or an https:// address",
				   l->w[1].s);
		fs->src = erealloc(fs->src, sizeof *fs->src * (size_t)(fs->nsrc + 1));
		fs->src_label = erealloc(fs->src_label, sizeof *fs->src_label * (size_t)(fs->nsrc + 1));
		fs->src[fs->nsrc] = estrdup(l->w[1].s);
		fs->src_label[fs->nsrc++] = estrdup(l->w[2].s);
		return 0;
	}
	if (!strcmp(d, "rounds")) {
		if (fs->xprefix || fs->xround)
			return mr_fl_bad(l, 0, "a second %s line", "x or rounds");
		if (mr_fl_words(l, 2, 2) < 0 || mr_fl_plain(l, 1, "a unit") < 0)
			return -1;
		fs->xround = 1;
		fs->xunit = estrdup(l->w[1].s);
		return 0;
	}
	if (!strcmp(d, "x")) {
		if (fs->xprefix || fs->xround)
			return mr_fl_bad(l, 0, "a second %s line", "x or rounds");
		if (fs->n)
			return mr_fl_bad(l, 0, "%s after the first figure (the figures' x comes from it)", "x");
		if (mr_fl_words(l, 3, 4) < 0 || mr_fl_plain(l, 1, "a checkpoint prefix") < 0 ||
		    mr_fl_plain(l, 2, "a unit") < 0 ||
		    (l->n == 4 && mr_fl_quoted(l, 3, "what the unit is, quoted") < 0))
			return -1;
		if (!mr_name_checkpoint(l->w[1].s))
			return mr_fl_bad(l, 1, "%s: not the start of a checkpoint name", l->w[1].s);
		fs->xprefix = estrdup(l->w[1].s);
		fs->xunit = estrdup(l->w[2].s);
		fs->xclock = l->n == 4 ? estrdup(l->w[3].s) : NULL;
		return 0;
	}
	if (!strcmp(d, "panels")) {
		if (mr_fl_words(l, 2, 2) < 0 || mr_fl_plain(l, 1, "an axis") < 0)
			return -1;
		free(fs->panels);
		fs->panels = estrdup(l->w[1].s);
		fs->panels_line = l->no;
		return 0;
	}
	if (!strcmp(d, "compare")) {
		if (mr_fl_words(l, 2, 2) < 0 || mr_fl_plain(l, 1, "total or growth") < 0)
			return -1;
		if (strcmp(l->w[1].s, "growth") && strcmp(l->w[1].s, "total"))
			return mr_fl_bad(l, 1, "expected total or growth, got %s", l->w[1].s);
		fs->growth = !strcmp(l->w[1].s, "growth");
		return 0;
	}
	if (!strcmp(d, "runtime")) {
		const char *v, *at;

		if (fs->runtime)
			return mr_fl_bad(l, 0, "a second %s line", "runtime");
		if (mr_fl_words(l, 2, 2) < 0 || mr_fl_plain(l, 1, "a runtime") < 0)
			return -1;
		v = l->w[1].s;
		/* a runtime kind's (matrix/runtime.c) at a dotted version */
		at = strchr(v, '@');
		if (!at || !mr_runtime_is_spec(v) || !at[1] || strspn(at + 1, "0123456789.") != strlen(at + 1))
			return mr_fl_bad(l, 1, "%s: want node@VERSION, ruby@VERSION, python@VERSION, go@VERSION, redis@VERSION or java@VERSION (the report's runtime)", v);
		fs->runtime = estrdup(v);
		fs->runtime_line = l->no;
		return 0;
	}
	if (!strcmp(d, "note")) {
		if (mr_fl_words(l, 2, 2) < 0 || mr_fl_quoted(l, 1, "the note") < 0)
			return -1;
		fs->note = erealloc(fs->note, sizeof *fs->note * (size_t)(fs->nnote + 1));
		fs->note[fs->nnote++] = estrdup(l->w[1].s);
		return 0;
	}
	return mr_fl_bad(l, 0, "unknown directive %s (source, key, x, panels, compare, runtime, note, figure)", d);
}

/* A checkpoint one config's figures of one metric name more than once
 * without a number (foo, foo, gc, foo) is its occurrences in turn: foo#1,
 * foo#2, gc, foo#3. */
static void
number_occurrences(struct mr_figs *fs)
{
	int i, j;

	for (i = 0; i < fs->n; i++) {
		struct mr_fig *g = &fs->f[i];
		long occ = 0, tot = 0;

		if (!g->at || g->seq)
			continue;
		for (j = 0; j < fs->n; j++) {
			const struct mr_fig *h = &fs->f[j];

			if (h->at && !h->seq && !strcmp(h->at, g->at) && h->ckpt == g->ckpt &&
			    h->metric == g->metric &&
			    !strcmp(h->cfg.n ? h->cfg.str : "", g->cfg.n ? g->cfg.str : "")) {
				tot++;
				occ += j <= i;
			}
		}
		if (tot > 1)
			g->nth = occ;
	}
	for (i = 0; i < fs->n; i++)
		if (fs->f[i].nth) {
			fs->f[i].seq = fs->f[i].nth;
			fs->f[i].nth = 0;
		}
}

int
mr_figs_parse(const char *path, const char *buf, size_t len, struct mr_figs *fs)
{
	struct line l;
	size_t pos = 0;
	int rc = 0;

	memset(fs, 0, sizeof *fs);
	memset(&l, 0, sizeof l);
	fs->path = estrdup(path);
	fs->panels = estrdup("allocator");
	l.path = path;
	while (pos < len && rc == 0) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (buf + pos)) : len - pos;

		l.no++;
		if (memchr(buf + pos, '\0', n)) {
			mr_errat(path, l.no, 0, "NUL byte in a text file");
			rc = -1;
		} else if ((rc = mr_fl_split_line(&l, buf + pos, n)) == 0 && l.n) {
			rc = parse_line(fs, &l);
		}
		mr_fl_line_free(&l);
		pos += n + 1;
	}
	if (rc < 0) {
		mr_figs_free(fs);
		return -1;
	}
	number_occurrences(fs);
	return 0;
}

int
mr_figs_load(const char *expected_dir, const char *kase, struct mr_figs *fs)
{
	size_t n = strlen(expected_dir);
	struct strbuf b = {0};
	char *path;
	int rc;

	while (n > 1 && expected_dir[n - 1] == '/')
		n--;
	path = esprintf("%.*s/%s.figures", (int)n, expected_dir, kase);
	rc = mr_read_text(path, FIGS_MAX_BYTES, "figures file", &b);

	if (rc == -ENOENT) {
		memset(fs, 0, sizeof *fs);
		fs->panels = estrdup("allocator");
		free(path);
		return 1;
	}
	if (rc < 0) {
		memset(fs, 0, sizeof *fs);
		free(path);
		return -1;
	}
	rc = mr_figs_parse(path, b.s, b.len, fs);
	sb_free(&b);
	free(path);
	return rc;
}

void
mr_figs_free(struct mr_figs *fs)
{
	int i;

	for (i = 0; i < fs->n; i++) {
		free(fs->f[i].at);
		free(fs->f[i].unit);
		free(fs->f[i].printed);
		free(fs->f[i].note);
		mr_config_free(&fs->f[i].cfg);
	}
	for (i = 0; i < fs->nsrc; i++) {
		free(fs->src[i]);
		free(fs->src_label[i]);
	}
	for (i = 0; i < fs->nnote; i++)
		free(fs->note[i]);
	free(fs->f);
	free(fs->src);
	free(fs->src_label);
	free(fs->note);
	free(fs->path);
	free(fs->key_checkpoint);
	free(fs->xprefix);
	free(fs->xunit);
	free(fs->xclock);
	free(fs->panels);
	free(fs->runtime);
	memset(fs, 0, sizeof *fs);
}

double
mr_figs_x(const struct mr_figs *fs, const char *checkpoint)
{
	size_t n;
	char *end;
	double x;

	if (!fs->xprefix || !checkpoint)
		return NAN;
	n = strlen(fs->xprefix);
	if (strncmp(checkpoint, fs->xprefix, n) || !checkpoint[n])
		return NAN;
	errno = 0;
	x = strtod(checkpoint + n, &end);
	return *end || errno || !isfinite(x) ? NAN : x;
}

int
mr_figs_check(const struct mr_figs *fs, const struct mr_config *cfg, int ncfg,
	      const char *const *names, int nnames)
{
	int i, j, l;

	for (i = 0; i < fs->n; i++) {
		const struct mr_fig *f = &fs->f[i];

		for (j = 0; j < f->cfg.n && ncfg; j++) {
			/* an axis of the environment (allocator, libc, a tunable,
			 * an allocator's option...) is in the runs only where the
			 * command line had it: its figure is then not measured */
			if (strchr(f->cfg.key[j], '.') || mr_name_reserved(f->cfg.key[j]))
				continue;
			for (l = 0; l < ncfg && !mr_config_get(&cfg[l], f->cfg.key[j]); l++)
				;
			if (l == ncfg) {
				mr_errat(fs->path, f->line, f->col_cfg,
					 "unknown parameter \"%s\" (no run of this case has it)",
					 f->cfg.key[j]);
				return -1;
			}
		}
		for (l = 0; f->at && names && l < nnames && strcmp(names[l], f->at); l++)
			;
		if (f->at && names && l == nnames) {
			mr_errat(fs->path, f->line, f->col_at,
				 "no checkpoint \"%s\" in this case (its --describe)", f->at);
			return -1;
		}
	}
	for (l = 0; fs->panels_line && l < ncfg && !mr_config_get(&cfg[l], fs->panels); l++)
		;
	if (fs->panels_line && ncfg && l == ncfg) {
		mr_errat(fs->path, fs->panels_line, 8,
			 "panels: no run of this case has the parameter \"%s\"", fs->panels);
		return -1;
	}
	if (fs->key_checkpoint && names) {
		for (l = 0; l < nnames && strcmp(names[l], fs->key_checkpoint); l++)
			;
		if (l == nnames) {
			mr_errat(fs->path, fs->key_line, 5, "key: no checkpoint \"%s\" in this case",
				 fs->key_checkpoint);
			return -1;
		}
	}
	return 0;
}
