#!/usr/bin/env bats
# compare and trend: no change called on fewer repeats than the test
# needs, what the two sides ran under printed first, and outputs that are
# whole or absent, in a directory that is not an input.

load test_helper

# One run of the touch fixture, 4 repeats, made once for the file, and
# from it (each with its memory figures at the checkpoint times $f):
#   r4     the run itself            r4x    1.5x (4 repeats: testable)
#   r3     its first 3 repeats       r3x    1.5x
#   r1     its first repeat          r1x    1.5x
setup_file() {
	local d=$BATS_FILE_TMPDIR n
	timeout -k 5 120 "$MR" run --cases "$FIX" --out "$d/r4" --axis allocator=glibc \
		--axis mb=8 --repeat 4 --quiet touch >/dev/null
	# the rows of repeats 1..$2 of $1 (and env.tsv's repeat)
	keep() {
		local f
		for f in runs checkpoints series; do
			awk -F'\t' -v n="$2" 'NR == 1 || $3 <= n' "$1/$f.tsv" > "$1/$f.tsv.new" &&
				mv "$1/$f.tsv.new" "$1/$f.tsv"
		done
		sed -i "s/^repeat\t.*/repeat\t$2/" "$1/env.tsv"
	}
	# the memory figures at the checkpoints of $1 times 1.5, a day later
	scale() {
		awk -F'\t' -v OFS='\t' '
			NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /_kb$/) kb[i] = 1; print; next }
			{ for (i in kb) $i = int($i * 1.5); print }' "$1/checkpoints.tsv" \
			> "$1/checkpoints.tsv.new" && mv "$1/checkpoints.tsv.new" "$1/checkpoints.tsv"
		sed -i "s/^started\t.*/started\t2026-01-02T12:00:00Z/" "$1/env.tsv"
	}
	sed -i "s/^started\t.*/started\t2026-01-01T12:00:00Z/" "$d/r4/env.tsv"
	for n in 3 1; do
		cp -R "$d/r4" "$d/r$n"
		keep "$d/r$n" "$n"
	done
	for n in 4 3 1; do
		cp -R "$d/r$n" "$d/r${n}x"
		scale "$d/r${n}x"
	done
}

@test "compare calls no change on 1 vs 1 or 3 vs 3 repeats, and does on 4 vs 4" {
	d=$BATS_FILE_TMPDIR
	for n in 1 3; do
		run -0 timeout -k 5 60 "$MR" compare --no-charts --out "$BATS_TEST_TMPDIR/c$n" "$d/r$n" "$d/r${n}x"
		[[ "$output" == *"total: "*" 0 worse, 0 better beyond the noise"* ]] || false
		[[ "$output" == *"  $n vs $n repeats: not compared ("* ]] || false
		run ! grep -q $'\tworse\t' "$BATS_TEST_TMPDIR/c$n/compare.tsv"
	done
	# 1.5x on 4 vs 4: every repeat above every other, p = 0.029
	run -0 timeout -k 5 60 "$MR" compare --no-charts --out "$BATS_TEST_TMPDIR/c4" "$d/r4" "$d/r4x"
	[[ "$output" == *"rss_kb@touched"*"+50.0 %  worse (U p=0.0286)"* ]] || false
	# 4 vs 4 is compared (a busy machine's runs have no times: those
	# figures may have fewer)
	[[ "$output" != *"  4 vs 4 repeats: not compared ("* ]] || false
}

@test "trend calls no step on 1 vs 1 or 3 vs 3 repeats, and does on 4 vs 4" {
	d=$BATS_FILE_TMPDIR
	for n in 1 3; do
		run -0 timeout -k 5 60 "$MR" trend --no-charts --out "$BATS_TEST_TMPDIR/t$n" "$d/r$n" "$d/r${n}x"
		[[ "$output" == *" 0 step changes "* ]] || false
		[[ "$output" == *"  $n vs $n repeats: not compared ("* ]] || false
	done
	run -0 timeout -k 5 60 "$MR" trend --no-charts --out "$BATS_TEST_TMPDIR/t4" "$d/r4" "$d/r4x"
	[[ "$output" == *"rss_kb@touched: step at 2"* ]] || false
}

