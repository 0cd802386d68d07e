#!/bin/sh
# @NAME@.sh: a report's shell program, speaking the checkpoint protocol
# (docs/originals.md) from sh.  There is no sh runtime beside the models:
# it runs as a command (docs/command.md), its results judged by
# expected/@NAME@.claims:
#
#   memrepro run --name @NAME@ --checkpoints start,filled --out DIR -- sh cases/@NAME@.sh
#   memrepro check --from DIR @NAME@
#
# Behaviour: ONE LINE, with the report's figures.
# Source: WHERE (a seed, OWNER/REPO#N or an https:// address), its date.
# The report printed:
#   "THE REPORT'S OWN WORDS AND NUMBERS"
#
# Changed from the report's text, and why: checkpoint start first,
# checkpoint filled right before the print whose figure the report gave.
# By hand (no MEMREPRO_CKPT_FD) they do nothing.

# The protocol: one record "ckpt<TAB>NAME<TAB>SEQ<LF>" in one write(2) (a
# builtin printf writes a short line at once), then block on a 1-byte ack.
# EOF on the ack: the runner is gone; carry on without checkpoints.
ckpt_fd=${MEMREPRO_CKPT_FD:-}
ack_fd=${MEMREPRO_ACK_FD:-}
unset MEMREPRO_CKPT_FD MEMREPRO_ACK_FD
case $ckpt_fd$ack_fd in
*[!0-9]*) echo "memrepro: MEMREPRO_CKPT_FD/MEMREPRO_ACK_FD are not fd numbers; checkpoints are off" >&2
	ckpt_fd= ;;
esac
[ -n "$ack_fd" ] || ckpt_fd=

# checkpoint NAME SEQ: SEQ counts the repeats of NAME from 1.
checkpoint() {
	[ -n "$ckpt_fd" ] || return 0
	if ! printf 'ckpt\t%s\t%s\n' "$1" "$2" 2>/dev/null 1>&"$ckpt_fd" ||
		[ "$(head -c1 0<&"$ack_fd" 2>/dev/null | wc -c)" -ne 1 ]; then
		ckpt_fd=
	fi
}

mb=${MB:-16}
checkpoint start 1
# The report's program goes here.  The skeleton keeps mb MiB written in a
# shell variable (sh's own heap, under the allocator of the config).
kept=$(head -c $((mb * 1048576)) /dev/zero | tr '\0' x)
checkpoint filled 1
echo "RSS: $(awk '/^VmRSS/ {print $2}' /proc/$$/status) kB (${#kept} bytes kept)"
