/* resume: continuing an interrupted run — see resume.h. */
#include "session/resume.h"
#include "proto/schema.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

void
mr_resume_record_arg(struct strbuf *b, const char *a)
{
	if (b->len)
		sb_add(b, " ");
	for (; *a; a++) {
		if (*a == ' ')
			sb_add(b, "\\s");
		else if (*a == '\\')
			sb_add(b, "\\\\");
		else
			sb_addn(b, a, 1);
	}
}

/* One argument of the record, decoded (owned). */
static char *
decode_arg(const char *tok)
{
	char *a = emalloc(strlen(tok) + 1), *d = a;

	for (; *tok; tok++) {
		if (tok[0] == '\\' && tok[1] == 's') {
			*d++ = ' ';
			tok++;
		} else if (tok[0] == '\\' && tok[1] == '\\') {
			*d++ = '\\';
			tok++;
		} else {
			*d++ = *tok;
		}
	}
	*d = '\0';
	return a;
}

int
mr_resume_argv(const char *dir, const char *cmd, int *lock, char ***argvp,
	       int *argcp)
{
	struct mr_envfp fp;
	const char *rec, *cdir, *cnames;
	char **argv, *copy, *tok, *save = NULL;
	int argc = 0, named = 0;

	if ((*lock = mr_results_lock(dir, "wait until it ends")) < 0 ||
	    mr_results_read_env(dir, &fp) < 0)
		return -1;
	rec = mr_envfp_get(&fp, MR_ENVK_OPTIONS);
	cnames = mr_envfp_get(&fp, MR_ENVK_CASES);
	if (!rec || !cnames) {
		weprintf("--resume %s: " MR_FILE_ENV " records no options: not a run this memrepro can resume",
			 dir);
		mr_envfp_free(&fp);
		return -1;
	}
	cdir = mr_envfp_get(&fp, MR_ENVK_CASES_DIR);
	argv = ecalloc(strlen(rec) + strlen(cnames) + 6, sizeof *argv);
	argv[argc++] = estrdup("memrepro");
	argv[argc++] = estrdup(cmd);
	if (cdir)
		argv[argc++] = esprintf("--cases=%s", cdir);
	copy = estrdup(strcmp(rec, "-") ? rec : "");
	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *a = decode_arg(tok);

		if (cdir && strncmp(a, "--cases=", 8) == 0) {
			free(a); /* the resolved directory above wins */
			continue;
		}
		named |= strcmp(a, "--") == 0;
		argv[argc++] = a;
	}
	free(copy);
	/* Run without names, it ran every case found then: exactly those. */
	if (!named && strcmp(cnames, "-") != 0) {
		argv[argc++] = estrdup("--");
		copy = estrdup(cnames);
		for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
			argv[argc++] = estrdup(tok);
		free(copy);
	}
	mr_envfp_free(&fp);
	*argvp = argv;
	*argcp = argc;
	return 0;
}

/* Keys of env.tsv that may differ between a run and its resume. */
static int
may_differ(const char *key)
{
	/* options: the resume's own are read from it (plus --cases).  Of the
	 * resource limits, RLIMIT_AS and RLIMIT_STACK change what a case
	 * measures (the stack limit is glibc's default thread stack size): a
	 * change of them refuses; the others only decide whether a case can
	 * run at all, and a run that cannot says so in its outcome. */
	return strcmp(key, MR_ENVK_STARTED) == 0 || strcmp(key, MR_ENVK_CASES_DIR) == 0 ||
	       strcmp(key, MR_ENVK_OPTIONS) == 0 || strcmp(key, MR_ENVK_JOBS) == 0 ||
	       strcmp(key, MR_ENVK_OTHER_CPU) == 0 ||
	       strcmp(key, MR_ENVK_RLIMIT_NOFILE) == 0 || strcmp(key, MR_ENVK_RLIMIT_NPROC) == 0 ||
	       strcmp(key, MR_ENVK_RLIMIT_MEMLOCK) == 0 ||
	       strncmp(key, MR_ENVK_MEMORY_CGROUP_, sizeof MR_ENVK_MEMORY_CGROUP_ - 1) == 0 ||
	       strncmp(key, MR_ENVK_KILL_CGROUP_, sizeof MR_ENVK_KILL_CGROUP_ - 1) == 0 ||
	       strncmp(key, MR_ENVK_RESUMED_, sizeof MR_ENVK_RESUMED_ - 1) == 0;
}

int
mr_resume_env(struct mr_results *res, int ndone, const struct mr_envfp *now,
	      FILE *progress)
{
	struct mr_envfp was;
	int i, n = 1, rc = MR_OK;
	char key[32], stamp[32];
	time_t t = time(NULL);
	struct tm tm;

	if (mr_results_read_env(res->dir, &was) < 0)
		return MR_USAGE;
	for (i = 0; rc == MR_OK && i < now->n; i++) {
		const char *v = mr_envfp_get(&was, now->key[i]);

		if (may_differ(now->key[i]) || (v && strcmp(v, now->val[i]) == 0))
			continue;
		weprintf("--resume %s: %s was '%s' when the runs began, is '%s' now: refusing to mix the two (start a new run)",
			 res->dir, now->key[i], v ? v : "(not recorded)", now->val[i]);
		rc = MR_USAGE;
	}
	for (i = 0; rc == MR_OK && i < was.n; i++) {
		if (!may_differ(was.key[i]) && !mr_envfp_get(now, was.key[i])) {
			weprintf("--resume %s: %s was '%s' when the runs began, is not known now: refusing to mix the two",
				 res->dir, was.key[i], was.val[i]);
			rc = MR_USAGE;
		}
		if (strncmp(was.key[i], MR_ENVK_RESUMED_, sizeof MR_ENVK_RESUMED_ - 1) == 0)
			n++;
	}
	mr_envfp_free(&was);
	if (rc != MR_OK)
		return rc;
	gmtime_r(&t, &tm);
	strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(key, sizeof key, MR_ENVK_RESUMED_ "%d", n);
	fprintf(progress, "resuming %s: %d run%s had ended\n", res->dir, ndone,
		ndone == 1 ? "" : "s");
	return mr_results_env_add(res, key, stamp) < 0 ? MR_FAILED : MR_OK;
}
