#!/usr/bin/env bats
# Claims across kernels (docs/kernels.md, "Claims across kernels"): a
# claim made for some kernels (when kernel>=6.7) or THP modes of the
# guests (when thp=always, read from each config's kernel.thp), "reported
# since kernel 6.7", and the kernel table of check and report.  The
# results are made here by hand, as a guest's merge leaves them: case
# kcase, one checkpoint "done", rss_kb invented per config.

load test_helper

# make_results DIR [HOSTONLY]: kcase on the host (6.18.0, THP madvise) and,
# unless HOSTONLY, in guests of 5.10 (5.10.223, uname 5.10.0-32) and 6.12 (6.12.117) under
# kernel.thp=always and madvise; 2 repeats.  rss_kb@done: 1 300 000 on
# 5.10 under always (huge fiber stacks), 26 000 elsewhere, plus the repeat.
make_results() {
	local d=$1 g=0 k t cfg v r
	mkdir -p "$d"
	printf 'key\tvalue\nplatform\tx86_64-glibc2.36-linux6.18-thp_madvise-cpu2\nlibc\t2.36\nthp\tmadvise\nkernel\t6.18.0-1-amd64 #1 SMP PREEMPT_DYNAMIC\nrepeat\t2\n' >"$d/env.tsv"
	printf 'case\tconfig\trepeat\toutcome\tdetail\taccel\n' >"$d/runs.tsv"
	printf 'case\tconfig\trepeat\tcheckpoint\tseq\trss_kb\n' >"$d/checkpoints.tsv"
	printf 'case\tconfig\trepeat\tt_ms\trss_kb\tvsz_kb\ttree_rss_kb\ttree_nproc\tcgroup_kb\n' >"$d/series.tsv"
	for r in 1 2; do
		printf 'kcase\tmode=a\t%d\tok\t-\thost\n' "$r" >>"$d/runs.tsv"
		printf 'kcase\tmode=a\t%d\tdone\t1\t%d\n' "$r" $((26000 + r)) >>"$d/checkpoints.tsv"
	done
	[ -z "${2:-}" ] || return 0
	for k in 5.10:5.10.0-32-amd64 6.12:6.12.117+deb13-amd64; do
		for t in always madvise; do
			g=$((g + 1))
			printf 'guest.%d.config\tkernel=%s,kernel.thp=%s\nguest.%d.uname\t%s #1 SMP\nguest.%d.thp\t%s\n' \
				"$g" "${k%%:*}" "$t" "$g" "${k#*:}" "$g" "$t" >>"$d/env.tsv"
			printf 'guest.%d.platform\tx86_64-glibc2.36-linux%s-thp_%s-cpu2\n' "$g" "${k%%:*}" "$t" >>"$d/env.tsv"
			# 5.10's uname is its ABI's: the version is the package's
			[ "${k%%:*}" != 5.10 ] ||
				printf 'guest.%d.package\tlinux-image-5.10.0-32-amd64 5.10.223-1\n' "$g" >>"$d/env.tsv"
			cfg="kernel=${k%%:*},kernel.thp=$t,mode=a"
			v=26000
			[ "${k%%:*}/$t" != 5.10/always ] || v=1300000
			for r in 1 2; do
				printf 'kcase\t%s\t%d\tok\t-\ttcg\n' "$cfg" "$r" >>"$d/runs.tsv"
				printf 'kcase\t%s\t%d\tdone\t1\t%d\n' "$cfg" "$r" $((v + r)) >>"$d/checkpoints.tsv"
			done
		done
	done
}

setup() {
	R=$BATS_TEST_TMPDIR/r
	EXP=$BATS_TEST_TMPDIR/expected
	mkdir -p "$EXP"
	make_results "$R"
}

# claims LINE...: the claims file of kcase.
claims() {
	printf '%s\n' "$@" >"$EXP/kcase.claims"
}

kcheck() {
	timeout -k 5 60 "$MR" check --from "$R" --expected "$EXP" "$@"
}

@test "when kernel OP V and when thp=: a claim judged only under the kernels and THP modes it is made for" {
	claims 'huge-stacks holds when thp=always and kernel<6.7 rss_kb@done > 1000000 "5.10 and 6.1 under always"' \
		'no-huge holds when kernel>=6.7 rss_kb@done < 100000 "MAP_STACK is VM_NOHUGEPAGE since 6.7"' \
		'small holds rss_kb@done < 100000 "everywhere"'
	run -1 --separate-stderr kcheck --verbose
	# one combination: 5.10 under always
	[[ $output == *"huge-stacks  held       1 300 001.5 > 1000000"* ]] || false
	# 6.12 in both modes and the host's 6.18
	[[ $output == *"no-huge      held"*"3 of 3 combinations held"* ]] || false
	[[ $output == *"small        regressed  kernel=5.10,kernel.thp=always"* ]] || false
}

