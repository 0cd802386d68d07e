#!/bin/sh
# setup.sh: the dependencies (make deps, as root: sudo where not root) and
# the build.
set -eu
if [ "$(id -u)" -eq 0 ]; then s=; else s=sudo; fi
$s apt-get update
$s apt-get install -y make
$s make deps
make -j"$(nproc)" all
