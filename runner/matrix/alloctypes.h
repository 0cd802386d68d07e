/* alloctypes: the allocator table's types alone (alloc.h fills it), for
 * allocrel.h, which fills in an entry of a spec with a version.
 */
#ifndef MR_ALLOCTYPES_H
#define MR_ALLOCTYPES_H

struct mr_registry;
struct mr_registry_entry;

struct mr_alloc {
	char *spec;          /* the config's allocator value: "jemalloc",
	                        "jemalloc@5.2.1"; owned */
	const char *name;    /* the registry name: "jemalloc" */
	const struct mr_registry_entry *entry; /* NULL: not in the registry */
	int preload;         /* 0: the C library itself (nothing preloaded) */
	char *soname;        /* the library as the registry names it
	                        ("libjemalloc.so.2"); owned */
	const char *package; /* Debian package providing it, or NULL */
	char *path;          /* resolved full path (what LD_PRELOAD gets), or
	                        NULL; owned */
	char *version;       /* or NULL; owned */
	char *missing;       /* why it cannot be used, or NULL; owned */
	/* a spec with "@": where its library came from (allocrel.h), all
	   owned, NULL otherwise */
	char *fetched_package; /* the package (package points here) */
	char *release;       /* the release it came from ("sid") */
	char *pkg_version;   /* Debian's version of the package */
	char *sha256;        /* of the .deb */
	char *glibc_need;    /* the highest GLIBC_x.y its library needs */
};

/* The run's allocators. */
struct mr_alloc_tab {
	struct mr_alloc *a;  /* owned, in the order given */
	int n;
};

#endif
