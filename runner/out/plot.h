/* plot: drawing a chart with gnuplot.
 *
 * Each chart kind is one script, plots/<chart>.gp, run as
 * "gnuplot -c <scripts>/<chart>.gp IN OUT ARGS..." (fork and execve
 * through spawn's capture, no shell; gnuplot found on PATH) once for
 * OUT.png (pngcairo) and once for OUT.svg: the script picks the terminal
 * by OUT's extension.  Each image is drawn under a temporary name
 * (out/outfile.h) and renamed when gnuplot succeeded: a chart that failed
 * or timed out ("gnuplot timed out after N s on OUT") leaves no file.  What gnuplot prints (errors, warnings) is shown as
 * "memrepro: gnuplot <script>: <line>"; a chart that gnuplot could not
 * draw makes the plotter's failed count grow, and the caller goes on.
 */
#ifndef MR_PLOT_H
#define MR_PLOT_H

struct mr_plot {
	char *gnuplot;  /* the gnuplot binary (owned) */
	char *scripts;  /* the directory of the .gp scripts (owned) */
	int verbose;    /* print each gnuplot command line */
	long timeout_ms; /* a chart's gnuplot is killed after this (60 s;
	                    MEMREPRO_GNUPLOT_TIMEOUT_MS) */
	int drawn;      /* images written */
	int failed;     /* charts gnuplot could not draw */
	char *python;   /* python3 on PATH, NULL: charts not checked (owned) */
	char *checker;  /* chartcheck.py beside the scripts (owned) */
};

/* The scripts directory when none is given: <exe dir>/../plots in the
 * source tree (build/memrepro), else <exe dir>/../share/memrepro/plots
 * when installed.  Fresh string. */
char *mr_plot_default_dir(const char *exe_dir);

/* Find gnuplot on PATH and check that scripts holds the scripts; find
 * the label check (tools/chartcheck.py from the source tree, or
 * chartcheck.py in the installed scripts' directory) and python3, which
 * each drawn SVG is then held against: a chart that fails it is a warning
 * per problem ("memrepro: chart check: FILE.svg: labels overlap: ..."),
 * and the chart is kept.  Without python3 or the
 * check, charts are not checked (MEMREPRO_CHARTCHECK=0 turns it off).
 * Returns 0, or -1 after printing why (gnuplot not installed: names the
 * Debian package; no scripts). */
int mr_plot_init(struct mr_plot *p, const char *scripts, int verbose);

/* Draw chart (a script name without ".gp") from in into out_base.png and
 * out_base.svg; args: the script's further arguments, NULL-terminated
 * (at most 7: gnuplot passes 9 in all).  Returns 0, or -1 (printed). */
int mr_plot_draw(struct mr_plot *p, const char *chart, const char *in,
		 const char *out_base, const char *const *args);

void mr_plot_free(struct mr_plot *p);

#endif
