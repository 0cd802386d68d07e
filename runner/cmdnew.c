/* cmdnew: memrepro new NAME [--lang L] — a case's skeleton, written from
 * the shipped templates (etc/new/ in the tree, share/memrepro/new/ once
 * installed) — see cmds.h. */
#include "cmds.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/tsv.h"
#include "core/util.h"
#include "matrix/langs.h"
#include "mr_schema.h"

#define TEMPLATE_MAX (64 * 1024) /* a template is a page of text */
#define NFILES 4
#define PLACEHOLDER "@NAME@"

/* One file of a skeleton: its template, and where it goes (the cases or
 * the expected directory, NAME then ext). */
struct nfile {
	const char *tmpl;
	int expected; /* 0: the cases directory, 1: the expected directory */
	const char *ext;
	mode_t mode;
};

/* Each language's files.  The originals run beside a C model of the same
 * name (docs/originals.md): a runtime language that new offers
 * (matrix/langs.h) has case.c, orig.<ext>, orig.claims, case.figures;
 * sh has no runtime beside the models, so its program is a command
 * (docs/command.md) with claims of its own. */
struct lang {
	const char *name;
	struct nfile f[NFILES]; /* ends at a NULL tmpl */
	char tmpl[32], ext[32]; /* an original's: "orig.js", ".js" */
};

static const struct lang c_lang = {
	"c", { { "case.c", 0, ".c", 0644 }, { "case.claims", 1, ".claims", 0644 },
	       { "case.figures", 1, ".figures", 0644 } }, "", ""
};
static const struct lang sh_lang = {
	"sh", { { "orig.sh", 0, ".sh", 0755 }, { "sh.claims", 1, ".claims", 0644 },
		{ "sh.figures", 1, ".figures", 0644 } }, "", ""
};

/* The skeleton of language name into *l (which its file names point
 * into): 0, or -1 when new offers no such language. */
static int
find_lang(const char *name, struct lang *l)
{
	const struct mr_lang *r = mr_lang_find(name);

	if (strcmp(name, c_lang.name) == 0 || strcmp(name, sh_lang.name) == 0) {
		*l = strcmp(name, c_lang.name) == 0 ? c_lang : sh_lang;
		return 0;
	}
	if (!r || !r->new_offers)
		return -1;
	memset(l, 0, sizeof *l);
	l->name = r->name;
	snprintf(l->tmpl, sizeof l->tmpl, "orig.%s", r->ext);
	snprintf(l->ext, sizeof l->ext, ".%s", r->ext);
	l->f[0] = (struct nfile){ "case.c", 0, ".c", 0644 };
	l->f[1] = (struct nfile){ l->tmpl, 0, l->ext, 0644 };
	l->f[2] = (struct nfile){ "orig.claims", 1, ".claims", 0644 };
	l->f[3] = (struct nfile){ "case.figures", 1, ".figures", 0644 };
	return 0;
}

/* text with every PLACEHOLDER replaced by name (fresh). */
static char *
fill(const char *text, const char *name)
{
	struct strbuf b = { 0 };
	const char *at;

	sb_printf(&b, "%s", "");
	while ((at = strstr(text, PLACEHOLDER)) != NULL) {
		sb_printf(&b, "%.*s%s", (int)(at - text), text, name);
		text = at + strlen(PLACEHOLDER);
	}
	sb_printf(&b, "%s", text);
	return b.s;
}

/* Write text to path, a file that must not exist (O_EXCL: never
 * overwritten, nor a link followed).  0, or -1 after saying why. */
static int
write_new(const char *path, const char *text, mode_t mode)
{
	size_t n = strlen(text), off = 0;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);

	if (fd < 0) {
		if (errno == EEXIST)
			weprintf("new: %s exists: new never overwrites a file", path);
		else
			weprintf("new: %s:", path);
		return -1;
	}
	while (off < n) {
		ssize_t w = write(fd, text + off, n - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			weprintf("new: write %s:", path);
			close(fd);
			unlink(path);
			return -1;
		}
		off += (size_t)w;
	}
	if (close(fd) < 0) {
		weprintf("new: close %s:", path);
		unlink(path);
		return -1;
	}
	return 0;
}

