/* kernel: Debian's kernels of the releases (the kernel axis, guest/guest.h),
 * fetched through the release machinery (release.h) and made bootable.
 *
 * Which kernel a release has is read from its lists, never written in
 * the code: the metapackage linux-image-amd64 depends on the kernel's
 * package, linux-image-<kver> (bullseye to trixie: the kernel at
 * boot/vmlinuz-<kver>, its modules under lib/modules/<kver> or
 * usr/lib/modules/<kver>).  Where that package ships no kernel (sid's is
 * an empty package), linux-binary-<kver> holds it at
 * usr/lib/modules/<kver>/vmlinuz, linux-modules-<kver> the modules and
 * linux-base-<kver> their modules.builtin.
 *
 * The packages are cached and verified as every release package is; the
 * uncompressed vmlinux (the bzImage's payload, xz, zstd or gzip, found by
 * its boot-protocol header) and the modules a guest needs for 9p
 * (decompressed, in load order, their dependencies read from each
 * module's own "depends=") are extracted once into
 * CACHE/kernel/<kver>_<version>/ with a manifest of their sha256, and
 * verified on every use (extracted again when they do not).
 *
 * Not for measured code: this mallocs, forks and writes files.
 */
#ifndef MR_REL_KERNEL_H
#define MR_REL_KERNEL_H

#include "core/util.h"
#include "release/ktypes.h"


/* The kernel want names: a release ("trixie"), an upstream version or a
 * prefix of whole components of one ("6.12", "6.12.117": the oldest
 * release whose kernel has it), or Debian's version.  Returns MR_REL_OK
 * with *k filled (free with mr_kernel_free), MR_REL_CANNOT with why
 * (offline, a helper failed, the kernel has no 9p), MR_REL_NOVERSION
 * with why naming the kernels there are. */
int mr_kernel_get(const char *want, struct mr_kernel *k, struct strbuf *why);
void mr_kernel_free(struct mr_kernel *k);

/* `memrepro versions kernel`: a row per release (its kernel package,
 * version, upstream, whether cached).  MR_OK, or MR_FAILED when a
 * release's index cannot be had. */
int mr_kernel_cmd_versions(int json);

/* `memrepro fetch kernel@WANT`: MR_OK, MR_FAILED (cannot be had),
 * MR_USAGE (no such kernel). */
int mr_kernel_cmd_fetch(const char *want);

#endif
