/* outfile: where compare's and trend's outputs go, and how they are
 * written.
 *
 * Every output file (a table, an image) is written under a temporary
 * name beside it, ".NAME.PID.tmp.EXT" (the extension kept: gnuplot picks
 * its terminal by it), and renamed into place only when complete: a
 * failed or killed writer leaves the old file or none, never a 0-byte PNG
 * or an SVG cut short.  The output directory is never one of the results
 * directories read, nor inside one: a reader's output would become part
 * of the results it reads next time.
 */
#ifndef MR_OUTFILE_H
#define MR_OUTFILE_H

#include <stdio.h>

/* The temporary name of path (fresh string): its directory, then
 * ".BASENAME.PID.tmp.EXT". */
char *mr_of_tmpname(const char *path);

/* Create path's temporary file (any old one removed) for writing; its
 * name into *tmp (fresh string).  NULL after printing why. */
FILE *mr_of_create(const char *path, char **tmp);

/* Close f, and rename tmp to path when everything was written; else
 * remove tmp and path.  Frees tmp.  0, or -1 after printing why. */
int mr_of_commit(FILE *f, char *tmp, const char *path);

/* Is out (existing or not) the directory dir or inside it?  Both
 * resolved (symbolic links, "..") as far as they exist.  0: no, 1: yes. */
int mr_of_inside(const char *out, const char *dir);

/* Refuse (print "--out OUT is inside the results directory DIR: ..."
 * and return -1) an output directory equal to or inside any of
 * dirs[0..n-1]; else 0. */
int mr_of_check_out(const char *out, const char *const *dirs, int n);

#endif
