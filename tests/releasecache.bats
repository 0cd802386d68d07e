#!/usr/bin/env bats
# The release cache and its private apt trees under hostile conditions:
# apt failing in ways it is not expected to, two fetches at once, files of
# the cache replaced by what cannot be read (a FIFO), manifests naming
# paths outside their entry, every state a killed fetch can leave, and a
# registry's library that is a FIFO.
# No network: a mirror no method serves, a local directory mirror without
# the files, a stub apt-get, and the fixture archive (release_helper).

load test_helper
load release_helper

setup() {
	command -v dpkg-deb >/dev/null || skip "dpkg-deb not installed"
	release_env
}

# apt_only: the apt source (not the fixture archive) for what follows.
apt_only() {
	command -v apt-get >/dev/null || skip "no apt-get"
	unset MEMREPRO_RELEASES
}

@test "apt-get update failing in a way not classified: exit 1 naming apt's error, a run skips" {
	apt_only
	# a URL scheme apt has no method for
	export MEMREPRO_MIRROR=foo://x/
	run -1 --separate-stderr timeout -k 5 120 "$MR" fetch fakealloc@1.0
	[[ "$stderr" == *"fakealloc@1.0 cannot be had: bullseye: apt-get update failed: apt-get: exit 100: E: The method driver "*"foo could not be found."* ]] || false
	run -1 --separate-stderr timeout -k 5 120 "$MR" versions fakealloc
	[[ "$output" == *"(cannot be had: apt-get update failed: apt-get: exit 100: E: "* ]] || false
	# a local mirror without the files (as a mirror answering 404)
	mkdir -p "$BATS_TEST_TMPDIR/empty"
	export MEMREPRO_MIRROR=file://$BATS_TEST_TMPDIR/empty/
	run -1 --separate-stderr timeout -k 5 120 "$MR" fetch fakealloc@1.0
	[[ "$stderr" == *"cannot be had: bullseye: apt-get update failed: apt-get: exit 100: E: The repository "*"does not have a Release file."* ]] || false
	# a run: the configs of that allocator are skipped with the reason
	export MEMREPRO_MIRROR=foo://x/
	run -0 mrf run showenv --repeat 1 --axis allocator=fakealloc@1.0,glibc
	run -0 tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" outcome '$(idx["config"]) ~ /fakealloc/'
	[ "$output" = skipped ]
	run -0 tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" detail '$(idx["config"]) ~ /fakealloc/'
	[[ "$output" == "fakealloc@1.0 cannot be had: bullseye: apt-get update failed: apt-get: exit 100: E: The method driver "* ]] || false
	run -0 tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" outcome '$(idx["config"]) ~ /glibc/'
	[ "$output" = ok ]
	# a versioned libc the same way, fetched as the run's axis and alone (a
	# version newer than any host's: never the host's own, never older)
	rm -rf "$BATS_TEST_TMPDIR/out"
	run -0 mrf run showenv --repeat 1 --axis allocator=glibc --axis libc=2.99
	run -0 tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" outcome
	[ "$output" = skipped ]
	run -0 tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" detail
	[[ "$output" == "glibc 2.99 cannot be had: "*"apt-get update failed: apt-get: exit 100: E: The method driver "* ]] || false
	run -1 --separate-stderr timeout -k 5 120 "$MR" fetch libc@2.99
	echo "stderr: $stderr"
	[[ "$stderr" == *"cannot be had: "*"apt-get update failed: apt-get: exit 100: E: The method driver "*"foo could not be found."* ]] || false
}

# stub_apt_get: an apt-get in $BATS_TEST_TMPDIR/bin whose update logs its
# start and end with its tree (APT_CONFIG) and its pid, takes a while
# ($STUB_SLEEP seconds), and
# fails as apt does when it cannot fetch.
stub_apt_get() {
	local bin=$BATS_TEST_TMPDIR/bin
	mkdir -p "$bin"
	cat > "$bin/apt-get" <<STUB
#!/bin/sh
echo "start \$APT_CONFIG \$\$" >> $BATS_TEST_TMPDIR/apt.log
sleep \${STUB_SLEEP:-0.3}
echo "end \$APT_CONFIG \$\$" >> $BATS_TEST_TMPDIR/apt.log
echo 'E: stub apt cannot fetch'
exit 100
STUB
	chmod +x "$bin/apt-get"
	PATH="$bin:$PATH"
}