@test "compare and trend print first how the two sides differ in what they ran under" {
	d=$BATS_FILE_TMPDIR
	# both sides' settings written here, not taken from the host's (whose THP may be any mode)
	cp -R "$d/r4" "$BATS_TEST_TMPDIR/old"
	cp -R "$d/r4x" "$BATS_TEST_TMPDIR/new"
	sed -i -e 's/^thp\t.*/thp\tmadvise/' -e 's/^jobs\t.*/jobs\t1/' "$BATS_TEST_TMPDIR/old/env.tsv"
	sed -i -e 's/^thp\t.*/thp\talways/' -e 's/^jobs\t.*/jobs\t2/' -e '/^kernel\t/d' \
		-e 's/^allocator\.glibc\.version\t.*/allocator.glibc.version\t9.99/' \
		"$BATS_TEST_TMPDIR/new/env.tsv"
	sed -i '/^profile\t/d' "$BATS_TEST_TMPDIR/old/env.tsv" "$BATS_TEST_TMPDIR/new/env.tsv"
	printf 'profile\tquick\n' >> "$BATS_TEST_TMPDIR/old/env.tsv"
	printf 'profile\tfull\n' >> "$BATS_TEST_TMPDIR/new/env.tsv"
	# one of the new side's runs ran beside another
	awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "overlap") c = i }
		NR == 2 { $c = 1 } { print }' "$d/r4x/runs.tsv" > "$BATS_TEST_TMPDIR/new/runs.tsv"
	awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "overlap") c = i }
		NR > 1 { $c = 0 } { print }' "$d/r4/runs.tsv" > "$BATS_TEST_TMPDIR/old/runs.tsv"
	thp=madvise jobs=1
	glibc=$(awk -F'\t' '$1 == "allocator.glibc.version" { print $2 }' "$d/r4/env.tsv")
	[ -n "$glibc" ]
	kernel=$(awk -F'\t' '$1 == "kernel" { print $2 }' "$d/r4/env.tsv")
	for cmd in compare trend; do
		run -0 timeout -k 5 60 "$MR" "$cmd" --no-charts --out "$BATS_TEST_TMPDIR/o-$cmd" \
			"$BATS_TEST_TMPDIR/old" "$BATS_TEST_TMPDIR/new"
		# before any figure: the lines of the keys that differ, and only those
		ran=$(printf '%s\n' "$output" | sed -n '/^ran under/,/^[^ ]/p' | sed '$d')
		[[ "$ran" == *"thp "*" $thp -> always"* ]] || false
		[[ "$ran" == *"jobs "*" $jobs -> 2"* ]] || false
		[[ "$ran" == *"kernel "*" $kernel -> -"* ]] || false
		[[ "$ran" == *"allocator.glibc.version "*" $glibc -> 9.99"* ]] || false
		[[ "$ran" == *"profile "*" quick -> full"* ]] || false
		[[ "$ran" == *"runs beside others "*" 0 of 4 -> 1 of 4"* ]] || false
		[ "$(printf '%s\n' "$ran" | wc -l)" -eq 7 ]
		first=$(printf '%s\n' "$output" | grep -n -m1 'rss_kb@touched\|step\|total' | cut -d: -f1)
		[ "$(printf '%s\n' "$output" | grep -n -m1 '^ran under' | cut -d: -f1)" -lt "$first" ]
	done
	# the same settings: said so
	run -0 timeout -k 5 60 "$MR" compare --no-charts --out "$BATS_TEST_TMPDIR/same" "$d/r4" "$d/r4x"
	[[ "$output" == *"the same: "*" settings of env.tsv"* ]] || false
}