/* The NAME and --lang given: MR_OK, or MR_USAGE after naming the bad one. */
static int
check_args(const char *name, const char *lang, struct lang *l)
{
	struct strbuf want = { 0 };

	if (!mr_name_case(name)) {
		weprintf("new: case name '%s': want %s (lower-case letters, digits and '-')",
			 name, MR_CASE_NAME_RULE);
		return MR_USAGE;
	}
	if (find_lang(lang, l) < 0) {
		sb_add(&want, "c, ");
		mr_langs_list(&want, "%s", ", ", ", ", 1);
		weprintf("new: --lang '%s': want %s or %s", lang, want.s, sh_lang.name);
		sb_free(&want);
		return MR_USAGE;
	}
	return MR_OK;
}

/* What to do next, to stdout. */
static void
next_steps(const struct lang *l, const char *name, const char *const *paths, int n)
{
	int i;

	printf("wrote");
	for (i = 0; i < n; i++)
		printf("%s %s", i ? "," : "", paths[i]);
	printf("\nnext: fill in the header (its report, figures and mechanism), the claim's\n"
	       "citation and the figure, then\n");
	if (strcmp(l->name, sh_lang.name) == 0) {
		printf("  memrepro run --name %s --checkpoints start,filled --out DIR -- sh %s\n"
		       "  memrepro check --from DIR %s\n", name, paths[0], name);
		return;
	}
	printf("  make && build/memrepro check %s\n", name);
	if (strcmp(l->name, c_lang.name) != 0)
		printf("(the original runs beside the model on the runtime axis, runtime=%s: docs/originals.md)\n",
		       l->name);
}

int
mr_cmd_new(const struct mr_args *o, const struct mr_paths *p)
{
	const char *name = o->names[0], *lang = o->lang ? o->lang : "c";
	const char *dirs[2] = { o->cases_dir ? o->cases_dir : "cases",
				o->expected_dir ? o->expected_dir : "expected" };
	struct lang lang_files, *l = &lang_files;
	char *tdir, *paths[NFILES] = { 0 }, *texts[NFILES] = { 0 };
	int i, n, e, rc = MR_OK;
	struct stat st;

	(void)p;
	if ((rc = check_args(name, lang, l)) != MR_OK)
		return rc;
	tdir = mr_shipped_file("etc/new", "new");
	for (n = 0; n < NFILES && l->f[n].tmpl && rc == MR_OK; n++) {
		struct strbuf t = { 0 };
		char *tp = esprintf("%s/%s", tdir, l->f[n].tmpl);

		paths[n] = esprintf("%s/%s%s", dirs[l->f[n].expected], name, l->f[n].ext);
		if (lstat(paths[n], &st) == 0) {
			weprintf("new: %s exists: new never overwrites a file", paths[n]);
			rc = MR_USAGE;
		} else if ((e = mr_read_text(tp, TEMPLATE_MAX, "template", &t)) != 0) {
			/* -1: said by mr_read_text */
			if (e == -ENOENT)
				weprintf("new: template %s is missing (make install puts the templates in share/memrepro/new)",
					 tp);
			rc = MR_USAGE;
		} else {
			texts[n] = fill(t.s, name);
		}
		sb_free(&t);
		free(tp);
	}
	for (i = 0; i < 2 && rc == MR_OK; i++)
		if ((e = mkdir_p(dirs[i])) < 0) {
			errno = -e;
			weprintf("new: mkdir %s:", dirs[i]);
			rc = MR_USAGE;
		}
	for (i = 0; i < n && rc == MR_OK; i++)
		if (write_new(paths[i], texts[i], l->f[i].mode) < 0) {
			/* nothing half-made stays: what this call wrote goes */
			while (i-- > 0)
				unlink(paths[i]);
			rc = MR_USAGE;
		}
	if (rc == MR_OK)
		next_steps(l, name, (const char *const *)paths, n);
	for (i = 0; i < NFILES; i++) {
		free(paths[i]);
		free(texts[i]);
	}
	free(tdir);
	return rc;
}
