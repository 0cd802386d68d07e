/* alloc: the allocators a config can preload, found by soname.
 *
 * No paths are hard-coded: the dynamic loader resolves each soname as it
 * would for the case.  The probe runs in a child (the runner's own process
 * stays clean): the runner re-executes itself with LD_PRELOAD=<soname> and
 * the hidden subcommand "__probe-alloc SONAME", which takes the library's
 * handle with dlopen(RTLD_NOLOAD), its full path from dlinfo(RTLD_DI_LINKMAP)
 * and its version from the library itself (jemalloc's mallctl("version"),
 * tcmalloc's tc_version(), mimalloc's mi_version()), falling back to the
 * real path's ".so." suffix.  Preloading, not a plain dlopen, because
 * jemalloc's initial-exec TLS cannot be dlopen'ed ("cannot allocate memory
 * in static TLS block") — and it is exactly how the cases will load it.
 */
#ifndef MR_ALLOC_H
#define MR_ALLOC_H

enum {
	MR_ALLOC_GLIBC,
	MR_ALLOC_JEMALLOC,
	MR_ALLOC_TCMALLOC,
	MR_ALLOC_MIMALLOC,
	MR_ALLOC_N
};

struct mr_alloc {
	const char *name;    /* "jemalloc" */
	const char *soname;  /* "libjemalloc.so.2" ("libc.so.6" for glibc);
	                        static, or the caller's --alloc string */
	const char *package; /* Debian package providing it (NULL when the
	                        soname was overridden) */
	char *path;          /* resolved full path, or NULL; owned */
	char *version;       /* or NULL; owned */
	char *missing;       /* why it cannot be used, or NULL; owned */
};

/* Allocator names in axis order, NULL-terminated. */
extern const char *const mr_alloc_names[];

/* Index of an allocator name, or -1. */
int mr_alloc_index(const char *name);

/* Fill tab[MR_ALLOC_N]: glibc from the runner's own libc, the others by a
 * probe child each (self_exe: the runner's own path, to re-execute).
 * sonames[i], when not NULL, replaces allocator i's soname (--alloc; not
 * for glibc).  Never fails: an allocator that cannot be used gets its
 * reason in missing ("libjemalloc.so.2 not found by the dynamic loader
 * (Debian package libjemalloc2)"). */
void mr_alloc_resolve(struct mr_alloc *tab, const char *self_exe,
		      const char *const *sonames);

/* Non-zero when s can be given to LD_PRELOAD as one library: no ':',
 * blank or control character, not empty. */
int mr_alloc_valid_soname(const char *s);
void mr_alloc_free(struct mr_alloc *tab);

/* The hidden subcommand, run by the probe child: print
 * "path<TAB>version\n" for soname on stdout, or "error<TAB>msg\n".
 * Returns the exit status. */
int mr_alloc_probe_main(const char *soname);

#endif
