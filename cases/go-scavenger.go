// go-scavenger.go: the reports' program beside cases/go-scavenger.c, run by
// Go's own runtime (runtime=go@1.15, go@1.19, go@1.24: the toolchain of that
// Debian release builds it, docs/originals.md).
// Behaviour: a large heap allocated, dropped, collected; the runtime returns
// the idle heap (its background scavenger, then debug.FreeOSMemory); whether
// RSS follows depends on the runtime's madvise: MADV_FREE (Go 1.12-1.15, the
// pages stay in RSS as LazyFree) or MADV_DONTNEED (Go 1.16 on, golang/go#42330).
//
// Source: golang/go#37585 (2020-02-29): a comment that ran the issue's
// program under Go 1.11, 1.13 and 1.14 and printed `ps -o rss=` and the sum
// of smaps' LazyFree at each step, "before alloc", "after alloc", "after 5
// minutes", "after FreeOSMemory": Go 1.11 "before alloc" ps rss 1544, RSS
// "declines significantly after FreeOSMemory"; "In 1.13 and 1.14, after 5
// minutes RSS is still high while LazyFree has climbed to almost the same
// value as RSS (>300MB), and the subsequent FreeOSMemory does not seem to
// have material impact".  golang/go#42330 (Go 1.16) made MADV_DONTNEED the
// default again.  The comment prints the steps, not the whole program: this
// is that program's shape written here, as the model's header describes it.
//
// golang/go#64332 (1.21.0 -> 1.21.1, khugepaged's max_ptes_none) is a
// production service's heap, with no program in the thread; its setting
// is the machine's (THP always or madvise with max_ptes_none 511): the
// claims below name the THP mode they were measured under.
//
// Written, not transcribed, and why:
//   - the burst is alloc_mb MiB of objects of object_kb KiB each (large
//     objects: a span each, as in the model), every byte written, kept in a
//     slice of roots; then the roots are dropped and runtime.GC() run;
//   - "after 5 minutes" is a wait of 3 s: long enough for Go >= 1.19's
//     paced background scavenger to return most of a 48 MiB heap here, not
//     the report's 5 minutes (the claims judge FreeOSMemory, whose return
//     does not wait);
//   - Checkpoint where the report printed a row: start, allocated,
//     collected, scavenged, freed (and worked with work_mb > 0); by hand
//     they do nothing and the program prints its RSS from /proc/self/status
//     and the runtime's HeapReleased as the report did;
//   - madvise=dontneed is GODEBUG=madvdontneed=1 (the env line below);
//     madvise=free is the toolchain's default: MADV_FREE up to Go 1.15,
//     MADV_DONTNEED from Go 1.16 (so go@1.19 and go@1.24 return the pages
//     either way: that is #42330's change).
//
// memrepro: params alloc_mb object_kb work_mb
// memrepro: ignores thp
// memrepro: env madvise=dontneed GODEBUG=madvdontneed=1
package main

import (
	"fmt"
	"io/ioutil"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
)

func rssKB() int {
	b, err := ioutil.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmRSS:") {
			f := strings.Fields(l)
			if len(f) > 1 {
				n, _ := strconv.Atoi(f[1])
				return n
			}
		}
	}
	return 0
}

func say(step string) {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	fmt.Printf("%-18s rss %8d KiB  HeapIdle %6.1f MiB  HeapReleased %6.1f MiB  (%s)\n", step, rssKB(),
		float64(m.HeapIdle)/(1<<20), float64(m.HeapReleased)/(1<<20), runtime.Version())
}

func intParam(name, def string) int {
	n, err := strconv.Atoi(Param(name, def))
	if err != nil || n < 0 {
		fmt.Fprintf(os.Stderr, "go-scavenger: --param %s wants a number\n", name)
		os.Exit(2)
	}
	return n
}

var roots [][]byte

func main() {
	allocMB, objectKB, workMB := intParam("alloc_mb", "320"), intParam("object_kb", "64"), intParam("work_mb", "0")
	if objectKB == 0 {
		objectKB = 64
	}
	say("before alloc")
	Checkpoint("start")

	n := allocMB * 1024 / objectKB
	roots = make([][]byte, n)
	for i := range roots {
		roots[i] = make([]byte, objectKB<<10)
		for j := range roots[i] {
			roots[i][j] = byte(i%251 + 1)
		}
	}
	Checkpoint("allocated")
	say("after alloc")

	roots = nil
	runtime.GC()
	Checkpoint("collected")

	time.Sleep(3 * time.Second)
	Checkpoint("scavenged")
	say("after the wait")

	debug.FreeOSMemory()
	Checkpoint("freed")
	say("after FreeOSMemory")

	if workMB > 0 {
		// memory pressure from outside the heap, as the model's work_mb
		work := make([]byte, workMB<<20)
		for i := range work {
			work[i] = 0x5a
		}
		Checkpoint("worked")
		runtime.KeepAlive(work)
	}
}
