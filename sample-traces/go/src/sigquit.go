// sigquit: a goroutine blocks forever while main sends SIGQUIT to its own process, as
// `kill -QUIT <pid>` does to get a Go program's goroutine dump. The runtime prints
// `SIGQUIT: quit`, `PC=… m=… sigcode=0`, every goroutine, and the register block of the
// thread that took the signal. Built for arm64 and run under qemu-aarch64, it shows the
// arm64 block (`r0` … `r29`, `lr`, `sp`, `pc`, `fault`), where r28 holds g.
package main

import (
	"os"
	"syscall"
	"time"
)

//go:noinline
func spin(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += i
	}
	return s
}

func main() {
	done := make(chan int)
	go func() {
		done <- spin(1 << 20)
		select {}
	}()
	<-done
	p, _ := os.FindProcess(os.Getpid())
	p.Signal(syscall.SIGQUIT)
	time.Sleep(2 * time.Second)
}