@test "the kernel table: claim x kernel, old to new, the host's last; none with one kernel" {
	claims 'huge-stacks holds when thp=always and kernel<6.7 rss_kb@done > 1000000 "5.10 and 6.1 under always"' \
		'no-huge holds when kernel>=6.7 rss_kb@done < 100000 "6.7+"' \
		'small holds rss_kb@done < 100000 "everywhere"'
	run -1 --separate-stderr kcheck
	line=$(grep -E '^ +kernels +claim' <<<"$output")
	[[ $line =~ claim\ +5\.10\.223\ +6\.12\.117\ +host\ 6\.18\.0$ ]] || false
	[[ $(grep -E '^ +huge-stacks ' <<<"$output") =~ huge-stacks\ +held\ +-\ +-$ ]] || false
	[[ $(grep -E '^ +no-huge ' <<<"$output") =~ no-huge\ +-\ +held\ +held$ ]] || false
	[[ $(grep -E '^ +small ' <<<"$output") =~ small\ +regressed\ +held\ +held$ ]] || false
	run -1 timeout -k 5 60 "$MR" check --from "$R" --expected "$EXP" --format json
	[[ $output == *'"of": "kernel", "value": "5.10", "version": "5.10.223"'* ]] || false
	# the report's table
	run -1 timeout -k 5 120 "$MR" report --from "$R" --expected "$EXP" --plots "$BATS_TEST_TMPDIR/noplots"
	grep -A2 '^### Across kernels' "$R/report.md" | grep -qx '| claim | 5.10.223 | 6.12.117 | host 6.18.0 |'
	grep -qx '| `small` | \*\*regressed\*\* | held | held |' "$R/report.md"
	# one kernel: no table
	make_results "$BATS_TEST_TMPDIR/h" hostonly
	claims 'small holds rss_kb@done < 100000 "everywhere"'
	run -0 timeout -k 5 60 "$MR" check --from "$BATS_TEST_TMPDIR/h" --expected "$EXP"
	[[ $output != *kernels* ]] || false
}

@test "reported since kernel 6.7: reproduces before it, as reported, and not since" {
	claims 'huge-gone reported since kernel 6.7 when thp=always rss_kb@done > 1000000 "mm: mmap: map MAP_STACK to VM_NOHUGEPAGE (6.7)"'
	run -0 --separate-stderr kcheck --verbose
	[[ $output == *"reproduces on kernel 5.10.223 (before 6.7), as reported"* ]] || false
	[[ $output == *"does not reproduce on kernel 6.12.117, as reported since 6.7"* ]] || false
	[[ $output == *"since kernel 6.7"* ]] || false
	# 5.10's huge stacks gone: news
	sed -i 's/\t1300001$/\t26001/; s/\t1300002$/\t26002/' "$R/checkpoints.tsv"
	sed -i 's/^\(kcase\tkernel=6.12,kernel.thp=always,mode=a\t.\tdone\t1\t\).*/\11300000/' "$R/checkpoints.tsv"
	run --separate-stderr kcheck --verbose
	[[ $output == *"reproduces on kernel 6.12.117: news, reported gone since 6.7"* ]] || false
}

@test "a claim for older kernels on the host's newer one: skipped, saying which kernels the results have" {
	make_results "$BATS_TEST_TMPDIR/h" hostonly
	claims 'huge-stacks holds when thp=always and kernel<6.7 rss_kb@done > 1000000 "guests only"' \
		'old holds when kernel<6.7 rss_kb@done > 1000000 "guests only"'
	run -0 --separate-stderr timeout -k 5 60 "$MR" check --from "$BATS_TEST_TMPDIR/h" --expected "$EXP" --verbose
	[[ $output == *"huge-stacks  skipped (claimed only when thp=always and kernel<6.7; the results have kernel 6.18.0 (the host) thp=madvise"* ]] || false
	[[ $output == *"old          skipped (claimed only when kernel<6.7; the results have kernel 6.18.0 (the host)"* ]] || false
	# the THP modes alone on the host: as before
	claims 'alw holds when thp=always rss_kb@done > 1 "always only"'
	run -0 --separate-stderr timeout -k 5 60 "$MR" check --from "$BATS_TEST_TMPDIR/h" --expected "$EXP" --verbose
	[[ $output == *"claimed only when thp=always; this platform has thp=madvise"* ]] || false
}

