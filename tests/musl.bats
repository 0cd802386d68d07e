#!/usr/bin/env bats
# allocator=musl: the registry's "build = musl", the cases' second build
# with musl-gcc (CASES/musl/NAME), and a case that has none (NAME.skip).

load test_helper

# A cases dir holding the fixture ok and its musl build, linked with the
# musl build of lib/ (make's build/cases/musl/libmr.a), as make builds the
# corpus's.
setup_file() {
	MCASES="$BATS_FILE_TMPDIR/cases"
	mkdir -p "$MCASES/musl"
	cp "$FIX/ok" "$MCASES/ok"
	if command -v musl-gcc >/dev/null && [ -f "$CASES/musl/libmr.a" ]; then
		musl-gcc -std=c11 -D_GNU_SOURCE -O2 -I"$ROOT/lib" -static -o "$MCASES/musl/ok" \
			"$ROOT/tests/fixtures/ok.c" "$CASES/musl/libmr.a" -lpthread
	fi
	export MCASES
}

setup() {
	export XDG_CONFIG_HOME="$BATS_TEST_TMPDIR/config"
	export XDG_CACHE_HOME="$BATS_TEST_TMPDIR/cache"
}

needs_musl() {
	[ -x "$MCASES/musl/ok" ] || skip "no musl-gcc (Debian package musl-tools) or no build/cases/musl/libmr.a"
}

@test "allocator=musl runs the case's static musl build, nothing preloaded; glibc runs the host's" {
	needs_musl
	run -0 file "$MCASES/musl/ok"
	[[ "$output" == *"statically linked"* ]] || false
	run -0 timeout -k 5 120 "$MR" run ok --cases "$MCASES" --out "$BATS_TEST_TMPDIR/out" \
		--axis allocator=glibc,musl --axis mode=a --repeat 1 --verbose
	[[ "$output" == *"# exec: $MCASES/musl/ok --param mode=a"* ]] || false
	[[ "$output" == *"# exec: $MCASES/ok --param mode=a"* ]] || false
	[[ "$output" != *"LD_PRELOAD"* ]] || false
	d=$BATS_TEST_TMPDIR/out
	[ "$(tsv_col "$d/runs.tsv" outcome '$2 ~ /allocator=musl/')" = ok ]
	[ "$(tsv_col "$d/runs.tsv" outcome '$2 ~ /allocator=glibc/')" = ok ]
	grep -q $'^allocator.musl.path\t/.*/libc.a$' "$d/env.tsv"
	# the version its loader says (Debian package musl), where there is one
	if compgen -G "/lib/ld-musl-*.so.1" >/dev/null; then
		grep -q $'^allocator.musl.version\t1\.[0-9]' "$d/env.tsv" || false
	fi
}

@test "a case with no musl build (NAME.skip) is skipped under allocator=musl with its reason" {
	needs_musl
	c=$BATS_TEST_TMPDIR/cases
	mkdir -p "$c/musl"
	cp "$FIX/ok" "$c/ok"
	echo "it calls glibc's malloc_trim, which musl's libc lacks." > "$c/musl/ok.skip"
	run -0 timeout -k 5 120 "$MR" run ok --cases "$c" --out "$BATS_TEST_TMPDIR/out" \
		--axis allocator=glibc,musl --axis mode=a --repeat 1
	d=$BATS_TEST_TMPDIR/out
	[ "$(tsv_col "$d/runs.tsv" outcome '$2 ~ /allocator=musl/')" = skipped ]
	[ "$(tsv_col "$d/runs.tsv" detail '$2 ~ /allocator=musl/')" = \
		"ok has no musl build: it calls glibc's malloc_trim, which musl's libc lacks." ]
	[ "$(tsv_col "$d/runs.tsv" outcome '$2 ~ /allocator=glibc/')" = ok ]
	rm "$c/musl/ok.skip"
	run -0 timeout -k 5 120 "$MR" run ok --cases "$c" --out "$BATS_TEST_TMPDIR/out2" \
		--axis allocator=musl --axis mode=a --repeat 1
	[[ "$(tsv_col "$BATS_TEST_TMPDIR/out2/runs.tsv" detail)" == "no musl build of ok in $c/musl (make builds them where musl-gcc is"* ]] || false
}

@test "the corpus's glibc-only cases are built without musl, each with its reason" {
	needs_musl
	for n in arena-trim deflate-burst thread-vsz; do
		[ ! -e "$CASES/musl/$n" ] || { echo "$n has a musl build"; false; }
		grep -q "^it " "$CASES/musl/$n.skip" || { echo "$n: no reason"; false; }
	done
	run -0 file "$CASES/musl/alloc-churn"
	[[ "$output" == *"statically linked"* ]] || false
}

@test "build = musl: where musl's libc.a is not, allocator=musl is skipped naming the package" {
	mkdir -p "$XDG_CONFIG_HOME/memrepro"
	cat > "$XDG_CONFIG_HOME/memrepro/allocators" <<-'EOF2'
	[musl]
	library = libc.a
	package = musl-dev
	search = /nonexistent/musl-*/lib
	build = musl
	EOF2
	run -0 timeout -k 5 120 "$MR" run ok --cases "$FIX" --out "$BATS_TEST_TMPDIR/out" \
		--axis allocator=musl --axis mode=a --repeat 1
	[ "$(tsv_col "$BATS_TEST_TMPDIR/out/runs.tsv" detail)" = \
		"libc.a not found in /nonexistent/musl-*/lib, so no case has a musl build (Debian package musl-dev)" ]
}

@test "build: a value but host or musl is exit 2 at FILE:LINE:COL; the shipped [musl] is not in the default axis" {
	f=$BATS_TEST_TMPDIR/reg
	printf '[mine]\nlibrary = libc.a\nbuild = glibc\n' > "$f"
	run -2 timeout -k 5 60 "$MR" describe ok --cases "$FIX" --allocators "$f"
	[[ "$output" == *"$f:3:9: build 'glibc': want host or musl"* ]] || false
	run -0 timeout -k 5 60 "$MR" describe ok --cases "$FIX" --axis mode=a
	[[ "$output" != *"allocator=musl"* ]] || false
	run -0 timeout -k 5 60 "$MR" describe ok --cases "$FIX" --axis mode=a --axis allocator=musl
	[[ "$output" == *"allocator=musl,mode=a"* ]] || false
}
