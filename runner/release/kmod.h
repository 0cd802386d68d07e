/* kmod: the kernel modules a guest needs to mount 9p over virtio, found
 * in an unpacked kernel package with their dependencies (each module's
 * own "depends=" of its .modinfo: Debian's packages ship no modules.dep,
 * depmod makes it on install), decompressed, in load order.  Internal to
 * release/.
 */
#ifndef MR_REL_KMOD_H
#define MR_REL_KMOD_H

#include "core/util.h"

/* The modules a guest loads, in the order asked (dependencies first);
 * those marked needed must be a module or built in. */
#define MR_KMOD_WANT "virtio_pci virtio_mmio netfs fscache 9pnet 9pnet_virtio 9p"
#define MR_KMOD_NEED "9pnet 9pnet_virtio 9p"

/* Under modroot's lib/modules/<kver> (or usr/lib/modules/<kver>): the
 * modules of MR_KMOD_WANT that are not built in (modules.builtin, in
 * baseroot's tree of the same layout: sid ships it in linux-base-<kver>;
 * NULL: modroot's) and
 * their dependencies, decompressed (.ko.xz, .ko.zst) into
 * dest/modules/NN-NAME.ko, NN the load order; a line "module
 * modules/NN-NAME.ko SHA256" each appended to man.  0, or -1 with why. */
int mr_kmod_extract(const char *modroot, const char *baseroot, const char *kver, const char *dest,
		    struct strbuf *man, struct strbuf *why);

#endif
