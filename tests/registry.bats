#!/usr/bin/env bats
# The allocator registry: etc/allocators, the user's file, --allocators,
# --alloc; what a bad file, an unknown name or a missing library gives.

load test_helper

# The fixture allocator (tests/fixtures/lib/mrfixalloc.c), built once:
# $LIBDIR/libmrfix.so.1.2.3 and its soname link libmrfix.so.1.
setup_file() {
	LIBDIR="$BATS_FILE_TMPDIR/lib"
	mkdir -p "$LIBDIR"
	"${CC:-cc}" -O2 -fPIC -shared -Wl,-soname,libmrfix.so.1 \
		-o "$LIBDIR/libmrfix.so.1.2.3" "$ROOT/tests/fixtures/lib/mrfixalloc.c"
	ln -sf libmrfix.so.1.2.3 "$LIBDIR/libmrfix.so.1"
	export LIBDIR
}

setup() {
	# no user registry but the test's own
	export XDG_CONFIG_HOME="$BATS_TEST_TMPDIR/config"
	mkdir -p "$XDG_CONFIG_HOME/memrepro"
}

# reg FILE: write stdin into FILE.
reg() {
	cat > "$1"
}

@test "the default allocator axis is glibc, jemalloc, tcmalloc, mimalloc, as before the registry" {
	run -0 mr describe ok --cases "$FIX" --axis mode=a
	[ "$(printf '%s\n' "$output" | sed -n 's/^  allocator=//p')" = "$(printf '%s\n' \
		glibc,mode=a jemalloc,mode=a tcmalloc,mode=a mimalloc,mode=a)" ]
}

@test "the shipped registry names tcmalloc-full, tbbmalloc and scudo beside the four" {
	run -0 mr describe ok --cases "$FIX" --axis mode=a --axis allocator=tcmalloc-full,tbbmalloc,scudo
	[[ "$output" == *"allocator=tcmalloc-full,mode=a"* ]] || false
	[[ "$output" == *"allocator=tbbmalloc,mode=a"* ]] || false
	[[ "$output" == *"allocator=scudo,mode=a"* ]] || false
}

@test "a user's registry file adds an allocator: found in its search directory, preloaded, its version recorded" {
	reg "$XDG_CONFIG_HOME/memrepro/allocators" <<-EOF
	# a fixture allocator
	[fix]
	library = libmrfix.so.1
	search = $BATS_FILE_TMPDIR/l*b
	EOF
	run -0 mrf run ok --axis allocator=glibc,fix --axis mode=a --repeat 1
	d=$BATS_TEST_TMPDIR/out
	[ "$(tsv_col "$d/runs.tsv" outcome | sort -u)" = ok ]
	grep -q $'^allocator.fix.version\t1.2.3$' "$d/env.tsv"
	grep -q $'^allocator.fix.path\t'"$LIBDIR/libmrfix.so.1"'$' "$d/env.tsv"
	# the case itself ran with it, glibc's config without it
	log=$(tsv_col "$d/runs.tsv" log '$2 ~ /allocator=fix/')
	grep -q '^mrfixalloc: loaded' "$d/$log"
	log=$(tsv_col "$d/runs.tsv" log '$2 ~ /allocator=glibc/')
	run ! grep -q mrfixalloc "$d/$log"
	# not in the default axis: only named ones run
	run -0 mr describe ok --cases "$FIX" --axis mode=a
	[[ "$output" != *allocator=fix* ]] || false
}

@test "without XDG_CONFIG_HOME the user's registry is ~/.config/memrepro/allocators" {
	mkdir -p "$BATS_TEST_TMPDIR/home/.config/memrepro"
	printf '[fixhome]\nlibrary = libmrfix.so.1\n' > "$BATS_TEST_TMPDIR/home/.config/memrepro/allocators"
	HOME=$BATS_TEST_TMPDIR/home run -0 env -u XDG_CONFIG_HOME "$MR" describe ok --cases "$FIX" \
		--axis mode=a --axis allocator=fixhome
	[[ "$output" == *"allocator=fixhome,mode=a"* ]] || false
}

