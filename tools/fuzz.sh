#!/bin/sh
# fuzz.sh: a bounded libFuzzer run of every target (make fuzz).
#
# Usage: tools/fuzz.sh BUILD_DIR SECONDS TARGET...
# SECONDS are shared out evenly among the targets, run one after the other
# (one core: the machine is shared).  Each starts from its seed corpus
# fuzz/corpus/<target>/ and the regression inputs fuzz/regressions/<target>/
# (read, never written: what it learns goes to BUILD_DIR/fuzz/corpus/).  A
# crash, leak, timeout or out-of-memory stops with the input saved under
# BUILD_DIR/fuzz/artifacts/ and says where to put it.
set -u

b=$1
total=$2
shift 2
n=$#
per=$((total / n))
[ "$per" -ge 1 ] || per=1
mkdir -p "$b/fuzz/artifacts"
status=0
for t in "$@"; do
	mkdir -p "$b/fuzz/corpus/$t"
	# a target that never broke has no regressions yet
	regs=
	[ ! -d "fuzz/regressions/$t" ] || regs="fuzz/regressions/$t"
	echo "fuzz $t: $per s"
	# -close_fd_mask=2: the parsers' own error messages would flood the
	# terminal (libFuzzer keeps its reports on a dup of stderr).
	if ! "$b/fuzz/$t-fuzzer" -max_total_time="$per" -timeout=10 -rss_limit_mb=1024 \
		-max_len=65536 -close_fd_mask=2 -print_final_stats=1 \
		-artifact_prefix="$b/fuzz/artifacts/$t-" \
		"$b/fuzz/corpus/$t" "fuzz/corpus/$t" ${regs:+"$regs"} 2>"$b/fuzz/$t.log"; then
		tail -n 40 "$b/fuzz/$t.log" >&2
		echo "fuzz $t: FAILED; the input is in $b/fuzz/artifacts/:" >&2
		for a in "$b/fuzz/artifacts/$t-"*; do echo "${a##*/}"; done >&2
		echo "fix the parser and add the input as fuzz/regressions/$t/<what-it-broke>" >&2
		status=1
	else
		grep -E '^stat::number_of_executed_units|^#[0-9]+.*DONE' "$b/fuzz/$t.log" | tail -n 2
	fi
done
exit $status
