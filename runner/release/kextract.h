/* kextract: what a guest boots, extracted once from a fetched kernel into
 * CACHE/kernel/<kver>_<version>/ (kernel.h): `vmlinux` (the bzImage's
 * payload decompressed with xz, zstd or gzip, its size checked against
 * the one the image appends), `modules/NN-NAME.ko` (the modules 9p
 * needs, decompressed, NN their load order) and `.memrepro-manifest`
 * (the sha256 of the vmlinuz it came from and of every file).  Internal
 * to release/.
 */
#ifndef MR_REL_KEXTRACT_H
#define MR_REL_KEXTRACT_H

#include "core/util.h"
#include "release/ktypes.h"

/* Fill k->vmlinux, ->vmlinux_sha256 and ->modules from the cache entry
 * of k->kver and k->version, made (or made again, when it does not
 * verify) from vmlinuz and the modules under modroot (the unpacked
 * package holding lib/modules/<kver> or usr/lib/modules/<kver>; its
 * modules.builtin in baseroot's, NULL: modroot's, kmod.h).
 * 0, or -1 with why. */
int mr_kextract(struct mr_kernel *k, const char *vmlinuz, const char *modroot,
		const char *baseroot, struct strbuf *why);

/* Whether the cache holds a verified entry for kver and version. */
int mr_kextract_cached(const char *kver, const char *version);


#endif
