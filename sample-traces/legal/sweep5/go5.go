// Go in the states the earlier passes did not stop it in (issue 11, fifth pass): goroutine
// stacks growing (deep recursion: runtime.morestack, newstack, copystack), tight loops the
// scheduler preempts asynchronously (SIGURG: runtime.sigtramp, sighandler, asyncPreempt), Go
// assembly that uses R14 for data (crypto/sha256's block function is ABI0 assembly, where R14
// is not g), signals the program handles (os/signal: SIGUSR1 sent to itself), and the GC.
// Nothing in it is wrong.
package main

import (
	"crypto/sha256"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

//go:noinline
func deep(n int, pad [64]byte) int {
	if n == 0 {
		return int(pad[0])
	}
	pad[n%64]++
	return deep(n-1, pad) + 1
}

//go:noinline
func spin(n int) uint64 {
	var x uint64 = 1
	for i := 0; i < n; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

func main() {
	sigs := make(chan os.Signal, 16)
	signal.Notify(sigs, syscall.SIGUSR1)
	go func() {
		for range sigs {
		}
	}()
	done := make(chan int, 64)
	buf := make([]byte, 1<<16)
	var total uint64
	for round := 0; ; round++ {
		for g := 0; g < 8; g++ {
			go func(g int) {
				var pad [64]byte
				done <- deep(2000+g*500, pad)
			}(g)
		}
		go func() { done <- int(spin(3000000)) }()
		for i := range buf {
			buf[i] = byte(i + round)
		}
		sum := sha256.Sum256(buf)
		total += uint64(sum[0])
		for i := 0; i < 9; i++ {
			total += uint64(<-done)
		}
		if round%10 == 0 {
			syscall.Kill(os.Getpid(), syscall.SIGUSR1)
			_ = make([]byte, 1<<20)
		}
		if total == 42 {
			fmt.Println(total)
		}
	}
}