@test "when kernel and since kernel: bad input is exit 2 at file:line:col" {
	claims 'a holds when kernel=6.7 rss_kb@done > 1 "x"'
	run -2 --separate-stderr kcheck
	[[ $stderr == *"kcase.claims:1:20: expected <, <=, > or >= after \"when kernel\""* ]] || false
	claims 'a holds when kernel>=six rss_kb@done > 1 "x"'
	run -2 --separate-stderr kcheck
	[[ $stderr == *"kcase.claims:1:22: \"six\" is not a version"* ]] || false
	claims 'a holds when kernl>=6.7 rss_kb@done > 1 "x"'
	run -2 --separate-stderr kcheck
	[[ $stderr == *"kcase.claims:1:14: a claim is made for some THP modes or kernels only"*"\"kernl\" is neither"* ]] || false
	claims 'a holds when kernel>=6.1 and kernel<6.7 and kernel>5 rss_kb@done > 1 "x"'
	run -2 --separate-stderr kcheck
	[[ $stderr == *"kcase.claims:1:45: a kernel range has two bounds at most"* ]] || false
	claims 'a reported since kernel rss_kb@done > 1 "x"'
	run -2 --separate-stderr kcheck
	[[ $stderr == *"kcase.claims:1:"*"is not a version"* ]] || false
	claims 'a holds when thp=always and thp=never rss_kb@done > 1 "x"'
	run -2 --separate-stderr kcheck
	[[ $stderr == *"kcase.claims:1:29: \"when thp=\" given twice"* ]] || false
	# a range of two bounds is fine
	claims 'a holds when kernel>=6.1 and kernel<6.7 rss_kb@done > 1000000 "x"'
	run -0 kcheck
}

@test "a guest's baseline is its own platform's (its kernel and THP): bless writes it there, check compares it there" {
	claims 'small holds rss_kb@done < 10000000 "everywhere"'
	run -0 --separate-stderr timeout -k 5 60 "$MR" bless --from "$R" --expected "$EXP" --yes
	host=$EXP/x86_64-glibc2.36-linux6.18-thp_madvise-cpu2/kcase.tsv
	old=$EXP/x86_64-glibc2.36-linux5.10-thp_always-cpu2/kcase.tsv
	[ "$(awk -F'\t' '!/^#/ && $1 != "config" { print $1 }' "$host" | sort -u)" = mode=a ]
	# the guest's rows keyed as its own runner would key them, without its pairs
	[ "$(awk -F'\t' '!/^#/ && $1 != "config" { print $1 }' "$old" | sort -u)" = mode=a ]
	grep -q $'^mode=a\tdone\trss_kb\t1300001.5\t' "$old"
	grep -q $'^mode=a\tdone\trss_kb\t26001.5\t' "$EXP/x86_64-glibc2.36-linux6.12-thp_madvise-cpu2/kcase.tsv"
	run -0 --separate-stderr timeout -k 5 60 "$MR" check --from "$R" --expected "$EXP" --verbose
	grep -Eq '^  baseline  kernel=5\.10,kernel\.thp=always +1 held$' <<<"$output"
	grep -Eq '^  baseline  kernel=6\.12,kernel\.thp=madvise +1 held$' <<<"$output"
	grep -Eq '^  baseline  mode=a +1 held$' <<<"$output"
	[[ $output != *"not in baseline"* ]] || false
	# 6.12 under always grows: regressed there, against its own platform's row
	sed -i 's/^\(kcase\tkernel=6.12,kernel.thp=always,mode=a\t.\tdone\t1\t\).*/\1900000/' "$R/checkpoints.tsv"
	run -1 --separate-stderr timeout -k 5 60 "$MR" check --from "$R" --expected "$EXP"
	grep -Eq '^  baseline  kernel=6\.12,kernel\.thp=always +0 held, 1 regressed$' <<<"$output"
	grep -Eq '^  baseline  kernel=5\.10,kernel\.thp=always +1 held$' <<<"$output"
}

@test "a guest's baseline row of a time under TCG: not measured, saying why" {
	claims 'small holds rss_kb@done < 10000000 "everywhere"'
	awk -F'\t' -v OFS='\t' 'NR == 1 { print $0, "wall_ms"; next } { print $0, 100 }' "$R/runs.tsv" >"$R/runs.new"
	mv "$R/runs.new" "$R/runs.tsv"
	run -0 --separate-stderr timeout -k 5 60 "$MR" bless --from "$R" --expected "$EXP" --yes
	g=$EXP/x86_64-glibc2.36-linux6.12-thp_always-cpu2/kcase.tsv
	printf 'mode=a\t-\twall_ms\t100\t100\t100\t2\t50\n' >>"$g"
	run -0 --separate-stderr timeout -k 5 60 "$MR" check --from "$R" --expected "$EXP" --verbose
	[[ $output == *"wall_ms      not measured (emulated (TCG): times not judged)"* ]] || false
	# the host's row of the same is judged
	printf 'mode=a\t-\twall_ms\t100\t100\t100\t2\t50\n' >>"$EXP/x86_64-glibc2.36-linux6.18-thp_madvise-cpu2/kcase.tsv"
	run -0 --separate-stderr timeout -k 5 60 "$MR" check --from "$R" --expected "$EXP" --verbose
	[ "$(grep -c 'wall_ms *held' <<<"$output")" -eq 1 ]
}
