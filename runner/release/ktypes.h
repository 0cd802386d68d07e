/* ktypes: a kernel ready to boot, the type alone (kernel.h fetches it,
 * kextract.h fills its files). */
#ifndef MR_REL_KTYPES_H
#define MR_REL_KTYPES_H

/* A kernel ready to boot.  Every string fresh. */
struct mr_kernel {
	char *release;  /* the release it came from */
	char *package;  /* the package holding the kernel */
	char *version;  /* Debian's version (6.12.117-1) */
	char *upstream; /* 6.12.117 */
	char *kver;     /* the kernel's release string (6.12.117+deb13-amd64) */
	char *deb_sha256; /* of the package's .deb */
	char *vmlinux;  /* the uncompressed kernel (absolute) */
	char *vmlinux_sha256;
	char **modules; /* the 9p modules, decompressed, in load order */
	int nmodules;
	int fetched;    /* 1: fetched or extracted now */
};

#endif
