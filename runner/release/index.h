/* index: the versions of a package one release offers, as a source
 * (source.h) reads them.  Types only.  Internal to release/. */
#ifndef MR_REL_INDEX_H
#define MR_REL_INDEX_H

/* Versions of one package one release offers (more than one only when a
 * directory source holds several). */
#define MR_REL_CAND_MAX 8

struct mr_rel_cand {
	char *version; /* Debian's */
	char *sha256;  /* the index's (apt), the file's (directory source) */
	char *path;    /* directory source: the .deb; apt: NULL */
};

struct mr_rel_index {
	int n;
	struct mr_rel_cand c[MR_REL_CAND_MAX];
};

#endif