@test "two fetches into an empty cache at once: one waits for the other's apt, both name apt's error" {
	apt_only
	stub_apt_get
	export MEMREPRO_MIRROR=foo://x/
	timeout -k 5 60 "$MR" fetch fakealloc@1.0 > "$BATS_TEST_TMPDIR/a.out" 2>&1 &
	a=$!
	timeout -k 5 60 "$MR" fetch fakealloc@1.0 > "$BATS_TEST_TMPDIR/b.out" 2>&1 &
	b=$!
	sa=0 sb=0
	wait "$a" || sa=$?
	wait "$b" || sb=$?
	[ "$sa" -eq 1 ] && [ "$sb" -eq 1 ]
	grep -q "cannot be had: bullseye: apt-get update failed: apt-get: exit 100: E: stub apt cannot fetch" "$BATS_TEST_TMPDIR/a.out"
	grep -q "cannot be had: bullseye: apt-get update failed: apt-get: exit 100: E: stub apt cannot fetch" "$BATS_TEST_TMPDIR/b.out"
	# every update of one tree ran alone: in each tree, each start is
	# followed by its own end
	run -0 awk '$1 == "start" { if (open[$2]) bad = 1; open[$2] = $3 }
		$1 == "end" { if (open[$2] != $3) bad = 1; open[$2] = "" }
		END { exit bad }' "$BATS_TEST_TMPDIR/apt.log"
	# both ran their updates (4 releases each)
	[ "$(grep -c '^start' "$BATS_TEST_TMPDIR/apt.log")" -eq 8 ]
}

@test "an apt tree locked for longer than the wait: exit 1 saying so, in the bounded time" {
	apt_only
	stub_apt_get
	export MEMREPRO_MIRROR=foo://x/
	lock=$CACHE/apt/bullseye/lock
	mkdir -p "$CACHE/apt/bullseye"
	( exec 9> "$lock"; flock 9; exec sleep 30 ) &
	holder=$!
	wait_for 10 sh -c "! flock -n '$lock' true"
	SECONDS=0
	run -1 --separate-stderr timeout -k 5 60 env MEMREPRO_HELPER_TIMEOUT=1 "$MR" fetch fakealloc@bullseye
	kill "$holder"
	[ "$SECONDS" -lt 10 ]
	[[ "$stderr" == *"fakealloc@bullseye cannot be had: bullseye: $lock: held by another memrepro fetch for over 1 s: waited; try again when it is done"* ]] || false
	[ ! -e "$BATS_TEST_TMPDIR/apt.log" ]
}

@test "a fetch killed while apt runs: the next one waits for the apt it left running" {
	apt_only
	stub_apt_get
	export MEMREPRO_MIRROR=foo://x/
	STUB_SLEEP=2 "$MR" fetch fakealloc@bullseye > /dev/null 2>&1 &
	mr=$!
	wait_for 20 grep -q '^start' "$BATS_TEST_TMPDIR/apt.log"
	kill -KILL "$mr"
	wait "$mr" || true
	run -1 --separate-stderr timeout -k 5 60 env STUB_SLEEP=0.1 "$MR" fetch fakealloc@bullseye
	[[ "$stderr" == *"E: stub apt cannot fetch"* ]] || false
	# the orphaned update ended before the next one started
	run -0 awk '$1 == "start" { if (open[$2]) bad = 1; open[$2] = $3 }
		$1 == "end" { if (open[$2] != $3) bad = 1; open[$2] = "" }
		END { exit bad }' "$BATS_TEST_TMPDIR/apt.log"
	[ "$(grep -c '^end' "$BATS_TEST_TMPDIR/apt.log")" -eq 2 ]
}

# cached_of RELEASE: the CACHED column of memrepro versions fakealloc.
cached_of() {
	timeout -k 5 20 "$MR" versions fakealloc | awk -v r="$1" '$2 == r { print $6 }'
}

