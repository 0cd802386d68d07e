#!/bin/sh
# branch.sh open DIR: the `history` branch (NIGHTLY_BRANCH) checked out
# into DIR as a worktree of this repository (a new orphan branch the first
# night).  branch.sh push DIR: commit what DIR holds and push it with the
# checkout's token.  NIGHTLY_BRANCH must be a branch name (git
# check-ref-format --branch, not starting with `-`); a history holding
# anything but regular files and directories (a link: git stores them) is
# refused on open and on push (exit 2).
set -eu
die() { echo "$0: $*" >&2; exit 2; }
[ $# -eq 2 ] || die "usage: branch.sh open|push DIR"
b=${NIGHTLY_BRANCH:-history}
case $b in -* | '') die "NIGHTLY_BRANCH '$b': a branch name wanted" ;; esac
[ "$(git check-ref-format --branch "$b" 2>/dev/null)" = "$b" ] ||
	die "NIGHTLY_BRANCH '$b': not a valid branch name (git check-ref-format --branch)"
d=$2
# no_links: refused if DIR's tree holds a link or other than regular files
# and directories (.git, the worktree's own, aside).
no_links() {
	bad=$(find -P "$d" -path "$d/.git" -prune -o ! -type f ! -type d -print -quit)
	[ -z "$bad" ] || die "$bad: not a regular file or directory (a link or other) in the history: refused"
}
case $1 in
open)
	if git fetch --depth 1 origin -- "$b" 2>/dev/null; then
		git worktree add -B "$b" -- "$d" FETCH_HEAD
	else
		git worktree add --detach -- "$d"
		git -C "$d" checkout --orphan "$b"
		git -C "$d" rm -rfq --ignore-unmatch .
	fi
	no_links
	;;
push)
	no_links
	git -C "$d" add -A .
	if git -C "$d" diff --cached --quiet; then
		echo "history: nothing new"
		exit 0
	fi
	git -C "$d" -c user.name="memrepro nightly" -c user.email="nightly@localhost" \
		commit -qm "nightly $(date -u +%F)"
	git -C "$d" push origin -- "HEAD:refs/heads/$b"
	;;
*) die "'$1': open or push" ;;
esac
