/* langs: the runtime languages, one row each — the one place that names
 * them: the spec's word, the originals' extension, an example, the word
 * after '@' each takes, how the host's and a fetched one are had,
 * whether `memrepro new --lang` offers it, whether the default runtime
 * axis has it and whether `memrepro versions` lists it.  runtime.c
 * resolves specs with it; axes.c, configs.c, cmdnew.c, cmdversions.c and
 * the error texts read their lists from it.
 *
 * Not for measured code: the list texts malloc.
 */
#ifndef MR_LANGS_H
#define MR_LANGS_H

#include "core/util.h"

struct mr_runtime;
struct mr_rt_kind;

/* The PATH after the version in a generic host probe's output. */
enum mr_probe_path {
	MR_PROBE_NONE,        /* none */
	MR_PROBE_LIBRARY,     /* the interpreter's library: its sha256 is
	                         recorded (ruby's libruby) */
	MR_PROBE_INTERPRETER, /* the interpreter itself, when the one in PATH
	                         is a wrapper (a pyenv shim): it is what runs
	                         and what is recorded (python) */
};

struct mr_lang {
	const char *name;     /* the spec's word before '@': "ruby" */
	const char *ext;      /* its originals' extension: cases/<case>.rb */
	const char *example;  /* a version spec for the texts: "ruby@3.3" */
	const char *host_exe; /* the host's, found in PATH: "ruby", "python3" */
	int (*word_ok)(const char *w); /* a well-formed word after '@' */
	const char *word_want; /* what word_ok takes, for the error: "ruby@X.Y
	                          (3.3), a full version (3.3.8), ..." */
	const char *probe[5]; /* the generic host's (host_hook NULL): the
	                         arguments after the interpreter that print
	                         VERSION[\tPATH], NULL-terminated */
	const char *version_strip; /* what the probe prints before the
	                              version ("v20.11.1"), or NULL */
	int version_word;     /* the version is the probe's Nth word, from 0
	                         ("openjdk 17.0.15 2025-04-15": 1) */
	int bare_major;       /* a version may be a bare N ("25"), not X.Y */
	enum mr_probe_path probe_path; /* what the probe's PATH is */
	const char *flag;     /* the generic host's fixed flag, NULL: none */
	void (*host_hook)(struct mr_runtime *rt); /* NULL: the generic probe */
	const struct mr_rt_kind *kind; /* Debian's packages (rtkind.h); NULL:
	                                  fetch below */
	void (*fetch)(struct mr_runtime *rt, const char *word); /* kind NULL */
	int new_offers;       /* memrepro new --lang offers it */
	int default_axis;     /* in the runtime axis where none is given, when
	                         the host has host_exe: the interpreters that
	                         run an original as it is; not go (each
	                         toolchain builds the original and the
	                         standard library first) nor redis (a server
	                         the host's python3 drives) */
	int versions;         /* memrepro versions NAME lists it: the host's
	                         and npm's (kind NULL), else each release's
	                         interpreter package (mr_lang_meta,
	                         mr_lang_pkg) */
};

/* The rows, in the order the texts list them; ends at a NULL name. */
extern const struct mr_lang mr_langs[];

/* The language of spec ("ruby", "ruby@W") and its word after '@' in *word
 * (NULL: none, the host's); NULL when spec names no language. */
const struct mr_lang *mr_lang_of(const char *spec, const char **word);

/* The row named name exactly, NULL when none. */
const struct mr_lang *mr_lang_find(const char *name);

/* The metapackage whose upstream version is l's X.Y in each release
 * ("ruby", "python3", "default-jre-headless"); NULL when l is not from
 * Debian's releases (node). */
const char *mr_lang_meta(const struct mr_lang *l);

/* l's interpreter package for its metapackage's upstream version up
 * (fresh): "python3.11-minimal" for 3.11.2, "openjdk-17-jre-headless"
 * for 1.17; NULL when up has no X.Y or l no metapackage. */
char *mr_lang_pkg(const struct mr_lang *l, const char *up);

/* Appends to sb each row's (only those new offers when new_only) fmt,
 * given the name twice ("%s[@VERSION]", "%s, %s@VERSION"), sep between
 * and last before the final one: "node[@VERSION], ... or java[@VERSION]". */
void mr_langs_list(struct strbuf *sb, const char *fmt, const char *sep, const char *last, int new_only);

/* Appends each row's example, ", " between: "node@20, ruby@3.3, ...". */
void mr_langs_examples(struct strbuf *sb);

/* A ruby, python or go word: X.Y[...] in Debian's version characters, or
 * a release's name (lower-case letters); java's (java set) may be N (a
 * feature release: 17) and its versions N[.x...] (25, 17.0.15+6). */
int mr_lang_release_word(const char *w, int java);

#endif