@test "--allocators FILE replaces an entry by name, after the user's file; a missing library is skipped naming its package" {
	printf '[jemalloc]\nlibrary = libmemrepro-user.so.1\npackage = libmemrepro-user1\n' \
		> "$XDG_CONFIG_HOME/memrepro/allocators"
	reg "$BATS_TEST_TMPDIR/mine" <<-'EOF'
	[jemalloc]
	library = libmemrepro-no-such-jemalloc.so.7   # not installed anywhere
	package = libmemrepro-jemalloc7
	default = yes
	EOF
	run -0 mrf run ok --axis allocator=glibc,jemalloc --axis mode=a --repeat 1 \
		--allocators "$BATS_TEST_TMPDIR/mine"
	d=$BATS_TEST_TMPDIR/out
	[ "$(tsv_col "$d/runs.tsv" outcome '$2 ~ /allocator=jemalloc/')" = skipped ]
	[ "$(tsv_col "$d/runs.tsv" detail '$2 ~ /allocator=jemalloc/')" = \
		"libmemrepro-no-such-jemalloc.so.7 not found by the dynamic loader (Debian package libmemrepro-jemalloc7)" ]
	[ "$(tsv_col "$d/runs.tsv" outcome '$2 ~ /allocator=glibc/')" = ok ]
	grep -q $'^allocator.jemalloc.missing\tlibmemrepro-no-such-jemalloc.so.7 not found' "$d/env.tsv"
}

@test "a missing library in a search directory names the directories and the package" {
	reg "$BATS_TEST_TMPDIR/mine" <<-'EOF'
	[hidden]
	library = libmemrepro-hidden.so
	package = libmemrepro-hidden-dev
	search = /nonexistent/llvm-*/lib
	EOF
	run -0 mrf run ok --axis allocator=hidden --axis mode=a --repeat 1 \
		--allocators "$BATS_TEST_TMPDIR/mine"
	[ "$(tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" detail)" = \
		"libmemrepro-hidden.so not found by the dynamic loader nor in /nonexistent/llvm-*/lib (Debian package libmemrepro-hidden-dev)" ]
}

@test "--alloc NAME=PATH adds an allocator; NAME=SONAME overrides one; a path that is not there is exit 2 naming it" {
	run -0 mrf run ok --axis allocator=mine --axis mode=a --repeat 1 \
		--alloc "mine=$LIBDIR/libmrfix.so.1.2.3"
	d=$BATS_TEST_TMPDIR/out
	[ "$(tsv_col "$d/runs.tsv" outcome)" = ok ]
	grep -q $'^allocator.mine.version\t1.2.3$' "$d/env.tsv"
	rm -rf "$d"
	# an override keeps the entry's place in the default axis
	run -0 mrf run ok --axis mode=a --repeat 1 --alloc tcmalloc=libmemrepro-no-such.so.3
	[ "$(tsv_col "$d/runs.tsv" outcome '$2 ~ /allocator=tcmalloc/')" = skipped ]
	[ "$(tsv_col "$d/runs.tsv" detail '$2 ~ /allocator=tcmalloc/')" = \
		"libmemrepro-no-such.so.3 not found by the dynamic loader" ]
	run -2 mr describe ok --cases "$FIX" --alloc "mine=$BATS_TEST_TMPDIR/nothing.so"
	[[ "$output" == *"--alloc 'mine=$BATS_TEST_TMPDIR/nothing.so': $BATS_TEST_TMPDIR/nothing.so: No such file or directory"* ]] || false
	run -2 mr describe ok --cases "$FIX" --alloc "Mine=libc.so.6"
	[[ "$output" == *"bad allocator name 'Mine'"* ]] || false
	run -2 mr describe ok --cases "$FIX" --alloc "glibc=libmrfix.so.1"
	[[ "$output" == *"glibc is the C library itself"* ]] || false
	run -2 mr describe ok --cases "$FIX" --alloc "mine"
	[[ "$output" == *"--alloc 'mine': want NAME=PATH or NAME=SONAME"* ]] || false
}

