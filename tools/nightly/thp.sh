#!/bin/sh
# thp.sh MODE: THP enabled = MODE (always, madvise, never) where the machine
# lets us (THP_SYSFS, default /sys/kernel/mm/transparent_hugepage; through
# sudo -n when not root); in a container or where it is not writable, a
# notice and exit 0.  THP_SYSFS must be an absolute path, and its
# enabled file not a link (exit 2): it is written as root.
set -eu
[ $# -eq 1 ] || { echo "usage: thp.sh always|madvise|never" >&2; exit 2; }
case $1 in always | madvise | never) ;; *) echo "thp.sh: MODE '$1': always, madvise or never" >&2; exit 2 ;; esac
t=${THP_SYSFS:-/sys/kernel/mm/transparent_hugepage}
case $t in /*) ;; *) echo "thp.sh: THP_SYSFS '$t': an absolute path wanted" >&2; exit 2 ;; esac
f=$t/enabled
if [ -L "$f" ]; then echo "thp.sh: THP_SYSFS: $f is a symbolic link: refused" >&2; exit 2; fi
if [ "$(id -u)" -eq 0 ]; then s=; else s="sudo -n"; fi
if [ ! -f "$f" ] || ! echo "$1" | $s tee "$f" > /dev/null 2>&1; then
	echo "::notice title=THP::cannot set THP to $1 here ($f not writable): left as $(cat "$f" 2>/dev/null || echo unknown)"
	exit 0
fi
echo "THP enabled: $(cat "$f")"
