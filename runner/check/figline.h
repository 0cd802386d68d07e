/* figline: a line of expected/<case>.figures as words, and the checks of
 * one word (a metric, a checkpoint name, a unit, a report's source),
 * private to runner/check/fig*.c (figures.c parses the lines). */
#ifndef MR_FIGLINE_H
#define MR_FIGLINE_H

#include <stddef.h>

/* Words of a line, at most. */
#define FIGS_MAX_WORDS 8

/* One word of a line: its text (fresh) and where it starts.  quoted: it
 * was written "...". */
struct word {
	char *s;
	int col, quoted;
};

/* A line of path (line no) as words. */
struct line {
	const char *path;
	int no;
	struct word w[FIGS_MAX_WORDS];
	int n;
};

/* Free l's words. */
void mr_fl_line_free(struct line *l);

/* Split the n bytes at s (one line, no newline) into words; a '#' that
 * starts a word starts a comment (foo#2 is one word).  Returns 0, or -1
 * (printed). */
int mr_fl_split_line(struct line *l, const char *s, size_t n);

/* Print fmt (with arg) at word w of l (its column; 0 past the end).
 * Returns -1. */
int mr_fl_bad(const struct line *l, int w, const char *fmt, const char *arg);

/* Word w is a plain word (not a string). */
int mr_fl_plain(const struct line *l, int w, const char *what);

/* Word w is a string. */
int mr_fl_quoted(const struct line *l, int w, const char *what);

/* l has min to max words: 0, else -1 (printed). */
int mr_fl_words(const struct line *l, int min, int max);

/* A metric name into (*ckpt, *metric); a name that is both (user_ms,
 * sys_ms, minflt, majflt) is the run's metric unless at (a checkpoint
 * is named). */
int mr_fl_metric(const struct line *l, int w, const char *name, int at, int *ckpt, int *metric);

/* How many of a metric's own unit (KiB, ms, a count) one of unit is;
 * 0: not a unit of that metric. */
double mr_fl_unit_scale(const char *metric_name, const char *unit);

/* The units metric_name may be written in, for a message. */
const char *mr_fl_unit_list(const char *metric_name);

/* [A-Za-z0-9_.-]+ from s: how many bytes. */
size_t mr_fl_repo_word(const char *s);

#endif
