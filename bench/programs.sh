#!/usr/bin/env bash
# Three programs Debian ships, measured by `memrepro run -- CMD` under the
# four allocators and under two glibcs (docs/programs.md):
#   yaml-load  python3 (3.11) loading a YAML document with PyYAML (python3-yaml,
#              its libyaml loader) and writing it as JSON
#   sqlite3    the sqlite3 shell building a 300,000-row table in memory,
#              indexing it and grouping it
#   javac      OpenJDK 17's javac compiling a generated 1,000-method class
# Inputs are generated here, the same bytes on every run.  Prints each table;
# the status is memrepro run's worst (0 all ok, 1 a run failed, 2 bad usage).
#
#   bench/programs.sh [yaml-load|sqlite3|javac ...]
#   MEMREPRO=build/memrepro REPEAT=4 WORK=/tmp/memrepro-programs bench/programs.sh
#
# Needs /usr/bin/python3 with python3-yaml, /usr/bin/sqlite3, /usr/bin/javac
# (a program that is missing is said and skipped); the second glibc (2.41,
# trixie's libc6) is fetched into the cache on first use, without root.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
memrepro=${MEMREPRO:-$here/build/memrepro}
repeat=${REPEAT:-4}
work=${WORK:-/tmp/memrepro-programs}
allocators=${ALLOCATORS:-glibc,jemalloc,tcmalloc,mimalloc}
libcs=${LIBCS:-2.36,2.41}
mkdir -p "$work"

gen_yaml() {
	/usr/bin/python3 - "$work/data.yaml" 8000 <<'EOF'
import sys
with open(sys.argv[1], "w") as f:
    for i in range(int(sys.argv[2])):
        f.write(f"- id: {i}\n  name: item-{i:07d}\n  tags: [t{i % 7}, t{i % 11}, t{i % 13}]\n"
                f"  price: {i * 37 % 10007 / 100}\n  note: \"{'x' * (i % 200)}\"\n")
EOF
	cat >"$work/load.py" <<'EOF'
import json, sys, yaml
with open(sys.argv[1]) as f:
    docs = yaml.load(f, Loader=yaml.CSafeLoader)
print(len(docs), len(json.dumps(docs)))
EOF
}

gen_sql() {
	cat >"$work/query.sql" <<'EOF'
CREATE TABLE t AS WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 300000)
  SELECT i, (i * 7919) % 100003 AS k, printf('row-%08d-%s', i, substr('abcdefghijklmnopqrstuvwxyz', 1, i % 27)) AS s FROM c;
CREATE INDEX t_k ON t(k);
SELECT count(*), sum(length(s)) FROM (SELECT k, group_concat(s) AS s FROM t GROUP BY k ORDER BY s DESC);
EOF
}

gen_java() {
	local i
	mkdir -p "$work/classes"
	{
		printf 'import java.util.*;\npublic class Gen {\n'
		for ((i = 0; i < 1000; i++)); do
			printf '  static List<Map<String,Integer>> m%d(int n) { List<Map<String,Integer>> r = new ArrayList<>(); for (int j = 0; j < n; j++) { Map<String,Integer> h = new HashMap<>(); h.put("k%d" + j, j * %d); r.add(h); } return r; }\n' "$i" "$i" "$i"
		done
		printf '  public static void main(String[] a) { System.out.println(m1(3).size()); }\n}\n'
	} >"$work/Gen.java"
}

status=0

# measure NAME CMD...: the allocator run, then the glibc run; a run's
# failure makes the script's status 1 (or 2 on bad usage) after the rest.
measure() {
	local name=$1
	shift
	echo "== $name: $* ($(uptime))"
	"$memrepro" run --name "$name" --repeat "$repeat" --out "$work/$name-alloc" \
		--axis "allocator=$allocators" -- "$@" || note $?
	echo "== $name under glibc $libcs ($(uptime))"
	"$memrepro" run --name "$name" --repeat "$repeat" --out "$work/$name-libc" \
		--axis allocator=glibc --axis "libc=$libcs" -- "$@" || note $?
}

note() {
	[ "$1" -le "$status" ] || status=$1
}

have() {
	[ -x "$1" ] && return 0
	echo "$2: $1 is not installed: skipped" >&2
	return 1
}

run_one() {
	case $1 in
	yaml-load)
		have /usr/bin/python3 yaml-load || return 0
		if ! /usr/bin/python3 -c 'import yaml; yaml.CSafeLoader' 2>/dev/null; then
			echo "yaml-load: python3-yaml (with libyaml) is not installed: skipped" >&2
			return 0
		fi
		gen_yaml
		measure yaml-load /usr/bin/python3 "$work/load.py" "$work/data.yaml"
		;;
	sqlite3)
		have /usr/bin/sqlite3 sqlite3 || return 0
		gen_sql
		measure sqlite3 /usr/bin/sqlite3 :memory: ".read $work/query.sql"
		;;
	javac)
		have /usr/bin/javac javac || return 0
		gen_java
		# the JDK's file, not /usr/bin's link: under another glibc's loader
		# the launcher finds its libraries by $ORIGIN, the path it was given
		measure javac "$(readlink -f /usr/bin/javac)" -d "$work/classes" "$work/Gen.java"
		;;
	*)
		echo "bench/programs.sh: no program '$1' (yaml-load, sqlite3, javac)" >&2
		exit 2
		;;
	esac
}

[ $# -gt 0 ] || set -- yaml-load sqlite3 javac
for p in "$@"; do
	run_one "$p"
done
exit "$status"
