// memrepro.go: checkpoints and parameters for a Go original
// (docs/originals.md; lib/memrepro.py does the same for Python).
//
// The runner builds an original as package main from two files: the
// original as main.go and this file beside it as memrepro.go (go.mod of
// its own, no other module).  A Go original calls
//
//	Checkpoint("created")           // before the report's print
//	n := Param("objects", "4000000") // a string; the default when absent
//
// and built by hand beside it (go run cases/x.go lib/memrepro.go) runs as
// the report's program did.
//
// Under the runner, MEMREPRO_CKPT_FD names the write end of the record pipe
// and MEMREPRO_ACK_FD the read end of the ack pipe, both blocking.  A record
// is one line, "ckpt\t<name>\t<seq>\n", written with one write(2); then the
// program blocks on a 1-byte read of the ack while the runner measures it.
// EOF or an error on either pipe means the runner is gone: we stop sending
// and the program carries on.  Both variables are removed from the
// environment and both fds made close-on-exec, so that a child the program
// starts holds neither.
//
// Nothing here panics into the program: a bad variable or name is said on
// stderr and the checkpoint is dropped.  Go >= 1.15 (bullseye's).
package main

import (
	"os"
	"strconv"
	"sync"
	"syscall"
)

const mrNameMax = 63 // a model's checkpoint names (lib/mr_schema.h)

var mr struct {
	sync.Mutex
	seen   map[string]int    // occurrences per name, for seq
	ckpt   int               // records go here; -1: by hand, or the runner is gone
	ack    int               // one byte back per record
	params map[string]string // --param NAME=VALUE taken off os.Args
}

func mrSay(msg string) {
	os.Stderr.WriteString("memrepro: " + msg + "\n")
}

// mrEnvFd: the fd in variable name (removed from the environment): -1
// when unset, -2 when not a decimal fd.
func mrEnvFd(name string) int {
	v, ok := os.LookupEnv(name)
	if !ok {
		return -1
	}
	os.Unsetenv(name)
	if len(v) < 1 || len(v) > 9 {
		mrSay(name + " is not a file descriptor number: " + v + "; checkpoints are off")
		return -2
	}
	for _, c := range v {
		if c < '0' || c > '9' {
			mrSay(name + " is not a file descriptor number: " + v + "; checkpoints are off")
			return -2
		}
	}
	n, _ := strconv.Atoi(v)
	return n
}

// mrFdOpen: fd is open here (F_GETFD), and now close-on-exec.
func mrFdOpen(fd int) bool {
	_, _, e := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFD, 0)
	if e != 0 {
		return false
	}
	syscall.CloseOnExec(fd)
	return true
}

func init() {
	defer func() { recover() }()
	mr.seen = map[string]int{}
	mr.params = map[string]string{}
	mr.ckpt, mr.ack = -1, -1
	c, a := mrEnvFd("MEMREPRO_CKPT_FD"), mrEnvFd("MEMREPRO_ACK_FD")
	switch {
	case c >= 0 && a >= 0:
		// Not os.NewFile: its finalizer would close the runner's fd
		// when the program drops the *os.File, and the poller has no
		// part in a blocking pipe read.  EBADF: as a gone runner.
		if mrFdOpen(c) && mrFdOpen(a) {
			mr.ckpt, mr.ack = c, a
		}
	case (c == -1) != (a == -1) && c != -2 && a != -2:
		mrSay("MEMREPRO_CKPT_FD and MEMREPRO_ACK_FD go together; only one is set; checkpoints are off")
	}
	mrTakeParams()
}

// mrTakeParams: --param NAME=VALUE and --param=NAME=VALUE, removed from
// os.Args so that the program sees its own arguments only.  The last one
// wins.
func mrTakeParams() {
	if len(os.Args) == 0 {
		return
	}
	rest := []string{os.Args[0]}
	for i := 1; i < len(os.Args); i++ {
		arg, kv, has := os.Args[i], "", false
		if arg == "--param" && i+1 < len(os.Args) {
			kv, has = os.Args[i+1], true
			i++
		} else if len(arg) > 8 && arg[:8] == "--param=" {
			kv, has = arg[8:], true
		} else {
			rest = append(rest, arg)
		}
		if !has {
			continue
		}
		eq := -1
		for j := 0; j < len(kv); j++ {
			if kv[j] == '=' {
				eq = j
				break
			}
		}
		if eq <= 0 {
			mrSay("--param wants NAME=VALUE, not " + strconv.Quote(kv) + "; ignored")
		} else {
			mr.params[kv[:eq]] = kv[eq+1:]
		}
	}
	os.Args = rest
}

func mrGone() {
	mr.ckpt, mr.ack = -1, -1
}

func mrNameOK(name string) bool {
	if len(name) < 1 || len(name) > mrNameMax {
		return false
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// Checkpoint records checkpoint name and waits until the runner has
// measured the process.  One goroutine at a time.
func Checkpoint(name string) {
	defer func() { recover() }()
	if !mrNameOK(name) {
		mrSay("checkpoint name is not [a-z0-9_-]{1,63}: " + name + "; dropped")
		return
	}
	mr.Lock()
	defer mr.Unlock()
	mr.seen[name]++
	if mr.ckpt < 0 {
		return
	}
	rec := []byte("ckpt\t" + name + "\t" + strconv.Itoa(mr.seen[name]) + "\n")
	// One write(2).  Go ignores SIGPIPE on fds other than 1 and 2: a
	// gone runner is EPIPE here.
	n, err := mrRetry(func() (int, error) { return syscall.Write(mr.ckpt, rec) })
	if err != nil || n != len(rec) {
		mrGone()
		return
	}
	// A blocking read of one byte (the goroutine's thread blocks; the
	// others run on, as they do while a C case waits).  EOF: 0.
	var b [1]byte
	n, err = mrRetry(func() (int, error) { return syscall.Read(mr.ack, b[:]) })
	if err != nil || n != 1 {
		mrGone()
	}
}

// mrRetry: f again while it fails with EINTR (the runtime's preemption
// signal interrupts blocking system calls).
func mrRetry(f func() (int, error)) (int, error) {
	for {
		n, err := f()
		if err != syscall.EINTR {
			return n, err
		}
	}
}

// Param is the value of --param name=VALUE as a string; def when absent.
func Param(name, def string) string {
	mr.Lock()
	defer mr.Unlock()
	if v, ok := mr.params[name]; ok {
		return v
	}
	return def
}
