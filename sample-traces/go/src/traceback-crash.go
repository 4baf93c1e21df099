// traceback-crash: the same nil dereference as nil-deref.go, with
// debug.SetTraceback("crash"), so after the panic the runtime raises SIGABRT, prints every
// goroutine (runtime frames included) and the register block (`rax    0x0` lines).
// A second goroutine is parked on a channel so the dump holds more than one goroutine.
package main

import (
	"runtime/debug"
	"time"
)

type Session struct {
	ID       int64
	Peer     string
	BytesIn  int64
	BytesOut int64
}

//go:noinline
func sessionBytes(s *Session) int64 {
	return s.BytesIn
}

//go:noinline
func worker(ch chan int) {
	<-ch
}

func main() {
	debug.SetTraceback("crash")
	ch := make(chan int)
	go worker(ch)
	time.Sleep(10 * time.Millisecond)
	var s *Session
	println(sessionBytes(s))
	ch <- 1
}
