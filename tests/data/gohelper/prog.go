// The program of tests/rtgo.bats under the Python helper's mock runner
// (tests/data/pyhelper/mock.py), built with lib/memrepro.go beside it:
// three checkpoints with 16 MiB more written before each, a child by
// os/exec that must see neither the variables nor the fds, --param taken
// off os.Args, then a bad name (dropped, said on stderr).
package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
)

var keep [][]byte

func main() {
	for i := 0; i < 3; i++ {
		b := make([]byte, 16<<20)
		for j := range b {
			b[j] = 1
		}
		keep = append(keep, b)
		Checkpoint("grow")
	}
	out, _ := exec.Command("/bin/sh", "-c", "echo child-env ${MEMREPRO_CKPT_FD-unset} ${MEMREPRO_ACK_FD-unset}; "+
		"for fd in 3 4; do [ -e /proc/self/fd/$fd ] && echo child-has-fd $fd; done; true").Output()
	fmt.Print(string(out))
	Checkpoint("done")
	Checkpoint("Bad Name")
	fmt.Printf("param n=%s argv %s\n", Param("n", "none"), strings.Join(os.Args[1:], " "))
	fmt.Println("end")
}
