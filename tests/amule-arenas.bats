#!/usr/bin/env bats
# amule-arenas (amule-org/amule#1095): what the claims cannot say, because
# pool and in_flight are not axes: requests handed to the pool threads in
# turn pin one arena each, the same thread serving them all keeps one; and
# a pool smaller than the requests in flight is refused.

load test_helper

# RSS in KiB at checkpoint $1 of a run by hand (its "rss N.N MiB" field).
rss_at() {
	awk -v c="$1#1" '$1 == "checkpoint" && $2 == c {
		for (i = 3; i < NF; i++) if ($i == "rss") { printf "%d\n", $(i + 1) * 1024; exit }
	}'
}

# growth of RSS from refreshed to served, glibc's default arenas
growth() {
	local out
	out=$(timeout -k 5 60 "$CASES/amule-arenas" --param files=1000 --param requests=4 \
		--param pool="$1")
	echo $(( $(rss_at served <<<"$out") - $(rss_at refreshed <<<"$out") ))
}

@test "four requests on four pool threads keep four peaks, on one thread one" {
	one=$(growth 1)
	four=$(growth 4)
	echo "growth: pool=1 $one KiB, pool=4 $four KiB"
	[[ $one -gt 0 ]] || false
	[[ $four -gt $((one * 5 / 2)) ]] || false
}

@test "more requests in flight than pool threads is a usage error naming both" {
	run -2 timeout -k 5 30 "$CASES/amule-arenas" --param pool=4 --param in_flight=5
	[[ $output == *"amule-arenas: in_flight=5 is more than pool=4"* ]] || false
}
