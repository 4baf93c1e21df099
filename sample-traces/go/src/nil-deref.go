// nil-deref: a nil *Session field read deep in a call chain. The Go runtime turns the
// SIGSEGV into a panic: `panic: runtime error: invalid memory address or nil pointer
// dereference` plus `[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=…]`
// and the goroutine's traceback. Run with the default GOTRACEBACK (no register dump).
package main

import (
	"fmt"
	"os"
)

type Session struct {
	ID       int64
	Peer     string
	BytesIn  int64
	BytesOut int64
}

type Registry struct {
	slots [4]*Session
	count int
}

//go:noinline
func sessionBytes(s *Session) int64 {
	return s.BytesIn // s == nil: fault at 0x18
}

//go:noinline
func registryTotal(r *Registry, upto int) int64 {
	var total int64
	for i := 0; i <= upto; i++ { // off by one: reads slots[count]
		total += sessionBytes(r.slots[i])
	}
	return total
}

func main() {
	r := &Registry{}
	r.slots[0] = &Session{ID: 1, Peer: "a", BytesIn: 100}
	r.slots[1] = &Session{ID: 2, Peer: "b", BytesIn: 200}
	r.count = 2
	fmt.Fprintln(os.Stderr, "traffic:", registryTotal(r, r.count))
}
