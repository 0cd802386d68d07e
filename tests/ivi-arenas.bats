#!/usr/bin/env bats
# ivi-arenas (toyota-connected/ivi-homescreen#610): the three lifetimes of a
# restart's workers, which the claims see only through RSS: ended=never
# keeps every burst alive to the end, before and next only the last one.

load test_helper

bursts_alive() {
	timeout -k 5 60 "$CASES/ivi-arenas" --param threads=2 --param restarts=3 \
		--param floor_kb=64 --param work_kb=64 --param ended="$1" |
		sed -n 's/.*: \([0-9]*\) bursts alive at the end.*/\1/p'
}

@test "ended=never keeps the launch's and every restart's workers" {
	[[ $(bursts_alive never) == 4 ]] || false
}

@test "ended=before and ended=next end each burst at the next restart" {
	[[ $(bursts_alive before) == 1 ]] || false
	[[ $(bursts_alive next) == 1 ]] || false
}

@test "an unknown lifetime is a usage error naming the parameter" {
	run -2 timeout -k 5 30 "$CASES/ivi-arenas" --param ended=sometimes
	[[ $output == *ended* ]] || false
}
