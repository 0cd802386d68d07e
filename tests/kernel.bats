#!/usr/bin/env bats
# The kernel axis (runner/guest/guest.h, release/kernel.h): kernels through
# the release cache, guests grouped by (kernel, settings), their results
# joined, and the verdicts of a guest that panics, hangs or never writes
# its marker.  A fixture archive (MEMREPRO_RELEASES) holds a fake kernel;
# tests/fixtures/fake-qemu stands in for qemu (MEMREPRO_QEMU).  One real
# boot only with MEMREPRO_TEST_NETWORK=1.

load test_helper

# fixture_kernel DIR: trixie's linux-image-amd64 naming kernel 9.9.0-1-amd64
# (Debian 9.9.1-1): a bzImage whose payload is xz (an ELF header and
# zeros, its size appended as the kernel's build does), modules.builtin
# naming virtio_pci and netfs, 9p needing 9pnet and netfs, 9pnet_virtio
# (xz) needing 9pnet.
fixture_kernel() {
	local dir=$1/trixie kv=9.9.0-1-amd64 t
	t=$(mktemp -d "$BATS_TEST_TMPDIR/kdeb.XXXXXX")
	mkdir -p "$dir" "$t/meta/DEBIAN" "$t/img/DEBIAN" "$t/img/boot" \
		"$t/img/lib/modules/$kv/kernel/fs/9p" "$t/img/lib/modules/$kv/kernel/net/9p"
	python3 - "$t/img/boot/vmlinuz-$kv" <<'PY'
import lzma, struct, sys
raw = b"\x7fELF" + bytes(4092)
pay = lzma.compress(raw, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC32) + struct.pack("<I", len(raw))
img = bytearray(1024)
img[0x1f1] = 1
img[0x202:0x206] = b"HdrS"
img[0x248:0x250] = struct.pack("<II", 0, len(pay))
open(sys.argv[1], "wb").write(bytes(img) + pay + b"tail")
PY
	local m=$t/img/lib/modules/$kv
	printf 'kernel/drivers/virtio/virtio_pci.ko\nkernel/fs/netfs/netfs.ko\n' >"$m/modules.builtin"
	printf 'x\0depends=9pnet,netfs\0' >"$m/kernel/fs/9p/9p.ko"
	printf 'x\0depends=\0' >"$m/kernel/net/9p/9pnet.ko"
	printf 'x\0depends=9pnet\0' | xz >"$m/kernel/net/9p/9pnet_virtio.ko.xz"
	printf 'Package: linux-image-amd64\nVersion: 9.9.1-1\nArchitecture: amd64\nMaintainer: t <t@invalid>\nDepends: linux-image-%s (= 9.9.1-1)\nDescription: fixture\n' \
		"$kv" >"$t/meta/DEBIAN/control"
	printf 'Package: linux-image-%s\nVersion: 9.9.1-1\nArchitecture: amd64\nMaintainer: t <t@invalid>\nDescription: fixture kernel\n' \
		"$kv" >"$t/img/DEBIAN/control"
	dpkg-deb --root-owner-group -Zgzip --build "$t/meta" "$dir/linux-image-amd64_9.9.1-1_amd64.deb" >/dev/null
	dpkg-deb --root-owner-group -Zgzip --build "$t/img" "$dir/linux-image-${kv}_9.9.1-1_amd64.deb" >/dev/null
	rm -rf "$t"
}

# The fixture archive and a static program (the initramfs wants one as
# busybox), made once for the file.
setup_file() {
	BATS_TEST_TMPDIR=$BATS_FILE_TMPDIR fixture_kernel "$BATS_FILE_TMPDIR/archive"
	printf 'int main(void) { return 0; }\n' | cc -static -x c -o "$BATS_FILE_TMPDIR/bb" - || :
}

setup() {
	export XDG_CACHE_HOME=$BATS_TEST_TMPDIR/cache
	export MEMREPRO_RELEASES=$BATS_FILE_TMPDIR/archive
	export MEMREPRO_QEMU=$ROOT/tests/fixtures/fake-qemu
	# TCG unless a test gives a KVM device (CI's runners may have one)
	export MEMREPRO_KVM=$BATS_TEST_TMPDIR/no-kvm
	export MEMREPRO_BUSYBOX=$BATS_FILE_TMPDIR/bb
	[ -x "$MEMREPRO_BUSYBOX" ] || skip "no static linking here (libc6-dev's libc.a)"
	OUT=$BATS_TEST_TMPDIR/out
}

