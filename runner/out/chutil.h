/* chutil: helpers the charts of charts.h share.  Private to runner/out/ch*.c
 * and charts.c. */
#ifndef MR_CHUTIL_H
#define MR_CHUTIL_H

#include <stddef.h>
#include <stdio.h>

#include "core/util.h"

/* Append s to b as one gnuplot word (blanks become '_'), after a blank
 * when b is not empty. */
void mr_ch_word(struct strbuf *b, const char *s);

/* v of metric as a figure with its unit for a label: MiB for *_kb, s or
 * ms for *_ms, else the number. */
void mr_ch_figure(char *buf, size_t size, const char *metric, double v);

/* A derived TSV next to the images: create (NULL, printed, on failure)
 * and close (0, or -1 printed). */
FILE *mr_ch_create(const char *path);
int mr_ch_close(FILE *f, const char *path);

#endif
