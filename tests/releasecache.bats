#!/usr/bin/env bats
# The release cache and its private apt trees under hostile conditions:
# apt failing in ways it is not expected to, two fetches at once, files of
# the cache replaced by what cannot be read (a FIFO), manifests naming
# paths outside their entry, and every state a killed fetch can leave.
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
}
