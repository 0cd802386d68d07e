#include "out/plot.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "out/outfile.h"
#include "proc/capture.h"
#include "core/util.h"

/* A chart of a large results directory takes seconds; one that takes a
 * minute is stuck. */
#define GNUPLOT_TIMEOUT_MS 60000
#define GNUPLOT_OUTPUT_MAX (1u << 20)

extern char **environ;

static int
is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

char *
mr_plot_default_dir(const char *exe_dir)
{
	char *p = esprintf("%s/../plots/series.gp", exe_dir);

	char *dir, *real;

	dir = is_file(p) ? esprintf("%s/../plots", exe_dir)
			 : esprintf("%s/../share/memrepro/plots", exe_dir);
	free(p);
	/* "/usr/share/memrepro/plots" reads better than "/usr/bin/../share/..." */
	real = realpath(dir, NULL);
	if (real) {
		free(dir);
		dir = estrdup(real);
		free(real);
	}
	return dir;
}

/* The label check: python3 and chartcheck.py (the source tree's
 * tools/, else beside the installed scripts). */
static void
find_checker(struct mr_plot *p)
{
	const char *off = getenv("MEMREPRO_CHARTCHECK");
	char *c;

	if (off && !strcmp(off, "0"))
		return;
	c = esprintf("%s/../tools/chartcheck.py", p->scripts);
	if (!is_file(c)) {
		free(c);
		c = esprintf("%s/chartcheck.py", p->scripts);
	}
	if (is_file(c) && (p->python = mr_which("python3")))
		p->checker = c;
	else
		free(c);
}

int
mr_plot_init(struct mr_plot *p, const char *scripts, int verbose)
{
	const char *tmo;
	char *probe;

	memset(p, 0, sizeof *p);
	p->verbose = verbose;
	p->timeout_ms = GNUPLOT_TIMEOUT_MS;
	/* a test's way to make a chart time out without waiting a minute */
	if ((tmo = getenv("MEMREPRO_GNUPLOT_TIMEOUT_MS")))
		p->timeout_ms = strtol(tmo, NULL, 10);
	if (p->timeout_ms <= 0)
		p->timeout_ms = GNUPLOT_TIMEOUT_MS;
	probe = esprintf("%s/series.gp", scripts);
	if (!is_file(probe)) {
		weprintf("no gnuplot scripts in %s (give --plots DIR)", scripts);
		free(probe);
		return -1;
	}
	free(probe);
	p->gnuplot = mr_which("gnuplot");
	if (!p->gnuplot) {
		weprintf("gnuplot not found on PATH: no charts (Debian package gnuplot-nox)");
		return -1;
	}
	p->scripts = estrdup(scripts);
	find_checker(p);
	return 0;
}

/* Print gnuplot's output, one message line each: the scripts plot no
 * element without points, so any warning is worth reading. */
static void
show(const char *script, const char *text)
{
	const char *s = text, *nl;

	for (; *s; s = nl + 1) {
		nl = strchr(s, '\n');
		if (!nl)
			nl = s + strlen(s);
		if (nl > s)
			weprintf("gnuplot %s: %.*s", script, (int)(nl - s), s);
		if (!*nl)
			break;
	}
}

/* A complete image: a regular file with something in it. */
static int
is_image(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
}

/* Draw into tmp (the image's temporary name), named out in messages. */
static int
draw_one(struct mr_plot *p, const char *script, const char *in,
	 const char *out, const char *tmp, const char *const *args)
{
	const char *argv[16];
	struct strbuf msg = { 0 };
	int n = 0, st = 0, rc, i;

	argv[n++] = p->gnuplot;
	argv[n++] = "-c";
	argv[n++] = script;
	argv[n++] = in;
	argv[n++] = tmp;
	for (i = 0; args && args[i] && n < 14; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	if (p->verbose) {
		fprintf(stderr, "# exec:");
		for (i = 0; i < n; i++)
			fprintf(stderr, " '%s'", argv[i]);
		fputc('\n', stderr);
	}
	sb_add(&msg, "");
	rc = mr_spawn_capture((char *const *)argv, environ, p->timeout_ms,
			      GNUPLOT_OUTPUT_MAX, 2, &msg, &st);
	if (rc == -ETIMEDOUT) {
		weprintf("gnuplot timed out after %g s on %s", p->timeout_ms / 1000.0, out);
	} else if (rc < 0) {
		errno = -rc;
		weprintf("gnuplot %s -> %s:", script, out);
	} else {
		show(script, msg.s);
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			weprintf("gnuplot %s -> %s: failed (status %d)", script, out,
				 WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
			rc = -1;
		} else if (!is_image(tmp)) {
			weprintf("gnuplot %s: wrote no %s", script, out);
			rc = -1;
		} else if (rename(tmp, out) < 0) {
			weprintf("rename %s to %s:", tmp, out);
			rc = -1;
		}
	}
	if (rc < 0)
		unlink(tmp);
	sb_free(&msg);
	return rc < 0 ? -1 : 0;
}

/* Hold the SVG svg against the label check: each problem a warning. */
static void
check_one(struct mr_plot *p, const char *svg)
{
	const char *argv[] = { p->python, p->checker, svg, NULL };
	struct strbuf msg = { 0 };
	const char *s, *nl;
	int st = 0;

	sb_add(&msg, "");
	if (mr_spawn_capture((char *const *)argv, environ, p->timeout_ms,
			     GNUPLOT_OUTPUT_MAX, 2, &msg, &st) < 0 ||
	    !WIFEXITED(st) || WEXITSTATUS(st) == 0) {
		sb_free(&msg);
		return;
	}
	for (s = msg.s; *s; s = nl + 1) {
		nl = strchr(s, '\n');
		if (!nl)
			nl = s + strlen(s);
		if (nl > s)
			weprintf("chart check: %.*s", (int)(nl - s), s);
		if (!*nl)
			break;
	}
	sb_free(&msg);
}

int
mr_plot_draw(struct mr_plot *p, const char *chart, const char *in,
	     const char *out_base, const char *const *args)
{
	static const char *const ext[] = { "png", "svg" };
	char *script = esprintf("%s/%s.gp", p->scripts, chart);
	size_t i;
	int rc = 0;

	for (i = 0; i < sizeof ext / sizeof ext[0]; i++) {
		char *out = esprintf("%s.%s", out_base, ext[i]);
		char *tmp = mr_of_tmpname(out);

		unlink(out); /* never leave a stale image behind */
		unlink(tmp);
		if (draw_one(p, script, in, out, tmp, args) < 0)
			rc = -1;
		else
			p->drawn++;
		if (rc == 0 && p->checker && !strcmp(ext[i], "svg"))
			check_one(p, out);
		free(tmp);
		free(out);
	}
	if (rc < 0)
		p->failed++;
	free(script);
	return rc;
}

void
mr_plot_free(struct mr_plot *p)
{
	free(p->gnuplot);
	free(p->scripts);
	free(p->python);
	free(p->checker);
	memset(p, 0, sizeof *p);
}
