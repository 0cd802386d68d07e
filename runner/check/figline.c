/* figline: a line of a figures file as words — see figline.h. */
#include "check/figline.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/tsv.h"
#include "core/util.h"
#include "proto/schema.h"

void
mr_fl_line_free(struct line *l)
{
	int i;

	for (i = 0; i < l->n; i++) {
		free(l->w[i].s);
		l->w[i].s = NULL;
	}
	l->n = 0;
}

/* Split the n bytes at s (one line, no newline) into words; a '#' that
 * starts a word starts a comment (foo#2 is one word).  Returns 0, or -1
 * (printed). */
int
mr_fl_split_line(struct line *l, const char *s, size_t n)
{
	size_t i = 0;

	l->n = 0;
	while (i < n) {
		struct strbuf b = {0};
		size_t start;

		if (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') {
			i++;
			continue;
		}
		if (s[i] == '#')
			break;
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) {
			mr_errat(l->path, l->no, (long)i + 1, "control character 0x%02x",
				 (unsigned)(unsigned char)s[i]);
			return -1;
		}
		if (l->n == FIGS_MAX_WORDS) {
			mr_errat(l->path, l->no, (long)i + 1, "more than %d words on a line",
				 FIGS_MAX_WORDS);
			return -1;
		}
		start = i;
		sb_add(&b, "");
		if (s[i] == '"') {
			for (i++; i < n && s[i] != '"'; i++) {
				if (s[i] == '\\' && i + 1 < n && (s[i + 1] == '"' || s[i + 1] == '\\'))
					i++;
				else if ((unsigned char)s[i] < 0x20 && s[i] != '\t')
					break;
				sb_addn(&b, s + i, 1);
			}
			if (i >= n || s[i] != '"') {
				mr_errat(l->path, l->no, (long)start + 1, "unterminated string");
				sb_free(&b);
				return -1;
			}
			i++;
			l->w[l->n].quoted = 1;
		} else {
			while (i < n && s[i] != ' ' && s[i] != '\t' && s[i] != '\r' &&
			       s[i] != '"' && (unsigned char)s[i] >= 0x20 && s[i] != 0x7f)
				sb_addn(&b, s + i++, 1);
			l->w[l->n].quoted = 0;
		}
		l->w[l->n].s = b.s;
		l->w[l->n].col = (int)start + 1;
		l->n++;
	}
	return 0;
}

int
mr_fl_bad(const struct line *l, int w, const char *fmt, const char *arg)
{
	mr_errat(l->path, l->no, w < l->n ? l->w[w].col : 0, fmt, arg);
	return -1;
}

/* Word w is a plain word (not a string). */
int
mr_fl_plain(const struct line *l, int w, const char *what)
{
	if (w >= l->n)
		return mr_fl_bad(l, l->n, "missing %s", what);
	if (l->w[w].quoted)
		return mr_fl_bad(l, w, "expected %s, got a string", what);
	return 0;
}

/* Word w is a string. */
int
mr_fl_quoted(const struct line *l, int w, const char *what)
{
	if (w >= l->n)
		return mr_fl_bad(l, l->n, "missing %s", what);
	if (!l->w[w].quoted)
		return mr_fl_bad(l, w, "expected %s (a \"string\")", what);
	return 0;
}

int
mr_fl_words(const struct line *l, int min, int max)
{
	if (l->n > max)
		return mr_fl_bad(l, max, "unexpected %s at the end of the line", l->w[max].s);
	if (l->n < min)
		return mr_fl_plain(l, l->n, l->n == 1 ? "its arguments" : "more words");
	return 0;
}

/* A metric name into (*ckpt, *metric); a name that is both (user_ms,
 * sys_ms, minflt, majflt) is the run's metric unless at (a checkpoint
 * is named). */
int
mr_fl_metric(const struct line *l, int w, const char *name, int at, int *ckpt, int *metric)
{
	int m;

	if (!at && (m = mr_run_metric(name)) >= 0) {
		*ckpt = 0;
		*metric = m;
		return 0;
	}
	if ((m = mr_ckpt_metric(name)) >= 0) {
		*ckpt = 1;
		*metric = m;
		return 0;
	}
	if ((m = mr_run_metric(name)) >= 0) {
		*ckpt = 0;
		*metric = m;
		return 0;
	}
	return mr_fl_bad(l, w, "unknown metric %s (memrepro help metrics lists them)", name);
}

/* How many of a metric's own unit (KiB, ms, a count) one of unit is;
 * 0: not a unit of that metric. */
double
mr_fl_unit_scale(const char *metric_name, const char *unit)
{
	static const struct { const char *u; double kib; } mem[] = {
		{ "B", 1.0 / 1024 }, { "KiB", 1 }, { "kB", 1000.0 / 1024 },
		{ "KB", 1000.0 / 1024 }, { "MiB", 1024 }, { "MB", 1e6 / 1024 },
		{ "GiB", 1024.0 * 1024 }, { "GB", 1e9 / 1024 },
	};
	size_t n = strlen(metric_name), i;

	if (n > 3 && !strcmp(metric_name + n - 3, "_kb")) {
		for (i = 0; i < sizeof mem / sizeof *mem; i++)
			if (!strcmp(unit, mem[i].u))
				return mem[i].kib;
		return 0;
	}
	if (n > 3 && !strcmp(metric_name + n - 3, "_ms"))
		return !strcmp(unit, "ms") ? 1 : !strcmp(unit, "s") ? 1000 : 0;
	return !strcmp(unit, "-");
}

const char *
mr_fl_unit_list(const char *metric_name)
{
	size_t n = strlen(metric_name);

	if (n > 3 && !strcmp(metric_name + n - 3, "_kb"))
		return "B, KiB, kB, KB, MiB, MB, GiB or GB";
	if (n > 3 && !strcmp(metric_name + n - 3, "_ms"))
		return "ms or s";
	return "- (a count)";
}

/* [A-Za-z0-9_.-]+ from s: how many bytes. */
size_t
mr_fl_repo_word(const char *s)
{
	return strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-");
}
