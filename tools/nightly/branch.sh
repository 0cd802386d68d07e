#!/bin/sh
# branch.sh open DIR: the `history` branch (NIGHTLY_BRANCH) checked out
# into DIR as a worktree of this repository (a new orphan branch the first
# night).  branch.sh push DIR: commit what DIR holds and push it with the
# checkout's token.
set -eu
[ $# -eq 2 ] || { echo "usage: branch.sh open|push DIR" >&2; exit 2; }
b=${NIGHTLY_BRANCH:-history}
d=$2
case $1 in
open)
	if git fetch --depth 1 origin "$b" 2>/dev/null; then
		git worktree add -B "$b" "$d" FETCH_HEAD
	else
		git worktree add --detach "$d"
		git -C "$d" checkout --orphan "$b"
		git -C "$d" rm -rfq --ignore-unmatch .
	fi
	;;
push)
	git -C "$d" add -A .
	if git -C "$d" diff --cached --quiet; then
		echo "history: nothing new"
		exit 0
	fi
	git -C "$d" -c user.name="memrepro nightly" -c user.email="nightly@localhost" \
		commit -qm "nightly $(date -u +%F)"
	git -C "$d" push origin "HEAD:refs/heads/$b"
	;;
*) echo "branch.sh: '$1': open or push" >&2; exit 2 ;;
esac
