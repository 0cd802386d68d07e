#!/usr/bin/env bats
# java-native-trim (JDK-8293114, vscode-java#3395): what its claims cannot
# say.  glibc's own figures, printed as the JVM's VM.info prints them, say
# the freed burst is retained, and they do not follow the trim that hands
# its pages back (openjdk/jdk#8553); the trimmer runs only when asked.

load test_helper

# the case's summary line, a small burst: trim=$1
summary() {
	timeout -k 5 60 "$CASES/java-native-trim" --param compilers=2 --param spike_mb=8 \
		--param interval_ms=20 --param trim="$1" | grep '^java-native-trim: '
}

@test "java-native-trim: glibc retains the freed burst, and its figure stays after the trim" {
	line=$(summary periodic)
	echo "$line"
	read -r out ret out2 ret2 < <(sed -n 's/.*outstanding allocations: \([0-9]*\)K, retained: \([0-9]*\)K when freed; \([0-9]*\)K, \([0-9]*\)K when idle$/\1 \2 \3 \4/p' <<<"$line")
	[[ $ret -gt $((out * 10)) ]] || false
	[[ $ret2 -gt $((ret / 2)) ]] || false
	[[ $out2 -eq $out ]] || false
	[[ "$line" =~ trim\ periodic\ \(([0-9]+)\ trims\) ]] || false
	[[ ${BASH_REMATCH[1]} -ge 1 ]] || false
}

@test "java-native-trim: without the trimmer nothing trims" {
	line=$(summary none)
	echo "$line"
	[[ "$line" == *"trim none (0 trims)"* ]] || false
}
