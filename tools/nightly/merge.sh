#!/bin/sh
# merge.sh OUT SHARD_DIR...: one platform's shards into OUT.
set -eu
. "$(dirname "$0")/lib.sh"
[ $# -ge 2 ] || die "usage: merge.sh OUT SHARD_DIR..."
out=$1
shift
"$MR" merge --out "$out" "$@"
