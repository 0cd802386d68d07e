/* guestaccel: KVM or TCG per guest kernel — see guestaccel.h. */
#include "guest/guestaccel.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "guest/guestboot.h"

#define PROBE_S 60
#define MEMO 16

/* The answers of this process, per kernel. */
static struct {
	char *vmlinux;
	const char *accel;
	char *why;
} memo[MEMO];
static int nmemo;

/* Boot the probe guest under KVM: 0 when it wrote its marker, else -1
 * with *why (fresh). */
static int
probe(const char *vmlinux, const char *initrd, const char *dir, char **why)
{
	struct mr_guest_boot b = { 0 };
	struct mr_guest_end e = { 0 };
	char *script = esprintf("%s/run.sh", dir);
	FILE *f;
	int rc = -1;

	if (mkdir_p(dir) < 0 || !(f = fopen(script, "we"))) {
		*why = esprintf("KVM not probed: %s: %s", dir, strerror(errno));
		free(script);
		return -1;
	}
	fputs("#!/bin/sh\n# memrepro's KVM probe (guest/guestaccel.c): boot, then end\nexit 0\n", f);
	fclose(f);
	b.vmlinux = vmlinux;
	b.initrd = initrd;
	b.share = dir;
	b.append = "";
	b.accel = "kvm";
	b.mem_mib = 256;
	b.cpus = 1;
	b.timeout_s = PROBE_S;
	if (mr_guest_boot(&b, &e) == 0 && e.marker) {
		*why = esprintf("KVM: a probe guest of this kernel booted in %.1f s", e.wall_s);
		rc = 0;
	} else {
		*why = esprintf("TCG: a probe guest under KVM failed: %s",
				e.why ? e.why : "qemu could not be started");
	}
	free(e.why);
	free(script);
	return rc;
}

const char *
mr_guest_accel(const char *vmlinux, const char *initrd, const char *dir, const char **why)
{
	const char *force = getenv("MEMREPRO_GUEST_ACCEL"), *dev = getenv("MEMREPRO_KVM");
	int i;

	if (force && (strcmp(force, "tcg") == 0 || strcmp(force, "kvm") == 0)) {
		*why = "MEMREPRO_GUEST_ACCEL";
		return strcmp(force, "kvm") == 0 ? "kvm" : "tcg";
	}
	for (i = 0; i < nmemo; i++)
		if (strcmp(memo[i].vmlinux, vmlinux) == 0) {
			*why = memo[i].why;
			return memo[i].accel;
		}
	if (nmemo == MEMO) {
		*why = "TCG: too many kernels to probe";
		return "tcg";
	}
	if (!dev || !*dev)
		dev = "/dev/kvm";
	memo[nmemo].vmlinux = estrdup(vmlinux);
	if (access(dev, R_OK | W_OK) < 0) {
		memo[nmemo].accel = "tcg";
		memo[nmemo].why = esprintf("TCG: %s: %s", dev, strerror(errno));
	} else {
		memo[nmemo].accel = probe(vmlinux, initrd, dir, &memo[nmemo].why) == 0 ? "kvm" : "tcg";
	}
	*why = memo[nmemo].why;
	return memo[nmemo++].accel;
}
