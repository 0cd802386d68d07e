#!/bin/sh
# check-aarch64.sh: lib/'s fiber switch proven on aarch64 here (make
# check-aarch64).
#
# Usage: tools/check-aarch64.sh BUILD_DIR PACKAGE...
# Installs the Debian PACKAGEs that are missing (tools/deps.sh: as root
# only), builds lib/, tests/unit/fiber.c and the fiber-stacks case with
# the cross compiler, static (qemu then needs no aarch64 libraries), into
# BUILD_DIR, makes sure qemu-user runs an aarch64 program at all, then
# runs tests/aarch64.bats, which must not skip.  Memory figures under qemu
# are qemu's: the tests check the switch, not them.
# Environment: MAKE (make), BATS (bats), AARCH64_CC (aarch64-linux-gnu-gcc),
# QEMU_AARCH64 (qemu-aarch64).
# Exit status: 0 with a line "check-aarch64: skipped: WHY" where the
# packages cannot be installed or qemu cannot run here; otherwise the
# build's, then the tests'.
set -u

[ $# -ge 1 ] || { echo "usage: tools/check-aarch64.sh BUILD_DIR PACKAGE..." >&2; exit 2; }
b=$1
shift
make=${MAKE:-make}
bats=${BATS:-bats}
cc=${AARCH64_CC:-aarch64-linux-gnu-gcc}
qemu=${QEMU_AARCH64:-qemu-aarch64}

skip() {
	echo "check-aarch64: skipped: $*"
	exit 0
}

sh tools/deps.sh "$@" ||
	skip "needs the Debian packages $*: not all are installed, and they cannot be installed here (see above)"
command -v "$cc" >/dev/null 2>&1 || skip "no cross compiler $cc (Debian package gcc-aarch64-linux-gnu)"
command -v "$qemu" >/dev/null 2>&1 || skip "no $qemu (Debian package qemu-user)"

"$make" B="$b" CC="$cc" LDFLAGS=-static CASE_LIBS=-lpthread \
	"$b/unit/fiber" "$b/cases/fiber-stacks" || exit 1

# A program that does nothing: if qemu cannot run it, it can run nothing
# here (no user emulation in this container, a seccomp filter, ...).
printf 'int main(void) { return 0; }\n' > "$b/probe.c"
"$cc" -static -o "$b/probe" "$b/probe.c" || exit 1
if ! out=$(timeout -k 5 60 "$qemu" "$b/probe" 2>&1); then
	skip "$qemu cannot run an aarch64 program here: ${out:-no message}"
fi

MEMREPRO_AARCH64=1 MEMREPRO_AARCH64_BUILD="$b" QEMU_AARCH64="$qemu" "$bats" tests/aarch64.bats
