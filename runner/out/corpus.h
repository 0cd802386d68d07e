/* corpus: the corpus table (README.md, "Corpus") from results directories
 * and the reports' figures (expected/<case>.figures): per case and printed
 * figure (a metric at a checkpoint, or of the whole run), the report's
 * values per config beside the medians measured here for the configs that
 * match, and the case's claim verdicts.  GitHub markdown on o->out, so
 * that the table in the README is what the command writes and cannot
 * drift from what was measured.
 */
#ifndef MR_CORPUS_H
#define MR_CORPUS_H

#include <stdio.h>

struct mr_corpus_opts {
	const char *const *dirs;  /* results directories: a case is taken
	                             from the first that has it */
	int ndirs;
	const char *expected_dir; /* claims, baselines and figures */
	const char *cases_dir;    /* case binaries (their checkpoints), or NULL */
	FILE *out;
};

/* Write the table.  Returns MR_OK, or MR_USAGE on bad input (printed as
 * file:line:column). */
int mr_corpus(const struct mr_corpus_opts *o);

#endif
