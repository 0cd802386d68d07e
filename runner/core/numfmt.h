/* numfmt: figures formatted for people ("151 012", "0.5833", "1234.5"). */
#ifndef MR_NUMFMT_H
#define MR_NUMFMT_H

/* Format v for people: integers grouped by thousands with spaces
 * ("151 012"), other values with at most 4 significant digits below 1000
 * and one decimal above.  Returns buf (at least 48 bytes). */
char *mr_fmt_num(char *buf, double v);

#endif
