#!/usr/bin/env bats
# tools/layers.sh, the lint's folder order (tools/layers, make lint): an
# include never goes up, and the folders have no circle.

load test_helper

# A copy of the sources and the order, to plant includes in.
copy_tree() {
	mkdir -p "$BATS_TEST_TMPDIR/tree/tools"
	cp -r "$ROOT/runner" "$ROOT/lib" "$BATS_TEST_TMPDIR/tree/"
	cp "$ROOT/tools/layers" "$BATS_TEST_TMPDIR/tree/tools/layers"
	cd "$BATS_TEST_TMPDIR/tree" || return 1
}

@test "layers: the runner and lib follow the folder order" {
	cd "$ROOT" || return 1
	run -0 sh tools/layers.sh
	[ -z "$output" ]
}

@test "layers: an include of a higher folder is named with its line and fails" {
	copy_tree
	# proc/ is below session/: the process primitives may not use the driver.
	printf '#include "session/plan.h"\n' >>runner/proc/env.c
	line=$(wc -l <runner/proc/env.c)
	run -1 sh "$ROOT/tools/layers.sh" -f tools/layers
	[ "${lines[0]}" = "runner/proc/env.c:$line: includes runner/session/plan.h, and runner/session is above runner/proc" ]
	[[ "$output" == *"folder circle: "*"runner/proc"*"runner/session"* ]] || false
	[[ "${lines[${#lines[@]}-1]}" =~ ^[0-9]+\ problems\ with\ the\ folder\ order\ of\ tools/layers\ \(tools/layers.sh\)$ ]] || false
}

@test "layers: a header's upward include counts too, and lib may use nothing of the runner" {
	copy_tree
	printf '#include "check/claims.h"\n' >>runner/results/read.h
	printf '#include "core/util.h"\n' >>lib/mr_proc.c
	run -1 sh "$ROOT/tools/layers.sh" -f tools/layers
	[[ "$output" == *"runner/results/read.h:"*": includes runner/check/claims.h, and runner/check is above runner/results"* ]] || false
	[[ "$output" == *"lib/mr_proc.c:"*": includes runner/core/util.h, and runner/core is above lib"* ]] || false
}

@test "layers: a folder the order does not name fails" {
	copy_tree
	mkdir runner/extra
	printf 'int x;\n' >runner/extra/x.c
	run -1 sh "$ROOT/tools/layers.sh" -f tools/layers
	[ "${lines[0]}" = "runner/extra: not in tools/layers" ]
}