@test "a FIFO in place of an unpacked file or of the .deb: corrupt, never blocking; the next fetch repairs it" {
	run -0 --separate-stderr timeout -k 5 60 "$MR" fetch fakealloc@1.0
	entry=$CACHE/pkgs/libfakealloc1_1.0-1
	lib=$entry/usr/lib/x86_64-linux-gnu/libfakealloc.so.1
	deb=$CACHE/debs/bookworm/libfakealloc1_1.0-1_amd64.deb
	rm "$lib"
	mkfifo "$lib"
	run -0 cached_of bookworm
	[ "$output" = corrupt ]
	# unpacking again cannot be had: the reason names the FIFO
	bin=$BATS_TEST_TMPDIR/bin
	mkdir -p "$bin"
	printf '#!/bin/sh\n[ "$1" != -x ] || { echo no unpacking here; exit 3; }\nexec %s "$@"\n' \
		"$(command -v dpkg-deb)" > "$bin/dpkg-deb"
	chmod +x "$bin/dpkg-deb"
	run -1 --separate-stderr timeout -k 5 60 env PATH="$bin:$PATH" "$MR" fetch fakealloc@1.0
	[[ "$stderr" == *"cannot be had: the cache entry does not verify ($lib: not a regular file (a FIFO)) and cannot be unpacked again: unpack "* ]] || false
	run -0 --separate-stderr timeout -k 5 60 "$MR" fetch fakealloc@1.0
	[[ "$output" == *"(fetched)"* ]] || false
	[ -f "$lib" ] && cmp "$lib" "$FAKEALLOC/1.0/libfakealloc.so.1"
	# a run that needs the entry: repaired, never blocked
	rm "$lib"
	mkfifo "$lib"
	run -0 mrf run showenv --repeat 1 --axis allocator=fakealloc@1.0
	run -0 tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" outcome
	[ "$output" = ok ]
	[ -f "$lib" ]
	cmp "$lib" "$FAKEALLOC/1.0/libfakealloc.so.1"
	# the .deb
	rm "$deb"
	mkfifo "$deb"
	run -0 cached_of bookworm
	[ "$output" = corrupt ]
	run -0 --separate-stderr timeout -k 5 60 "$MR" fetch fakealloc@1.0
	[[ "$output" == *"(fetched)"* ]] || false
	[ -f "$deb" ] && cmp "$deb" "$REL/bookworm/libfakealloc1_1.0-1_amd64.deb"
	run -0 cached_of bookworm
	[ "$output" = yes ]
	# the manifest itself
	mv "$entry/.memrepro-manifest" "$BATS_TEST_TMPDIR/manifest"
	mkfifo "$entry/.memrepro-manifest"
	run -0 cached_of bookworm
	[ "$output" = no ]
	run -0 --separate-stderr timeout -k 5 60 "$MR" fetch fakealloc@1.0
	[[ "$output" == *"(fetched)"* ]] || false
	[ -f "$entry/.memrepro-manifest" ]
}

@test "manifest paths stay inside their entry: '..', absolute, through a link: corrupt, unpacked again" {
	run -0 --separate-stderr timeout -k 5 60 "$MR" fetch fakealloc@1.0
	entry=$CACHE/pkgs/libfakealloc1_1.0-1
	man=$entry/.memrepro-manifest
	cp "$man" "$BATS_TEST_TMPDIR/good"
	echo outside > "$BATS_TEST_TMPDIR/outside"
	h=$(sha256sum "$BATS_TEST_TMPDIR/outside" | cut -d' ' -f1)
	mkfifo "$BATS_TEST_TMPDIR/fifo"
	ln -s "$BATS_TEST_TMPDIR" "$entry/usr/up"
	# entry = $BATS_TEST_TMPDIR/cache/memrepro/pkgs/<entry>: four levels up
	for line in "../../../../outside" "$BATS_TEST_TMPDIR/outside" "usr/up/outside" \
		"usr/../../../../../outside" "../../../../fifo"; do
		cp "$BATS_TEST_TMPDIR/good" "$man"
		printf 'file\t%s\t%s\n' "$h" "$line" >> "$man"
		run -0 cached_of bookworm
		[ "$output" = corrupt ] || { echo "verified: $line"; false; }
	done
	run -0 --separate-stderr timeout -k 5 60 "$MR" fetch fakealloc@1.0
	[[ "$output" == *"(fetched)"* ]] || false
	run -0 grep -c $'^file\t' "$man"
	[ "$output" -eq "$(grep -c $'^file\t' "$BATS_TEST_TMPDIR/good")" ]
	run -0 cached_of bookworm
	[ "$output" = yes ]
	# a manifest whose .deb is outside the cache
	sed -i "s|^deb\t.*|deb\t../../outside|" "$man"
	sed -i "s|^sha256\t.*|sha256\t$h|" "$man"
	run -0 cached_of bookworm
	[ "$output" = corrupt ]
}