# The guests' runs of the fixture case ok, one config each.
guestrun() {
	timeout -k 5 120 "$MR" run ok --cases "$FIX" --out "$OUT" --repeat 1 \
		--axis allocator=glibc --axis mode=a "$@"
}

@test "versions kernel and fetch kernel@VERSION: the package from linux-image-amd64, vmlinux and 9p modules extracted, in load order" {
	run -0 timeout 60 "$MR" versions kernel
	[[ $output == *"trixie    linux-image-9.9.0-1-amd64"*"9.9.1-1"*"9.9.1"*"no"* ]] || false
	run -0 timeout 60 "$MR" fetch kernel@9.9
	[[ ${lines[0]} == "kernel@9.9.1: trixie linux-image-9.9.0-1-amd64 9.9.1-1 (fetched)" ]] || false
	vm=$XDG_CACHE_HOME/memrepro/kernel/9.9.0-1-amd64_9.9.1-1/vmlinux
	[[ $output == *"vmlinux $vm"* ]] || false
	[ "$(head -c4 "$vm" | od -An -c | tr -d ' ')" = '177ELF' ]
	[[ $output == *"vmlinux_sha256 $(sha256sum "$vm" | cut -d' ' -f1)"* ]] || false
	# dependencies first; built-in ones (netfs, virtio_pci) not there
	mods=$(printf '%s\n' "${lines[@]}" | awk '$1 == "module" { sub(".*/", "", $2); print $2 }' | tr '\n' ' ')
	[ "$mods" = "00-9pnet.ko 01-9pnet_virtio.ko 02-9p.ko " ]
	grep -q 'depends=9pnet' "$(dirname "$vm")/modules/01-9pnet_virtio.ko"
	run -0 timeout 60 "$MR" fetch kernel@trixie
	[[ ${lines[0]} == *"(cached)" ]] || false
	# an entry that does not verify is extracted again
	printf 'x' >>"$vm"
	run -0 timeout 60 "$MR" fetch kernel@9.9.1
	[[ ${lines[0]} == *"(fetched)" ]] || false
	[ "$(stat -c %s "$vm")" = 4096 ]
}

@test "fetch kernel@VERSION that no release has: exit 2 naming the kernels there are" {
	run -2 timeout 60 "$MR" fetch kernel@9.8
	[[ $output == *"no release has kernel 9.8 ("*"trixie 9.9.1"* ]] || false
	run -2 guestrun --axis kernel=9.8
	[[ $output == *"--axis kernel=9.8: no release has kernel 9.8"* ]] || false
}

@test "kernel.* settings: only inside a guest, only their own values (exit 2)" {
	run -2 guestrun --axis kernel.thp=always
	[[ $output == *"set inside a guest only, never on the host"* ]] || false
	run -2 guestrun --axis kernel=host,9.9 --axis kernel.thp=always
	[[ $output == *"never on the host"* ]] || false
	run -2 guestrun --axis kernel=9.9 --axis kernel.thp=sometimes
	[[ $output == *"--axis kernel.thp=sometimes: want one of always madvise never"* ]] || false
	run -2 guestrun --axis kernel=9.9 --axis kernel.khugepaged.max_ptes_none=512
	[[ $output == *"want a number from 0 to 511"* ]] || false
	run -2 guestrun --axis kernel=9.9 --axis kernel.thp.defrag=defer+madvise
	[[ $output == *"bad value 'defer+madvise'"* ]] || false
	MEMREPRO_GUEST_MEM_MIB=lots run -2 guestrun --axis kernel=9.9
	[[ $output == *"MEMREPRO_GUEST_MEM_MIB 'lots': want a whole number above 0 (MiB)"* ]] || false
	MEMREPRO_GUEST_TIMEOUT=-3 run -2 guestrun --axis kernel=9.9
	[[ $output == *"MEMREPRO_GUEST_TIMEOUT '-3': want a whole number above 0 (seconds)"* ]] || false
	run -2 guestrun --axis kernel=9.9 --shard 1/2
	[[ $output == *"--shard cannot take guests yet"* ]] || false
	run -2 guestrun --axis kernel=9.9 --axis kernel.swappiness=1
	[[ $output == *"no such machine setting"* ]] || false
	[ ! -e "$OUT/runs.tsv" ]
}