@test "an allocator not in the registry is exit 2 naming it, a near name and the registry's names" {
	run -2 mr describe ok --cases "$FIX" --axis allocator=glibc,tcmaloc
	[[ "$output" == *"unknown allocator 'tcmaloc'; did you mean 'tcmalloc'?; the registry has: glibc, jemalloc, tcmalloc, mimalloc, tcmalloc-full, tbbmalloc, scudo"* ]] || false
	run -2 mrf run ok --axis allocator=hoard --repeat 1
	[[ "$output" == *"unknown allocator 'hoard'; the registry has: glibc, "* ]] || false
	[[ "$output" != *"did you mean"* ]] || false
	[ ! -e "$BATS_TEST_TMPDIR/out/runs.tsv" ]
}

@test "a bad registry file is exit 2 with FILE:LINE:COL and what is wrong" {
	f=$BATS_TEST_TMPDIR/bad
	check_bad() { # TEXT WHERE MESSAGE
		printf '%b' "$1" > "$f"
		run -2 mr describe ok --cases "$FIX" --allocators "$f"
		echo "# $1 -> $output"
		[[ "$output" == "$f:$2: $3"* ]] || false
	}
	check_bad 'library = x\n' 1:1 "a field outside an entry"
	check_bad '# c\n[Bad]\nlibrary = x\n' 2:2 "bad allocator name 'Bad'"
	check_bad '[ok\n' 1:4 "want ']'"
	check_bad '[ok] x\nlibrary = y\n' 1:6 "unexpected text after [ok]"
	check_bad '[a]\n  libary = x\n' 2:3 "unknown field 'libary'; did you mean 'library'?"
	check_bad '[a]\nlibrary x\n' 2:10 "want FIELD = VALUE"
	check_bad '[a]\nlibrary = a b\n' 2:11 "library 'a b': want a file name"
	check_bad '[a]\nlibrary =   # only a comment\n' 2:10 "library: empty value"
	check_bad '[a]\nlibrary = x\npackage = Libx\n' 3:11 "package 'Libx': want a Debian package name"
	check_bad '[a]\nlibrary = x\noptions = conf malloc_conf\n' 3:16 "options conf: want an environment variable name"
	check_bad '[a]\nlibrary = x\noptions = env\n' 3:14 "options env: want an environment variable name (A-Z, 0-9, _) or prefix"
	check_bad '[a]\nlibrary = x\noptions = malloc_conf\n' 3:11 "options 'malloc_conf': want none, tunables, conf VARIABLE or env PREFIX"
	check_bad '[a]\nlibrary = x\ndefault = maybe\n' 3:11 "default 'maybe': want yes or no"
	check_bad '[a]\nlibrary = x\nlibrary = y\n' 3:1 "library given twice in [a] (first at line 2)"
	check_bad '[a]\nlibrary = x\nlibrary@trixie,Sid = y\n' 3:16 "bad release name after library@"
	check_bad '[a]\nlibrary = x\noptions@sid = none\n' 3:8 "options cannot differ per release"
	check_bad '[a]\npackage = liba1\n' 1:1 "entry [a] has no library"
	check_bad '[a]\nlibrary = x\n[a]\nlibrary = y\n' 3:2 "entry [a] given twice in this file (first at line 1)"
	check_bad '[a]\nlibrary = x\nsearch = lib/*\n' 3:10 "search 'lib/*': want an absolute directory"
	check_bad '[a]\nlibrary = x\x01\n' 2:12 "control character 0x01"
}