# killed_state ID STATE: the cache as a fetch of fakealloc@1.0 killed at
# STATE leaves it, made from a good entry in $BATS_TEST_TMPDIR/ref (ID: the
# killed fetch's PID-pNS, of a pid that is gone in pid namespace NS).
killed_state() {
	local ref=$BATS_TEST_TMPDIR/ref/memrepro dead=$1 state=$2
	local e=pkgs/libfakealloc1_1.0-1 d=debs/bookworm/libfakealloc1_1.0-1_amd64.deb
	rm -rf "$CACHE"
	mkdir -p "$CACHE/pkgs" "$CACHE/debs/bookworm"
	case $state in
	download) # half the .deb in the download's directory
		mkdir -p "$CACHE/debs/bookworm/.tmp-$dead-0"
		head -c 1000 "$ref/$d" > "$CACHE/debs/bookworm/.tmp-$dead-0/${d##*/}" ;;
	downloaded) # the .deb in place, nothing unpacked
		cp "$ref/$d" "$CACHE/$d" ;;
	unpacking) # half a tree
		cp "$ref/$d" "$CACHE/$d"
		mkdir -p "$CACHE/$e.tmp-$dead-0/usr/lib"
		echo half > "$CACHE/$e.tmp-$dead-0/usr/lib/libfakealloc.so.1" ;;
	unpacked) # the whole tree, no manifest
		cp "$ref/$d" "$CACHE/$d"
		cp -a "$ref/$e" "$CACHE/$e.tmp-$dead-0"
		rm "$CACHE/$e.tmp-$dead-0/.memrepro-manifest" ;;
	manifest) # the whole tree and its manifest, not yet in place
		cp "$ref/$d" "$CACHE/$d"
		cp -a "$ref/$e" "$CACHE/$e.tmp-$dead-0" ;;
	half-manifest) # a manifest cut short, not yet in place
		cp "$ref/$d" "$CACHE/$d"
		cp -a "$ref/$e" "$CACHE/$e.tmp-$dead-0"
		head -c 100 "$ref/$e/.memrepro-manifest" > "$CACHE/$e.tmp-$dead-0/.memrepro-manifest" ;;
	swapping) # an older entry moved aside, the new one not yet in place
		cp "$ref/$d" "$CACHE/$d"
		cp -a "$ref/$e" "$CACHE/$e.old-$dead-0"
		cp -a "$ref/$e" "$CACHE/$e.tmp-$dead-0" ;;
	in-place) # in place, the older entry not yet removed
		cp "$ref/$d" "$CACHE/$d"
		cp -a "$ref/$e" "$CACHE/$e"
		cp -a "$ref/$e" "$CACHE/$e.old-$dead-0" ;;
	esac
}

@test "a fetch killed at any point: the next fetch finds what it left and completes the entry" {
	XDG_CACHE_HOME=$BATS_TEST_TMPDIR/ref run -0 --separate-stderr timeout -k 5 60 "$MR" fetch fakealloc@1.0
	# a pid that is gone: a child of ours, reaped
	sh -c 'exit 0' &
	dead=$!
	wait "$dead" || true
	pid_gone "$dead"
	dead="$dead-p$(stat -L -c %i /proc/self/ns/pid)"
	for state in download downloaded unpacking unpacked manifest half-manifest swapping in-place; do
		killed_state "$dead" "$state"
		run -0 cached_of bookworm
		[ "$output" = no ] || [ "$state" = in-place ] || { echo "$state: cached $output"; false; }
		run -0 --separate-stderr timeout -k 5 60 "$MR" fetch fakealloc@1.0
		cmp "$CACHE/pkgs/libfakealloc1_1.0-1/usr/lib/x86_64-linux-gnu/libfakealloc.so.1" \
			"$FAKEALLOC/1.0/libfakealloc.so.1"
		cmp "$CACHE/debs/bookworm/libfakealloc1_1.0-1_amd64.deb" "$REL/bookworm/libfakealloc1_1.0-1_amd64.deb"
		run -0 cached_of bookworm
		[ "$output" = yes ]
		run -0 find "$CACHE" -name '*.tmp-*' -o -name '*.old-*'
		[ -z "$output" ] || { echo "$state: left $output"; false; }
	done
}

