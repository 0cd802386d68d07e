/* config: one point of the matrix, "key=value" pairs sorted by key and
 * joined by commas (DESIGN.md, "config"), and the axes of a set of them.
 */
#ifndef MR_CONFIG_H
#define MR_CONFIG_H

#include <stddef.h>

/* A config: "key=value" pairs sorted by key, joined by commas. */
struct mr_config {
	char *str;  /* the canonical string (owned) */
	int n;      /* number of pairs */
	char **key; /* n keys, sorted, into buf */
	char **val; /* n values, into buf */
	char *buf;  /* storage of keys and values (owned) */
};

/* Parse a canonical config.  Returns 0, or -1 with *why pointing to a
 * static message (pairs must be key=value, keys unique and sorted). */
int mr_config_parse(const char *s, struct mr_config *c, const char **why);

/* The value of key in c, or NULL when c has no such key. */
const char *mr_config_get(const struct mr_config *c, const char *key);

void mr_config_free(struct mr_config *c);

/* Whether two values of a key are the same (NULL: the key is unset). */
int mr_config_same(const char *a, const char *b);

/* An axis: a key whose value differs between the configs of a case.  A
 * config without the key (a glibc tunable left at its default) has the
 * value NULL. */
struct mr_axis {
	const char *key;   /* into a config */
	const char **val;  /* distinct values in order of appearance (owned) */
	int nval;
};

/* The axes of cfg[0..n-1] into a fresh *out, in order of the keys' first
 * appearance; returns how many.  Linear in the pairs of the configs (keys
 * and values hashed).  Free with mr_config_axes_free. */
int mr_config_axes(const struct mr_config *cfg, int n, struct mr_axis **out);
void mr_config_axes_free(struct mr_axis *ax, int n);

/* The versions of a config (docs/formats.md, "Versions in claims"). */
struct mr_config_ver {
	char *alloc;      /* its allocator's name: "jemalloc" of
	                     "jemalloc@5.2.1"; NULL: no allocator key */
	char *alloc_ver;  /* its version: "5.2.1"; of a bare "jemalloc" the
	                     host's; NULL: not known */
	char *libc_ver;   /* its libc's: libc's value, else the host's; NULL:
	                     not known */
	char *kernel;     /* its kernel=W value (a guest's, docs/kernels.md);
	                     NULL: the host's (no pair, or kernel=host) */
	char *kernel_ver; /* that kernel's version ("6.12.117"): the host
	                     callback's for "kernel" (the host's) or
	                     "kernel=W", else W when it is a version; NULL:
	                     not known */
	char *thp;        /* the THP mode it ran under: its kernel.thp, else
	                     the host callback's for "thp" (the host's) or
	                     "thp@kernel=W" (a guest's); NULL: not known */
};

/* The host's version of the allocator called name, of the libc when
 * name is "libc", of the kernel when "kernel", of a guest's kernel when
 * "kernel=W"; the THP mode of the host ("thp") or of a guest
 * ("thp@kernel=W"); NULL when not recorded.  Into buf (size n). */
typedef const char *mr_host_version_fn(void *ctx, const char *name,
				       char *buf, size_t n);

/* The versions of cfg[0..n-1] into a fresh array (free with
 * mr_config_vers_free); host (NULL: none known) gives the host's. */
struct mr_config_ver *mr_config_vers(const struct mr_config *cfg, int n,
				     mr_host_version_fn *host, void *ctx);
void mr_config_vers_free(struct mr_config_ver *v, int n);

/* The short label of config i of cfg[0..ncfg-1]: its pairs whose key is
 * an axis (the full string when there is no axis).  Fresh string. */
char *mr_config_label(const struct mr_config *cfg, int ncfg, int i);

/* The same of config c, given the axes ax[0..nax-1] of its set
 * (mr_config_axes): for many configs, the axes found once. */
char *mr_config_label_of(const struct mr_config *c, const struct mr_axis *ax, int nax);

#endif
