#!/usr/bin/env bats
# make install and installcheck (tools/installcheck.sh): the installed
# runner does what it does from / with nothing but its install; the .deb's
# unpacked runner (tools/deb-check.sh) runs too.

load test_helper

@test "installcheck: from /, the installed runner lists, describes, runs, checks, runs an original, reports; uninstall leaves no file" {
	run -0 env MAKE=make TMPDIR="$BATS_TEST_TMPDIR" timeout -k 10 600 sh "$ROOT/tools/installcheck.sh" /opt/mr
	echo "$output"
	for step in "--version: memrepro " "list: " "describe: the installed case" "run calloc-fresh: ok" \
		"check calloc-fresh: glibc-vs-jemalloc held" "report: report.md" "uninstall: no file left"; do
		[[ "$output" == *"installcheck: $step"* ]] || false
	done
	if command -v node >/dev/null; then
		# the original, not the model alone: its helper installed beside it
		[[ "$output" == *"installcheck: original calloc-fresh under node: ok"* ]] || false
	else
		[[ "$output" == *"original under node: skipped: no node on this machine"* ]] || false
	fi
	if command -v strace >/dev/null; then
		[[ "$output" == *"no file of the source tree opened (strace)"* ]] || false
	fi
	[[ "$output" == *"installcheck: ok" ]] || false
}

@test "make install installs the originals and their helpers beside the cases" {
	d=$BATS_TEST_TMPDIR/dest
	run -0 make -C "$ROOT" -s install DESTDIR="$d" PREFIX=/usr
	for f in "$ROOT"/cases/*.js "$ROOT"/cases/*.rb "$ROOT"/cases/*.py; do
		[ -e "$f" ] || continue
		cmp "$f" "$d/usr/libexec/memrepro/cases/${f##*/}"
	done
	for f in "$ROOT"/lib/memrepro.*; do
		cmp "$f" "$d/usr/libexec/memrepro/lib/${f##*/}"
	done
	# each directory of etc/ (the templates of memrepro new) as share/memrepro/<dir>
	for e in "$ROOT"/etc/*/; do
		[ -d "$e" ] || continue
		e=${e%/}
		diff -r "$e" "$d/usr/share/memrepro/${e##*/}"
	done
	[ -f "$d/usr/share/memrepro/allocators" ]
	[ -f "$d/usr/share/memrepro/guest-init" ]
	[ -f "$d/usr/share/memrepro/plots/chartcheck.py" ]
	run -0 make -C "$ROOT" -s uninstall DESTDIR="$d" PREFIX=/usr
	run -0 find "$d" ! -type d
	[ -z "$output" ]
}

@test "make install refuses a SHAREDIR the installed runner would not find" {
	run -2 make -C "$ROOT" -s install DESTDIR="$BATS_TEST_TMPDIR/dest" SHAREDIR=/opt/elsewhere
	[[ "$output" == *"BINDIR, SHAREDIR and LIBEXECDIR must be PREFIX's"* ]] || false
	[ ! -e "$BATS_TEST_TMPDIR/dest" ]
}
