/* util: the runner's error reporting, allocation and string helpers. */
#ifndef MR_UTIL_H
#define MR_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit statuses of the runner. */
enum {
	MR_OK = 0,      /* everything held */
	MR_FAILED = 1,  /* a regression or a failed run */
	MR_USAGE = 2,   /* usage or input error */
};

/* The program name used in messages ("memrepro"). */
extern const char *argv0;

/* Print "memrepro: <msg>" on stderr; when fmt ends with ':' append
 * " <strerror(errno)>".  eprintf exits with MR_USAGE, weprintf returns. */
_Noreturn void eprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void weprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void vweprintf(const char *fmt, va_list ap);

/* Allocation that cannot fail (exits with a message on ENOMEM). */
void *emalloc(size_t n);
void *ecalloc(size_t n, size_t size);
void *erealloc(void *p, size_t n);
char *estrdup(const char *s);
char *estrndup(const char *s, size_t n);
/* asprintf into a fresh string. */
/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t mr_now_ns(void);

/* Compare versions of dotted numbers ("2.36", "20.20.2") number by
 * number: <0, 0, >0; a version that goes on is the greater ("2.36.1"
 * after "2.36"). */
int mr_dotted_cmp(const char *a, const char *b);

char *esprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A growable string. */
struct strbuf {
	char *s;    /* NUL-terminated, owned */
	size_t len; /* bytes before the NUL */
	size_t cap; /* allocated bytes */
};
void sb_add(struct strbuf *b, const char *s);
void sb_addn(struct strbuf *b, const char *s, size_t n);
void sb_printf(struct strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_free(struct strbuf *b);

/* Split s in place at every sep; returns the number of fields stored in
 * out (at most max; the last field keeps the rest). */
int split(char *s, char sep, char **out, int max);

/* Parse a whole decimal string into *out; 0 or -EINVAL/-ERANGE. */
int parse_ll(const char *s, long long *out);
int parse_double(const char *s, double *out);

/* Create dir and its parents (mode 0755); 0 or -errno. */
int mkdir_p(const char *dir);

/* Output inside a results directory, which may come from elsewhere (a CI
 * artifact) with symbolic links planted in it: mr_mkdir_out is mkdir_p
 * that refuses (-ELOOP) a last component that is a symbolic link;
 * mr_create_out removes whatever is at path (a link is removed, never
 * followed) and creates a fresh file there (O_EXCL | O_NOFOLLOW), or
 * returns NULL with errno set. */
int mr_mkdir_out(const char *dir);
FILE *mr_create_out(const char *path);

/* A file the runner ships: TREE beside its build directory (a source
 * tree: "<exe dir>/../TREE"), else installed as
 * "<exe dir>/../share/memrepro/INSTALLED" (make install).  Owned. */
char *mr_shipped_file(const char *tree, const char *installed);

/* The program execvp would run for name: name itself when it has a '/',
 * else the first executable regular file of PATH's directories (an empty
 * one is the current directory; PATH unset or empty:
 * /usr/local/bin:/usr/bin:/bin).  Fresh, or NULL. */
char *mr_which(const char *name);

#endif
