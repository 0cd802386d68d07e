#!/bin/sh
# kvm.sh: what the kernels profile needs (make deps-kernel: qemu,
# busybox-static, xz, zstd) and /dev/kvm usable by this user where the
# runner has one (GitHub's hosted x86_64 runners: root:kvm 0660), by a udev
# rule.  Without it the guests run under TCG, and their times are not
# judged (docs/kernels.md).
set -eu
if [ "$(id -u)" -eq 0 ]; then s=; else s=sudo; fi
$s apt-get update
$s make deps-kernel
if [ -e /dev/kvm ]; then
	echo 'KERNEL=="kvm", GROUP="kvm", MODE="0666", OPTIONS+="static_node=kvm"' |
		$s tee /etc/udev/rules.d/99-memrepro-kvm.rules >/dev/null
	$s udevadm control --reload-rules
	$s udevadm trigger --name-match=kvm
	ls -l /dev/kvm
else
	echo "kvm.sh: no /dev/kvm here: the guests run under TCG"
fi