@test "trend writes into its own directory: ./trend by default, never an input (exit 2)" {
	d=$BATS_FILE_TMPDIR
	for t in 1 2; do
		cp -R "$d/r4" "$BATS_TEST_TMPDIR/in$t"
	done
	cd "$BATS_TEST_TMPDIR"
	run -0 timeout -k 5 60 "$MR" trend --no-charts in1 in2
	[ -s trend/trend.tsv ]
	[ ! -e in2/trend ]
	[ ! -e in1/trend ]
	for out in in2 in2/trend ./in1/ "$BATS_TEST_TMPDIR/in1/x/../y" in2/a/b; do
		run -2 --separate-stderr timeout -k 5 60 "$MR" trend --no-charts --out "$out" in1 in2
		[[ "$stderr" == *"--out $out is "*"the results directory in"[12]*"the output goes in a directory of its own"* ]] || false
	done
	[ ! -e in2/trend ] && [ ! -e in2/a ] && [ ! -e in1/y ]
	# beside an input, not in it: fine
	run -0 timeout -k 5 60 "$MR" trend --no-charts --out in1-trend in1 in2
}

# A gnuplot that writes half an image, then hangs.
fake_gnuplot() {
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	printf '%s\n' '#!/bin/sh' 'printf "<svg" > "$4"' 'exec sleep 30' > "$BATS_TEST_TMPDIR/bin/gnuplot"
	chmod +x "$BATS_TEST_TMPDIR/bin/gnuplot"
}

@test "a chart whose gnuplot hangs: named as a timeout, and no file left of it" {
	d=$BATS_FILE_TMPDIR
	fake_gnuplot
	for cmd in compare trend; do
		PATH="$BATS_TEST_TMPDIR/bin:$PATH" MEMREPRO_GNUPLOT_TIMEOUT_MS=500 \
			run -1 --separate-stderr timeout -k 5 60 "$MR" "$cmd" --out "$BATS_TEST_TMPDIR/$cmd" \
			"$d/r4" "$d/r4x"
		[[ "$stderr" == *"gnuplot timed out after 0.5 s on $BATS_TEST_TMPDIR/$cmd/touch.$cmd.png"* ]] || false
		[[ "$stderr" != *"Connection timed out"* ]] || false
		# the table whole, nothing of the charts, no temporary file
		[ -s "$BATS_TEST_TMPDIR/$cmd/$cmd.tsv" ]
		[ "$(ls -A "$BATS_TEST_TMPDIR/$cmd")" = "$cmd.tsv" ]
	done
}

@test "--no-charts: the table alone, without gnuplot" {
	d=$BATS_FILE_TMPDIR
	for cmd in compare trend; do
		PATH=/nonexistent run -0 "$MR" "$cmd" --no-charts --out "$BATS_TEST_TMPDIR/$cmd" "$d/r4" "$d/r4x"
		[ "$(ls -A "$BATS_TEST_TMPDIR/$cmd")" = "$cmd.tsv" ]
		[[ "$output" == *"table: $BATS_TEST_TMPDIR/$cmd"* ]] || false
	done
}

@test "a case only in NEW: counted on the terminal, no empty chart drawn for it" {
	d=$BATS_FILE_TMPDIR
	cp -R "$d/r4x" "$BATS_TEST_TMPDIR/new"
	for f in runs checkpoints series; do
		awk -F'\t' -v OFS='\t' 'NR > 1 && $1 == "touch" { $1 = "other" } { print }' \
			"$d/r4x/$f.tsv" >> "$BATS_TEST_TMPDIR/new/$f.tsv.o"
		tail -n +2 "$BATS_TEST_TMPDIR/new/$f.tsv.o" >> "$BATS_TEST_TMPDIR/new/$f.tsv"
		rm "$BATS_TEST_TMPDIR/new/$f.tsv.o"
	done
	run -0 timeout -k 5 60 "$MR" compare --out "$BATS_TEST_TMPDIR/o" "$d/r4" "$BATS_TEST_TMPDIR/new"
	[[ "$output" == *"0 cases only in OLD, 1 only in NEW"* ]] || false
	[ -s "$BATS_TEST_TMPDIR/o/touch.compare.png" ]
	[ ! -e "$BATS_TEST_TMPDIR/o/other.compare.png" ]
	[ ! -e "$BATS_TEST_TMPDIR/o/other.compare.svg" ]
}
