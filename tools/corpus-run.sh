#!/bin/sh
# corpus-run.sh OUT: measure the corpus at its reports' sizes into OUT/ and
# keep what the corpus table reads (env.tsv, runs.tsv, checkpoints.tsv; no
# samples, no logs): docs/corpus.md's table is `memrepro corpus OUT/*`
# (make corpus-table), from the directories this writes into docs/corpus/.
#
# Three runs of the models, because the reports measured glibc and
# jemalloc only where the other allocators take hours (alloc-churn) or tens
# of GiB (retained-buffers' tcmalloc and mimalloc), and alloc-churn's
# ten-second runs once each; then the reports' own programs on every
# runtime version of the originals profile (docs/originals.md), once each:
# its 30,000 zlib streams take 6.6 GB on Node 22 and alloc-churn's 1e4
# ticks three minutes on Node 10.7.0 with jemalloc.  The cases from public
# trackers (no original) at -j 2: their claims and the runs they time run
# alone all the same.  Run it on an idle machine: the table holds times.
set -eu
out=${1:?usage: tools/corpus-run.sh OUT}
mr=${MEMREPRO:-build/memrepro}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$mr" run --quiet --profile full --axis runtime=c --out "$tmp/main" \
	fiber-stacks thread-vsz fork-blowup large-retention deflate-burst calloc-fresh
"$mr" run --quiet --profile full --axis runtime=c --axis allocator=glibc,jemalloc --out "$tmp/retained-buffers" \
	retained-buffers
"$mr" run --quiet --profile full --axis runtime=c --repeat 1 --axis allocator=glibc,jemalloc --out "$tmp/alloc-churn" \
	alloc-churn
"$mr" run --quiet --profile full -j 2 --out "$tmp/trackers" \
	amule-arenas arena-ratchet exited-arena ivi-arenas arena-trim trim-after-gc trim-refault \
	go-scavenger go-scavenger-delay jemalloc-chain-thp jemalloc-retain-thp jemalloc-thp-modes \
	jemalloc-thp-threads mimalloc-first-alloc mimalloc-threads
"$mr" run --quiet --profile full -j 2 --out "$tmp/runtimes" \
	java-arenas java-native-trim redis-frag
# arena_eager_commit is an option from mimalloc 2.1 on: the fetched 3.x too
"$mr" run --quiet --profile full -j 2 \
	--axis allocator=glibc,jemalloc,tcmalloc,mimalloc,mimalloc@3.0.1,mimalloc@3.6.0 \
	--out "$tmp/mimalloc-maps" mimalloc-maps
"$mr" run --quiet --profile originals --repeat 1 --out "$tmp/originals" \
	calloc-fresh large-retention deflate-burst retained-buffers fiber-stacks thread-vsz fork-blowup
"$mr" run --quiet --profile originals --repeat 1 --out "$tmp/originals-alloc-churn" alloc-churn
for d in main retained-buffers alloc-churn trackers runtimes mimalloc-maps originals originals-alloc-churn; do
	mkdir -p "$out/$d"
	cp "$tmp/$d/env.tsv" "$tmp/$d/runs.tsv" "$tmp/$d/checkpoints.tsv" "$out/$d/"
done
