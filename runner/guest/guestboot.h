/* guestboot: one guest booted, run and judged by its end marker.
 *
 * qemu (MEMREPRO_QEMU, else qemu-system-x86_64 in PATH) boots the
 * uncompressed vmlinux under KVM or TCG (guestaccel.h), with the host's root shared
 * read-only (9p tag "host") and the guest's share read-write (tag
 * "results"); the console goes to SHARE/console.log.  qemu runs in a
 * process group of its own, killed whole at the deadline.  Success is
 * SHARE/done, the marker the guest's init writes after its run.sh;
 * qemu's exit status says nothing (a panicking guest exits 0 too).
 */
#ifndef MR_GUESTBOOT_H
#define MR_GUESTBOOT_H

#include "core/util.h"

struct mr_guest_boot {
	const char *vmlinux;
	const char *initrd;
	const char *share;   /* absolute, no blank: run.sh is there */
	const char *append;  /* more kernel command line words ("mr.thp=always"), or "" */
	const char *accel;   /* "kvm" (-cpu host) or "tcg" (-cpu max; NULL too) */
	long mem_mib;
	int cpus;
	long timeout_s;
};

/* What a boot gave. */
struct mr_guest_end {
	int marker;      /* 1: SHARE/done was written */
	int status;      /* run.sh's exit status, from the marker */
	int timed_out;   /* killed at the deadline */
	double wall_s;   /* qemu's whole life */
	char *why;       /* no marker: why, with the console's last line (fresh) */
};

/* Boot b; fills *end (free end->why).  0, or -1 when qemu could not be
 * started (why in end->why). */
int mr_guest_boot(const struct mr_guest_boot *b, struct mr_guest_end *end);

/* The last n lines of the console log of share, one line, tabs and
 * newlines made blanks (fresh; "" when none). */
char *mr_guest_console_tail(const char *share, int n);

#endif