@test "a registry file that cannot be read is exit 2 naming it; so is a broken user file" {
	run -2 mr describe ok --cases "$FIX" --allocators "$BATS_TEST_TMPDIR/none"
	[[ "$output" == *"$BATS_TEST_TMPDIR/none: cannot read the allocator registry: No such file or directory"* ]] || false
	printf '[a]\n' > "$XDG_CONFIG_HOME/memrepro/allocators"
	run -2 mr describe ok --cases "$FIX"
	[[ "$output" == *"$XDG_CONFIG_HOME/memrepro/allocators:1:1: entry [a] has no library"* ]] || false
	# commands that build no matrix do not read it
	run -0 mr list --cases "$FIX"
}

@test "an option channel that could make a variable the runner sets itself: exit 2 at FILE:LINE:COL, nothing run" {
	f=$XDG_CONFIG_HOME/memrepro/allocators
	refused() { # OPTIONS COL WORDS
		printf '[evil]\nlibrary = libmrfix.so.1\noptions = %s\n' "$1" > "$f"
		run -2 mrf run showenv --axis allocator=evil --axis evil.preload=x --repeat 1
		echo "# $1 -> $output"
		[[ "$output" == "$f:3:$2: options $1: $3 the runner's own ("*"): it sets LD_*, MEMREPRO_*, GLIBC_TUNABLES and RUBYLIB for a case itself"* ]] || false
		[ ! -e "$BATS_TEST_TMPDIR/out/runs.tsv" ]
	}
	refused 'env LD_' 15 "its variables could be"
	refused 'env L' 15 "its variables could be"
	refused 'env LD_PRE' 15 "its variables could be"
	refused 'env MEMREPRO_' 15 "its variables could be"
	refused 'env MEMREPRO_CKPT' 15 "its variables could be"
	refused 'env GLIBC_' 15 "its variables could be"
	refused 'env RUBY' 15 "its variables could be"
	refused 'conf LD_PRELOAD' 16 "a variable of"
	refused 'conf LD_LIBRARY_PATH' 16 "a variable of"
	refused 'conf GLIBC_TUNABLES' 16 "a variable of"
	refused 'conf MEMREPRO_CKPT_FD' 16 "a variable of"
	refused 'conf RUBYLIB' 16 "a variable of"
	# what cannot make one of them is taken
	for ok in 'env LDX_' 'env GLIBC_TUNABLES_' 'env RUBYLIB_' 'conf MALLOC_CONF' 'conf LD'; do
		printf '[evil]\nlibrary = libmrfix.so.1\noptions = %s\n' "$ok" > "$f"
		run -0 mr describe showenv --cases "$FIX" --axis allocator=evil --axis evil.x=1
	done
}

@test "[glibc] that preloads, or another entry that preloads nothing: exit 2 at FILE:LINE:COL" {
	f=$XDG_CONFIG_HOME/memrepro/allocators
	printf '# mine\n[glibc]\nlibrary = libmrfix.so.1\n' > "$f"
	run -2 mrf run ok --axis allocator=glibc --axis mode=a --repeat 1
	[[ "$output" == "$f:2:2: entry [glibc] has no 'preload = no': it would preload libmrfix.so.1 while the results say glibc"* ]] || false
	[ ! -e "$BATS_TEST_TMPDIR/out/runs.tsv" ]
	printf '[glibc]\nlibrary = libmrfix.so.1\npreload = yes\n' > "$f"
	run -2 mr describe ok --cases "$FIX" --axis mode=a
	[[ "$output" == "$f:3:11: preload yes: [glibc] is the C library itself, which nothing preloads"* ]] || false
	printf '[jemalloc]\nlibrary = libjemalloc.so.2\npreload = no\n' > "$f"
	run -2 mr describe ok --cases "$FIX" --axis mode=a
	[[ "$output" == "$f:3:11: preload no: only [glibc], the C library itself, preloads nothing; [jemalloc] would run glibc's malloc under its name"* ]] || false
	# the shipped [glibc], and one of the user's like it, are taken
	printf '[glibc]\nlibrary = libc.so.6\npreload = no\noptions = tunables\n' > "$f"
	run -0 mr describe ok --cases "$FIX" --axis mode=a --axis allocator=glibc
}