@test "a registry library that is a FIFO: skipped at once as not a regular file" {
	mkfifo "$BATS_TEST_TMPDIR/libevil.so"
	printf '%s\n' '[evil]' "library = $BATS_TEST_TMPDIR/libevil.so" 'options = none' 'default = no' \
		>> "$XDG_CONFIG_HOME/memrepro/allocators"
	SECONDS=0
	run -0 mrf run showenv --repeat 1 --axis allocator=evil
	[ "$SECONDS" -lt 5 ]
	run -0 tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" detail
	[ "$output" = "$BATS_TEST_TMPDIR/libevil.so: not a regular file (a FIFO)" ]
}

@test "what a fetch of another pid namespace, or of an older runner, left is not removed: its pid means nothing here" {
	XDG_CACHE_HOME=$BATS_TEST_TMPDIR/ref run -0 --separate-stderr timeout -k 5 60 "$MR" fetch fakealloc@1.0
	sh -c 'exit 0' &
	dead=$!
	wait "$dead" || true
	pid_gone "$dead"
	local ns
	ns=$(stat -L -c %i /proc/self/ns/pid)
	# a fetch alive in another namespace, whose pid is gone in ours
	killed_state "$dead-p$((ns + 1))" in-place
	# an older runner's name, without the namespace
	cp -a "$CACHE/pkgs/libfakealloc1_1.0-1" "$CACHE/pkgs/libfakealloc1_1.0-1.tmp-$dead-0"
	run -0 --separate-stderr timeout -k 5 60 "$MR" fetch fakealloc@1.0
	[ -d "$CACHE/pkgs/libfakealloc1_1.0-1.old-$dead-p$((ns + 1))-0" ]
	[ -d "$CACHE/pkgs/libfakealloc1_1.0-1.tmp-$dead-0" ]
	# ours, gone: removed
	mv "$CACHE/pkgs/libfakealloc1_1.0-1.tmp-$dead-0" "$CACHE/pkgs/libfakealloc1_1.0-1.tmp-$dead-p$ns-0"
	run -0 --separate-stderr timeout -k 5 60 "$MR" fetch fakealloc@1.0
	[ ! -e "$CACHE/pkgs/libfakealloc1_1.0-1.tmp-$dead-p$ns-0" ]
}

@test "a guest's runner (MEMREPRO_GUEST) resolves from the cache alone: no apt, no lock, nothing written" {
	run -0 timeout -k 5 120 "$MR" fetch fakealloc@1.0
	stub_apt_get
	export PATH=$BATS_TEST_TMPDIR/bin:$PATH MEMREPRO_MIRROR=foo://x/ MEMREPRO_GUEST=1
	unset MEMREPRO_RELEASES
	rm -rf "$CACHE/apt"
	before=$(find "$CACHE" | sort | md5sum)
	run -0 --separate-stderr timeout -k 5 120 "$MR" versions fakealloc
	[[ "$output" == *"bookworm  libfakealloc1"*"1.0"*"yes"* ]] || false
	run -0 --separate-stderr timeout -k 5 120 "$MR" fetch fakealloc@1.0
	# what the cache does not hold is no version (exit 2), the cached ones named
	run -2 --separate-stderr timeout -k 5 120 "$MR" fetch fakealloc@9.9
	echo "$stderr"
	[[ "$stderr" == *"fakealloc@9.9"*"1.0"* ]] || false
	[ ! -e "$BATS_TEST_TMPDIR/apt.log" ]
	[ ! -e "$CACHE/apt" ]
	[ "$(find "$CACHE" | sort | md5sum)" = "$before" ]
}

