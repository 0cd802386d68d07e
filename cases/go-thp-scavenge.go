// go-thp-scavenge.go: the model's heap on Go's own runtime, beside
// cases/go-thp-scavenge.c (runtime=go@1.19, go@1.24: each Debian release's
// toolchain builds it, docs/originals.md).
// Behaviour: a heap of 8 KiB objects (size class 8192: a page each), nine
// in ten dropped, evenly spread, runtime.GC() and debug.FreeOSMemory()
// return their pages; khugepaged's pass at max_ptes_none 511 then
// collapses each 2 MiB that holds a live object back into a huge page,
// unless the runtime marked it MADV_NOHUGEPAGE.
//
// Source: seeds/011_13fcd62e2e38dfee.txt: golang/go#64332 (1.21.0 ->
// 1.21.1, max_ptes_none; "huge pages were only forced by the runtime
// between Go 1.21.0 and Go 1.21.3 (inclusive). Go 1.21.4 no longer adjusts
// huge page settings at all"), #61718 (the scavenger "creating holes
// (which are then filled)"), #55328 (the scavenger's 64 KiB releases never
// reach sysUnusedOS's MADV_NOHUGEPAGE).  The threads print no program: a
// production service; this is the model's shape written in Go.
//
// Written, not transcribed, and why:
//   - khugepaged is madvise(MADV_COLLAPSE) (Linux >= 6.1) on each 2 MiB
//     holding a live object, from the object's address: khugepaged's scan
//     takes minutes, this is its pass done at once (it ignores
//     max_ptes_none as if 511 and refuses MADV_NOHUGEPAGE ranges);
//   - the model's `go` parameter (1.21.0's marks or none) is the
//     toolchain's own here: ignored;
//   - checkpoints where the model has them; by hand the program prints
//     its RSS and AnonHugePages (smaps_rollup) as #61718 advised reading.
//
// memrepro: params heap_mb live_pct khugepaged
// memrepro: ignores go
package main

import (
	"fmt"
	"io/ioutil"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

const (
	goPage       = 8192
	huge         = 2 << 20
	madvCollapse = 25
)

// kB is the figure of /proc/self/<file>'s line key, in kB (0 if absent).
func kB(file, key string) int {
	b, err := ioutil.ReadFile("/proc/self/" + file)
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, key) {
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
	fmt.Printf("%-10s rss %8d KiB  AnonHugePages %8d KiB  (%s)\n", step, kB("status", "VmRSS:"),
		kB("smaps_rollup", "AnonHugePages:"), runtime.Version())
}

func intParam(name, def string, min int) int {
	n, err := strconv.Atoi(Param(name, def))
	if err != nil || n < min {
		fmt.Fprintf(os.Stderr, "go-thp-scavenge: --param %s wants a number >= %d\n", name, min)
		os.Exit(2)
	}
	return n
}

var objs [][]byte

func main() {
	heapMB, pct := intParam("heap_mb", "256", 2), intParam("live_pct", "10", 1)
	collapse := Param("khugepaged", "collapse") == "collapse"
	Checkpoint("start")

	objs = make([][]byte, heapMB<<20/goPage)
	for i := range objs {
		objs[i] = make([]byte, goPage)
		for j := range objs[i] {
			objs[i][j] = 0x5a
		}
	}
	Checkpoint("allocated")
	say("allocated")

	for i := range objs {
		if i*pct%100 >= pct {
			objs[i] = nil
		}
	}
	runtime.GC()
	debug.FreeOSMemory()
	Checkpoint("scavenged")
	say("scavenged")

	tried, collapsed := 0, 0
	if collapse {
		done := map[uintptr]bool{}
		for _, o := range objs {
			if o == nil {
				continue
			}
			base := uintptr(unsafe.Pointer(&o[0])) &^ (huge - 1)
			if done[base] {
				continue
			}
			done[base] = true
			tried++
			for try := 0; try < 3; try++ {
				_, _, e := syscall.Syscall(syscall.SYS_MADVISE, base, huge, madvCollapse)
				if e == 0 {
					collapsed++
					break
				}
				if e != syscall.EAGAIN {
					break
				}
			}
		}
	}
	Checkpoint("collapsed")
	say("collapsed")
	fmt.Printf("go-thp-scavenge: %s: %d MiB heap, %d %% live: %d of %d huge pages collapsed back\n",
		runtime.Version(), heapMB, pct, collapsed, tried)
	runtime.KeepAlive(objs)
}