@test "one guest per (kernel, settings): the settings on the kernel command line, the rows joined with the guest's pairs and accel tcg" {
	run -0 guestrun --axis kernel=9.9 --axis kernel.thp=always,never
	[[ $output == *"guest 1 (kernel=9.9,kernel.thp=always): ended (exit 0)"* ]] || false
	[[ $output == *"guest 2 (kernel=9.9,kernel.thp=never): ended (exit 0)"* ]] || false
	run -0 tsv_col "$OUT/runs.tsv" config
	[ "${lines[*]}" = "allocator=glibc,kernel=9.9,kernel.thp=always,mode=a allocator=glibc,kernel=9.9,kernel.thp=never,mode=a" ]
	[ "$(tsv_col "$OUT/runs.tsv" outcome | sort -u)" = ok ]
	[ "$(tsv_col "$OUT/runs.tsv" accel | sort -u)" = tcg ]
	[ "$(tsv_col "$OUT/runs.tsv" detail | sort -u)" = - ]
	grep -qx -- '-accel' "$OUT/guests/1/argv"
	grep -qx 'tcg' "$OUT/guests/1/argv"
	grep -q 'mr.thp=always' "$OUT/guests/1/argv"
	grep -q 'mr.thp=never' "$OUT/guests/2/argv"
	# the initramfs: newc entries, the init and the modules in load order
	run -0 python3 - "$OUT/guests/1/initrd" <<'PY'
import sys
b = open(sys.argv[1], "rb").read()
i = 0
while True:
	assert b[i:i + 6] == b"070701", i
	f = [int(b[i + 6 + 8 * k:i + 14 + 8 * k], 16) for k in range(13)]
	mode, size, namesize = f[1], f[6], f[11]
	name = b[i + 110:i + 110 + namesize - 1].decode()
	if name == "TRAILER!!!":
		break
	print("%o %s %d" % (mode, name, size))
	i = (i + 110 + namesize + 3) & ~3
	i = (i + size + 3) & ~3
PY
	[[ $output == *"100755 init "*"100755 bin/busybox "*"lib/memrepro-modules/00-9pnet.ko"*"01-9pnet_virtio.ko"*"02-9p.ko"* ]] || false
	[[ $output == *"20600 dev/console 0"* ]] || false
	[[ $output == *"100755 init $(stat -c %s "$ROOT/tools/guest/init")"* ]] || false
	# the logs are the guest's, inside the results directory
	log=$(tsv_col "$OUT/runs.tsv" log '$2 ~ /never/')
	[[ $log == guests/2/results/logs/* ]] || false
	[ -f "$OUT/$log" ]
	grep -qx $'guest.2.config\tkernel=9.9,kernel.thp=never' "$OUT/env.tsv"
	grep -qx $'guest.1.accel\ttcg' "$OUT/env.tsv"
	# its baselines' key: the platform its own runner recorded
	grep -qx $'guest.1.platform\t'"$(awk -F'\t' '$1 == "platform" { print $2 }' "$OUT/guests/1/results/env.tsv")" "$OUT/env.tsv"
	grep -qx $'guest.1.package\tlinux-image-9.9.0-1-amd64 9.9.1-1' "$OUT/env.tsv"
	# checkpoint rows carry the guest's config too
	[ "$(tsv_col "$OUT/checkpoints.tsv" config '$2 ~ /kernel=9.9,kernel.thp=never/' | wc -l)" -ge 1 ]
	# the joined directory reads back
	run -0 timeout 60 "$MR" check --from "$OUT" ok
}

@test "--profile kernels: the quick sizes under the four kernels and THP always and madvise, where no --axis says otherwise" {
	run -2 timeout 60 "$MR" run ok --cases "$FIX" --out "$OUT" --profile kernels
	[[ $output == *"--axis kernel=5.10: no release has kernel 5.10 ("*"trixie 9.9.1"* ]] || false
	run -0 guestrun --profile kernels --axis kernel=9.9
	[[ $output == *"guest 1 (kernel=9.9,kernel.thp=always): ended"* ]] || false
	[[ $output == *"guest 2 (kernel=9.9,kernel.thp=madvise): ended"* ]] || false
	grep -q -- "--profile quick" "$OUT/guests/1/run.sh"
	run -0 guestrun --out "$OUT.2" --profile kernels --axis kernel=9.9 --axis kernel.thp=never
	[ "$(tsv_col "$OUT.2/runs.tsv" config)" = "allocator=glibc,kernel=9.9,kernel.thp=never,mode=a" ]
}

@test "times measured in a guest under emulation never reach a verdict; its memory figures do" {
	EXP=$BATS_TEST_TMPDIR/expected
	mkdir -p "$EXP"
	printf '%s\n' \
		'c-naps holds wall_ms[mode=c] > 40 "fixture: mode c sleeps 60 ms"' \
		'c-rests holds t_ms@rested[mode=c] > 40 "fixture: the same at its checkpoint"' >"$EXP/nap.claims"
	run -0 timeout -k 5 120 "$MR" run nap --cases "$FIX" --expected "$EXP" --out "$OUT" --repeat 1 \
		--axis allocator=glibc --axis ms=60 --axis mode=c --axis kernel=9.9
	[ "$(tsv_col "$OUT/runs.tsv" accel)" = tcg ]
	run -0 --separate-stderr timeout -k 5 60 "$MR" check --from "$OUT" --expected "$EXP" -v
	[[ $output == *"c-naps"*"emulated (TCG): times not judged"* ]] || false
	[[ $output == *"c-rests"*"emulated (TCG): times not judged"* ]] || false
	[ "$(tsv_col "$OUT/checkpoints.tsv" rss_kb | wc -l)" -eq 1 ]
	# the column, not the detail, says so: a detail that names accel=tcg is a detail
	awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "accel") a = i; if ($i == "detail") d = i } }
		NR > 1 { $a = "host"; $d = "accel=tcg" } { print }' "$OUT/runs.tsv" >"$OUT/runs.new"
	mv "$OUT/runs.new" "$OUT/runs.tsv"
	run -0 --separate-stderr timeout -k 5 60 "$MR" check --from "$OUT" --expected "$EXP" -v
	[[ $output != *"emulated (TCG)"* ]] || false
	# older results without the column read as the host's; a word of no accelerator is exit 2
	awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "accel") a = i }
		NR > 1 { $a = "tcg" } { print }' "$OUT/runs.tsv" >"$OUT/runs.new"
	mv "$OUT/runs.new" "$OUT/runs.tsv"
	run -0 --separate-stderr timeout -k 5 60 "$MR" check --from "$OUT" --expected "$EXP" -v
	[[ $output == *"c-naps"*"emulated (TCG): times not judged"* ]] || false
	sed -i '2s/\ttcg\t/\tqemu\t/' "$OUT/runs.tsv"
	run -2 --separate-stderr timeout -k 5 60 "$MR" check --from "$OUT" --expected "$EXP"
	[[ $stderr == *"runs.tsv:2:"*"unknown accel \"qemu\" (host, tcg or kvm)"* ]] || false
	cut -f"$(head -1 "$OUT/runs.tsv" | tr '\t' '\n' | grep -nvx accel | cut -d: -f1 | paste -sd,)" \
		"$OUT/runs.tsv" >"$OUT/runs.new"
	mv "$OUT/runs.new" "$OUT/runs.tsv"
	run -0 --separate-stderr timeout -k 5 60 "$MR" check --from "$OUT" --expected "$EXP" -v
	[[ $output != *"emulated (TCG)"* ]] || false
}

@test "KVM where a probe guest of the kernel boots under it (times judged), TCG where it does not" {
	: >"$BATS_TEST_TMPDIR/kvm"
	export MEMREPRO_KVM=$BATS_TEST_TMPDIR/kvm
	run -0 guestrun --axis kernel=9.9
	grep -qx kvm "$OUT/guests/1-kvm-probe/argv"
	grep -qx host "$OUT/guests/1-kvm-probe/argv"
	grep -qx kvm "$OUT/guests/1/argv"
	[ "$(tsv_col "$OUT/runs.tsv" accel)" = kvm ]
	grep -qx $'guest.1.accel\tkvm' "$OUT/env.tsv"
	rm -rf "$OUT"
	FAKE_QEMU_KVM=fail run -0 guestrun --axis kernel=9.9
	grep -qx tcg "$OUT/guests/1/argv"
	[ "$(tsv_col "$OUT/runs.tsv" accel)" = tcg ]
	grep -q $'guest.1.accel_why\tTCG: a probe guest under KVM failed: .*failed to set MSR 0x10a' "$OUT/env.tsv"
	rm -rf "$OUT"
	MEMREPRO_KVM=$BATS_TEST_TMPDIR/none run -0 guestrun --axis kernel=9.9
	[ ! -e "$OUT/guests/1-kvm-probe" ]
	grep -q $'guest.1.accel_why\tTCG: .*/none: No such file or directory' "$OUT/env.tsv"
}

@test "a guest's memory: the largest expected peak of its own platform's baseline, and its own; 1024 MiB without one" {
	run -0 guestrun --axis kernel=9.9
	grep -qx $'guest.1.mem_mib\t1024' "$OUT/env.tsv"
	grep -q $'guest.1.mem_why\tno expected peak (no baseline x86_64-glibc.*-linux9.9-thp_always-cpu2)' "$OUT/env.tsv"
	rm -rf "$OUT"
	EXP=$BATS_TEST_TMPDIR/expected
	plat=$(uname -m)-glibc$(getconf GNU_LIBC_VERSION | cut -d' ' -f2)-linux9.9-thp_never-cpu2
	mkdir -p "$EXP/$plat"
	printf 'config\tcheckpoint\tmetric\tmedian\tmin\tmax\tn\ttolerance\n%s\t-\tmaxrss_kb\t1000000\t1000000\t1048576\t1\t0\n' \
		allocator=glibc,mode=a >"$EXP/$plat/ok.tsv"
	run -0 guestrun --expected "$EXP" --axis kernel=9.9 --axis kernel.thp=never
	grep -q $'guest.1.mem_why\tthe largest expected peak, 1024 MiB (baseline '"$plat"'), and 384 MiB of its own' "$OUT/env.tsv"
	mem=$(awk -F'\t' '$1 == "guest.1.mem_mib" { print $2 }' "$OUT/env.tsv")
	[ "$mem" = 1536 ] || [[ $(grep mem_why "$OUT/env.tsv") == *capped* ]] || false
	[ "$(grep -A1 -x -- -m "$OUT/guests/1/argv" | tail -1)" = "$mem" ]
	MEMREPRO_GUEST_MEM_MIB=300 run -0 guestrun --out "$OUT.2" --axis kernel=9.9
	grep -qx $'guest.1.mem_mib\t300' "$OUT.2/env.tsv"
}

@test "a case the guest's OOM killer killed: crashed, and the detail says the guest ran out of memory" {
	FAKE_QEMU=oom FAKE_QEMU_OOM=nap run -1 timeout -k 5 120 "$MR" run nap --cases "$FIX" --out "$OUT" \
		--repeat 1 --axis allocator=glibc --axis mode=a --axis ms=5000 --axis kernel=9.9
	[ "$(tsv_col "$OUT/runs.tsv" outcome)" = crashed ]
	[[ $(tsv_col "$OUT/runs.tsv" detail) == "SIGKILL; the guest ran out of its 1024 MiB (its console: Out of memory: Killed process ... (nap))" ]] || false
	# no checkpoint measured anywhere, no run on the host: still a
	# results directory that check reads (it said "no such file", exit 2)
	[ -f "$OUT/checkpoints.tsv" ] && [ -f "$OUT/series.tsv" ]
	run "$MR" check --cases "$FIX" --from "$OUT" nap
	[ "$status" -eq 1 ] && [[ $output == *"1 failed"* ]] || { echo "$output"; false; }
}

@test "a guest that panics: its runs failed with the console's last line, the host's kept" {
	FAKE_QEMU=panic run -1 guestrun --axis kernel=host,9.9
	[[ $output == *"guest 1 (kernel=9.9): no end marker from the guest (qemu exited 0)"* ]] || false
	[ "$(tsv_col "$OUT/runs.tsv" outcome '$2 !~ /kernel/')" = ok ]
	[ "$(tsv_col "$OUT/runs.tsv" detail '$2 !~ /kernel/')" = - ]
	[ "$(tsv_col "$OUT/runs.tsv" outcome '$2 ~ /kernel=9.9/')" = failed ]
	[ "$(tsv_col "$OUT/runs.tsv" accel '$2 ~ /kernel=9.9/')" = tcg ]
	[ "$(tsv_col "$OUT/runs.tsv" accel '$2 !~ /kernel/')" = host ]
	d=$(tsv_col "$OUT/runs.tsv" detail '$2 ~ /kernel=9.9/')
	[[ $d == *"no end marker"*"Kernel panic - not syncing"* ]] || false
	[ "$(tsv_col "$OUT/runs.tsv" log '$2 ~ /kernel=9.9/')" = guests/1/console.log ]
}

@test "a guest that hangs: killed at its deadline with its process group, its runs failed" {
	export MEMREPRO_GUEST_TIMEOUT=2
	FAKE_QEMU=hang run -1 guestrun --axis kernel=9.9
	[[ $output == *"no end marker from the guest (killed after 2 s)"* ]] || false
	[ "$(tsv_col "$OUT/runs.tsv" outcome)" = failed ]
	pid=$(cat "$OUT/guests/1/pid")
	run ! kill -0 "$pid"
	grep -qx $'guest.1.end\tno marker' "$OUT/env.tsv"
	run "$MR" check --cases "$FIX" --from "$OUT" ok
	[ "$status" -eq 1 ] && [[ $output == *"1 failed"* ]] || { echo "$output"; false; }
}

@test "a guest's results are read without following a link it planted" {
	printf 'case\tconfig\trepeat\nsecret\tsecret\t1\n' >"$BATS_TEST_TMPDIR/secret"
	FAKE_QEMU=evil FAKE_QEMU_TARGET=$BATS_TEST_TMPDIR/secret run -1 guestrun --axis kernel=9.9
	[[ $output == *"runs.tsv: not a regular file (a symbolic link): refusing to read it"* ]] || false
	run ! grep -q secret "$OUT/runs.tsv"
	[ "$(tsv_col "$OUT/runs.tsv" outcome)" = failed ]
}

@test "a guest whose runner never ran: runs failed, the marker's status in the progress" {
	printf '#!/bin/sh\necho "memrepro-guest: the runner is gone"\n' >"$BATS_TEST_TMPDIR/noqemu"
	chmod +x "$BATS_TEST_TMPDIR/noqemu"
	MEMREPRO_QEMU=$BATS_TEST_TMPDIR/noqemu run -1 guestrun --axis kernel=9.9
	[ "$(tsv_col "$OUT/runs.tsv" outcome)" = failed ]
	[[ $(tsv_col "$OUT/runs.tsv" detail) == *"the runner is gone"* ]] || false
}

@test "a real boot: Debian's trixie kernel under qemu runs a case (MEMREPRO_TEST_NETWORK=1)" {
	[ "${MEMREPRO_TEST_NETWORK:-0}" = 1 ] || skip "fetches a kernel: set MEMREPRO_TEST_NETWORK=1"
	command -v qemu-system-x86_64 >/dev/null || skip "no qemu-system-x86_64 (make deps-kernel)"
	file -L /bin/busybox 2>/dev/null | grep -q 'statically linked' || skip "no busybox-static (make deps-kernel)"
	unset MEMREPRO_RELEASES MEMREPRO_QEMU MEMREPRO_BUSYBOX
	run timeout 300 "$MR" fetch kernel@trixie
	[ "$status" = 0 ] || skip "kernel@trixie cannot be had here: ${lines[*]}"
	MEMREPRO_GUEST_MEM_MIB=512 run -0 timeout 300 "$MR" run ok --cases "$FIX" --out "$OUT" \
		--repeat 1 --axis allocator=glibc --axis mode=a --axis kernel=trixie --axis kernel.thp=never
	[ "$(tsv_col "$OUT/runs.tsv" outcome)" = ok ]
	grep -qx $'guest.1.thp\tnever' "$OUT/env.tsv"
	grep -q 'memrepro-guest: done 0' "$OUT/guests/1/console.log"
}
