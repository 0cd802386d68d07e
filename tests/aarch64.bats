#!/usr/bin/env bats
# lib/'s fiber switch on aarch64 (mr_fiber.c's AAPCS64 assembly), run here
# under qemu-user: tests/unit/fiber.c and the fiber-stacks case, built
# static for aarch64 by make check-aarch64 into build-aarch64/.  Memory
# figures under qemu are qemu's, so only the switch is checked: every
# fiber entered, resumed and finished, its frames intact on its own
# stack, and every callee-saved register (x19-x29, d8-d15) and sp the
# same after each switch as before it.  The same test runs natively too.
# Skipped, with the reason, where qemu-aarch64 or that build is absent;
# under make check-aarch64 (MEMREPRO_AARCH64=1) their absence fails.

load test_helper

A64="$ROOT/${MEMREPRO_AARCH64_BUILD:-build-aarch64}"
QEMU=${QEMU_AARCH64:-qemu-aarch64}
# The switch is not for sanitizers (mr_fiber.h): the plain build's test.
NATIVE="$ROOT/build/unit/fiber"

A64_REGS="20 checked at each: x19 x20 x21 x22 x23 x24 x25 x26 x27 x28 x29 d8 d9 d10 d11 d12 d13 d14 d15 sp"
X86_REGS="7 checked at each: rbx rbp r12 r13 r14 r15 sp"

# need_aarch64 FILE...: qemu and the aarch64 build of FILEs are there, or
# the test is skipped (fails under make check-aarch64).
need_aarch64() {
	local why='' f
	if ! command -v "$QEMU" >/dev/null 2>&1; then
		why="no $QEMU (Debian package qemu-user; make check-aarch64 installs it as root)"
	fi
	for f in "$@"; do
		[ -n "$why" ] || [ -x "$A64/$f" ] || why="$A64/$f not built (make check-aarch64 builds it)"
	done
	[ -n "$why" ] || return 0
	[ -z "${MEMREPRO_AARCH64:-}" ] || { echo "$why"; return 1; }
	skip "$why"
}

# fiber_report ARCH NFIBERS ROUNDS REGS: $lines is the test's report of
# NFIBERS fibers over ROUNDS rounds, everything intact.
fiber_report() {
	local arch=$1 n=$2 rounds=$3 regs=$4 i
	printf '%s\n' "${lines[@]}"
	[ "${lines[0]}" = "arch $arch, assembly switch" ]
	for ((i = 0; i < n; i++)); do
		[ "${lines[i + 1]}" = "fiber $i: entered 1, resumed $rounds, finished 1, stack ok, registers ok" ]
	done
	[ "${lines[n + 1]}" = "main: $((n * (rounds + 1))) switches, order ok, registers ok ($regs)" ]
	[ "${lines[n + 2]}" = ok ]
	[ "${#lines[@]}" -eq $((n + 3)) ]
}

@test "natively: every fiber entered, resumed and finished, stacks and callee-saved registers intact" {
	case $(uname -m) in
	x86_64) regs=$X86_REGS ;;
	aarch64) regs=$A64_REGS ;;
	*) skip "no register check on $(uname -m) (tests/unit/fiber.c)" ;;
	esac
	run -0 timeout -k 5 60 "$NATIVE" 3 50
	fiber_report "$(uname -m)" 3 50 "$regs"
	run -2 "$NATIVE" 0
	[ "$output" = 'fiber: NFIBERS "0": expected 1..64' ]
}

@test "aarch64 under qemu: every fiber entered, resumed and finished, stacks, x19-x29, d8-d15 and sp intact" {
	need_aarch64 unit/fiber
	# an aarch64 program (ELF e_machine 183), which this machine runs only
	# through qemu unless it is one
	[ "$(od -An -tu2 -j18 -N2 "$A64/unit/fiber" | tr -d ' ')" = 183 ]
	run -0 timeout -k 5 120 "$QEMU" "$A64/unit/fiber" 3 50
	fiber_report aarch64 3 50 "$A64_REGS"
}

@test "aarch64 under qemu: one fiber for one round, and 64 fibers for 500 rounds" {
	need_aarch64 unit/fiber
	run -0 timeout -k 5 120 "$QEMU" "$A64/unit/fiber" 1 1
	fiber_report aarch64 1 1 "$A64_REGS"
	run -0 timeout -k 5 300 "$QEMU" "$A64/unit/fiber" 64 500
	fiber_report aarch64 64 500 "$A64_REGS"
}

@test "aarch64 under qemu: the fiber-stacks case runs to its end, both checkpoints of each iteration" {
	need_aarch64 cases/fiber-stacks
	run -0 timeout -k 5 120 "$QEMU" "$A64/cases/fiber-stacks" --param fibers=500 \
		--param iterations=2 --param madvise=dontneed
	for c in created#1 cleared#1 created#2 cleared#2; do
		[[ "$output" == *"checkpoint $c "* ]] || false
	done
	[[ "$output" == *"fiber-stacks: madvise=dontneed iterations=2 fibers=500: "* ]] || false
}
