/* initrd: the guest's initramfs, a cpio archive (newc, uncompressed)
 * written here, so that no cpio is needed: /init (tools/guest/init),
 * /bin/busybox (a static busybox: the guest has no libc of its own until
 * the host's root is mounted), /dev/console, and the kernel's 9p modules
 * in /lib/memrepro-modules/ in load order.
 */
#ifndef MR_INITRD_H
#define MR_INITRD_H

#include "core/util.h"

/* The init script shipped beside the runner (../tools/guest/init in the
 * build tree, ../share/memrepro/guest-init installed), fresh. */
char *mr_initrd_init_path(void);

/* The static busybox: $MEMREPRO_BUSYBOX, else /bin/busybox (Debian's
 * busybox-static).  Fresh path, or NULL with why (missing, or linked
 * dynamically: "install busybox-static (make deps-kernel)"). */
char *mr_initrd_busybox(struct strbuf *why);

/* Write the initramfs to path: init, busybox, modules[0..nmod-1] (each
 * kept under its base name, which orders them).  0, or -1 with why. */
int mr_initrd_write(const char *path, const char *init, const char *busybox,
		    char *const *modules, int nmod, struct strbuf *why);

#endif
