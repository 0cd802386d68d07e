#!/usr/bin/env bats
# At the terminal: the progress line, plain lines elsewhere, colours,
# --quiet, --help, the man page and the installed layout.

load test_helper

DATA="$ROOT/tests/data"
ESC=$'\033'

on_tty() {
	command -v script >/dev/null || skip "script(1) not installed (util-linux)"
	timeout -k 5 120 script -qec "$*" /dev/null < /dev/null
}

@test "not on a terminal: one plain line per run, nothing rewritten, no colour" {
	run -1 mrf run ok fail --axis allocator=glibc --repeat 1
	[[ "$output" != *$'\r'* ]] || false
	[[ "$output" != *"$ESC"* ]] || false
	[ "$(printf '%s\n' "$output" | grep -c '^ok mode=. #1/1 ok')" -eq 3 ]
	[[ "$output" == *"fail #1/1 failed (exit 1)"* ]] || false
	[[ "$output" == *"4 runs in "*": 3 ok, 1 failed"* ]] || false
}

@test "on a terminal: one progress line rewritten in place with the time left; failures stay" {
	run -1 on_tty "$MR" run --cases "$FIX" --out "$BATS_TEST_TMPDIR/out" --axis allocator=glibc --repeat 2 ok fail
	[[ "$output" == *$'\r[1/8] ok mode=a #1/2'*"elapsed, ~"*" left"* ]] || false
	[[ "$output" == *$'\r[8/8] fail #2/2'* ]] || false
	# ok runs leave no line of their own; failed runs do
	screen=$(printf '%s\n' "$output" | tr '\r' '\n' | sed "s/$ESC\[K//g")
	! printf '%s\n' "$screen" | grep -q '^ok mode=a #1/2 ok' || false
	printf '%s\n' "$screen" | grep -q '^fail #1/2 failed (exit 1)'
}

@test "colours on a terminal, never with NO_COLOR or when piped" {
	run -1 on_tty "$MR" check --from "$DATA/results-regressed" --expected "$DATA/expected"
	[[ "$output" == *"${ESC}[1;31mregressed${ESC}[0m"* ]] || false
	run -1 on_tty env NO_COLOR=1 "$MR" check --from "$DATA/results-regressed" --expected "$DATA/expected"
	[[ "$output" != *"${ESC}["* ]] || false
	run -1 "$MR" check --from "$DATA/results-regressed" --expected "$DATA/expected"
	[[ "$output" != *"${ESC}["* ]] || false
}

@test "--quiet shows only the runs that went wrong and where the results are" {
	run -1 mrf run ok fail --axis allocator=glibc --repeat 1 --quiet
	[[ "$output" != *"ok mode="* ]] || false
	[[ "$output" == *"fail #1/1 failed (exit 1)"* ]] || false
	[[ "$output" == *"results: $BATS_TEST_TMPDIR/out"* ]] || false
}

@test "every command has --help with an example" {
	for c in list describe run check bless report compare trend merge corpus platforms export versions fetch; do
		run -0 "$MR" "$c" --help
		[[ "${lines[0]}" == "usage: memrepro $c"* ]] || false
		[[ "$output" == *"Example"* ]] || false
		[[ "$output" == *"  memrepro $c"* ]] || false
	done
	run -0 "$MR" --help
	[[ "$output" == *"memrepro compare"* ]] || false
}

@test "the man page renders without warnings and names every command" {
	command -v groff >/dev/null || skip "groff not installed"
	run -0 --separate-stderr groff -man -Tutf8 -ww -P-cbou "$ROOT/docs/memrepro.1"
	[ -z "$stderr" ]
	for c in list describe run check bless report compare trend merge corpus platforms export versions fetch; do
		[[ "$output" == *"memrepro $c"* ]] || false
	done
}

@test "make install honours PREFIX and DESTDIR; the installed runner finds its plots" {
	d=$BATS_TEST_TMPDIR/dest
	run -0 make -C "$ROOT" -s install DESTDIR="$d" PREFIX=/opt/mr
	[ -x "$d/opt/mr/bin/memrepro" ]
	[ -f "$d/opt/mr/share/man/man1/memrepro.1" ]
	for g in series diff allocators compare trend; do [ -f "$d/opt/mr/share/memrepro/plots/$g.gp" ]; done
	[ -f "$d/opt/mr/share/memrepro/cases/fiber-stacks.c" ]
	[ -f "$d/opt/mr/share/memrepro/expected/fiber-stacks.claims" ]
	[ -f "$d/opt/mr/share/memrepro/releases" ]
	[ -x "$d/opt/mr/libexec/memrepro/cases/fiber-stacks" ]
	# installed, it finds its scripts next to its binary: ../share/memrepro/plots
	run -0 timeout -k 5 120 "$MR" run --cases "$FIX" --out "$BATS_TEST_TMPDIR/r" --axis allocator=glibc --repeat 1 --quiet touch
	cd "$BATS_TEST_TMPDIR"
	run -0 timeout -k 5 120 "$d/opt/mr/bin/memrepro" report --cases "$FIX" "$BATS_TEST_TMPDIR/r"
	[ -s "$BATS_TEST_TMPDIR/r/plots/touch.series.png" ]
	run -0 "$d/opt/mr/bin/memrepro" check --help
}
