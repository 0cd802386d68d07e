/* guestaccel: KVM or TCG for a guest kernel, probed once per kernel and
 * process.
 *
 * KVM where it works with the guest's kernel: /dev/kvm (MEMREPRO_KVM
 * names another device path: tests) must be readable and writable, and a
 * probe guest of that kernel, whose run.sh only exits, must write its end
 * marker within 60 s under `-accel kvm -cpu host` (this machine's PVM
 * /dev/kvm makes qemu abort "failed to set MSR 0x10a" on Debian's
 * kernels).  Otherwise TCG.  MEMREPRO_GUEST_ACCEL=tcg or kvm forces one.
 */
#ifndef MR_GUESTACCEL_H
#define MR_GUESTACCEL_H

/* "kvm" or "tcg" for the kernel vmlinux booted with initrd; dir is a
 * fresh directory for the probe's share (made here).  *why (not owned)
 * says how it was decided. */
const char *mr_guest_accel(const char *vmlinux, const char *initrd, const char *dir,
			   const char **why);

#endif
