/* chutil: helpers the charts of charts.h and the corpus table share.
 * Private to runner/out/ch*.c, charts.c and corpus.c. */
#ifndef MR_CHUTIL_H
#define MR_CHUTIL_H

#include <stddef.h>
#include <stdio.h>

#include "results/config.h"
#include "core/util.h"
#include "check/values.h"

/* Append s to b as one gnuplot word (blanks become '_'), after a blank
 * when b is not empty. */
void mr_ch_word(struct strbuf *b, const char *s);

/* v of metric as a figure with its unit for a label: MiB for *_kb, s or
 * ms for *_ms, else the number. */
void mr_ch_figure(char *buf, size_t size, const char *metric, double v);

/* A metric's name for a reader ("RSS", "wall time") from the one table
 * of the charts' nouns; a name not in it with its unit suffix dropped and
 * '_' as blanks.  Into buf (at most size bytes); returns buf. */
const char *mr_ch_noun(char *buf, size_t size, const char *metric);

/* A derived TSV next to the images: create (NULL, printed, on failure)
 * and close (0, or -1 printed). */
FILE *mr_ch_create(const char *path);
int mr_ch_close(FILE *f, const char *path);

/* Whether our config c has every pair of the report's config r (an
 * allocator "jemalloc" matches "jemalloc@5.3.0" too). */
int mr_ch_matches(const struct mr_config *r, const struct mr_config *c);

/* The config of k set beside the report's config r: of those that match,
 * one with ok runs first, then the fewest pairs (the case's defaults: an
 * axis directive's key or a tunable left unset), then the first in
 * runs.tsv.  -1: none matches. */
int mr_ch_ours(const struct mr_rd_case *k, const struct mr_config *r);

/* The same among the configs of runtime spec ("node@10.7.0": the
 * report's own program under it); NULL: the model's (no runtime pair),
 * as mr_ch_ours. */
int mr_ch_ours_in(const struct mr_rd_case *k, const struct mr_config *r, const char *spec);

/* The width of s in em of DejaVu Sans (gnuplot's "sans"), estimated by
 * kind of character as tools/chartcheck.py does; of its first max
 * characters (0: all). */
double mr_ch_em(const char *s, int max);

#endif