@test "the host's index answer is rewritten only when it changes: same inode after the same answer" {
	apt_only
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	# apt-cache answers the version in $BATS_TEST_TMPDIR/version
	echo 2:7.7-1 > "$BATS_TEST_TMPDIR/version"
	printf '#!/bin/sh\nprintf "Package: %%s\\nVersion: %%s\\nSHA256: %s\\n\\n" "$3" "$(cat %s/version)"\n' \
		"$(printf '%064d' 7)" "$BATS_TEST_TMPDIR" > "$BATS_TEST_TMPDIR/bin/apt-cache"
	printf '#!/bin/sh\nd=$(dirname "$APT_CONFIG")/state/lists\nmkdir -p "$d" && : > "$d/stub_Packages"\n' \
		> "$BATS_TEST_TMPDIR/bin/apt-get"
	chmod +x "$BATS_TEST_TMPDIR/bin/apt-cache" "$BATS_TEST_TMPDIR/bin/apt-get"
	export PATH=$BATS_TEST_TMPDIR/bin:$PATH MEMREPRO_MIRROR=file://$BATS_TEST_TMPDIR/none/
	f=$CACHE/apt/bookworm/answers/libfakealloc1
	run -0 --separate-stderr timeout -k 5 120 "$MR" versions fakealloc
	[ "$(cat "$f")" = "2:7.7-1 $(printf '%064d' 7)" ]
	before=$(stat -c '%i %Y.%y' "$f")
	sleep 1.1
	run -0 --separate-stderr timeout -k 5 120 "$MR" versions fakealloc
	[ "$(stat -c '%i %Y.%y' "$f")" = "$before" ]
	# another answer: written (through a new file and a rename)
	echo 2:7.8-1 > "$BATS_TEST_TMPDIR/version"
	run -0 --separate-stderr timeout -k 5 120 "$MR" versions fakealloc
	[ "$(cat "$f")" = "2:7.8-1 $(printf '%064d' 7)" ]
	[ "$(stat -c '%i' "$f")" != "${before%% *}" ]
}

@test "a guest's runner answers from what the host's index answered: a package never fetched (a metapackage), no apt" {
	apt_only
	# the host: an index that answers (a stub apt-cache), kept in the cache
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	printf '#!/bin/sh\nprintf "Package: %%s\\nVersion: 2:7.7-1\\nSHA256: %s\\n\\n" "$3"\n' \
		"$(printf '%064d' 7)" > "$BATS_TEST_TMPDIR/bin/apt-cache"
	# an update that leaves a Packages list in the tree's lists
	printf '#!/bin/sh\nd=$(dirname "$APT_CONFIG")/state/lists\nmkdir -p "$d" && : > "$d/stub_Packages"\n' \
		> "$BATS_TEST_TMPDIR/bin/apt-get"
	chmod +x "$BATS_TEST_TMPDIR/bin/apt-cache" "$BATS_TEST_TMPDIR/bin/apt-get"
	export PATH=$BATS_TEST_TMPDIR/bin:$PATH MEMREPRO_MIRROR=file://$BATS_TEST_TMPDIR/none/
	run -0 --separate-stderr timeout -k 5 120 "$MR" versions fakealloc
	[[ "$output" == *"bookworm  libfakealloc1"*"2:7.7-1"*"7.7"* ]] || false
	[ "$(cat "$CACHE/apt/bookworm/answers/libfakealloc1")" = "2:7.7-1 $(printf '%064d' 7)" ]
	# the guest: no apt at all, the same answer
	rm "$BATS_TEST_TMPDIR/bin/apt-cache" "$BATS_TEST_TMPDIR/bin/apt-get"
	printf '#!/bin/sh\ntouch %s/apt.used; exit 100\n' "$BATS_TEST_TMPDIR" > "$BATS_TEST_TMPDIR/bin/apt-cache"
	cp "$BATS_TEST_TMPDIR/bin/apt-cache" "$BATS_TEST_TMPDIR/bin/apt-get"
	chmod +x "$BATS_TEST_TMPDIR/bin/apt-cache" "$BATS_TEST_TMPDIR/bin/apt-get"
	MEMREPRO_GUEST=1 run -0 --separate-stderr timeout -k 5 120 "$MR" versions fakealloc
	[[ "$output" == *"bookworm  libfakealloc1"*"2:7.7-1"*"7.7"* ]] || false
	[ ! -e "$BATS_TEST_TMPDIR/apt.used" ]
	# an answer file that is not the index's lines: nothing of it taken
	for f in "$CACHE"/apt/*/answers/libfakealloc1; do
		printf 'garbage\n../x y\n' > "$f"
	done
	MEMREPRO_GUEST=1 run -0 --separate-stderr timeout -k 5 120 "$MR" versions fakealloc
	[[ "$output" != *"7.7"* ]] || false
}
