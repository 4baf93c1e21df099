// A real Go program: main waits on a channel nobody sends to; the runtime finds every
// goroutine blocked: 'fatal error: all goroutines are asleep - deadlock!'. GOTRACEBACK=crash
// makes it raise SIGABRT. No memory error at all.
package main

import (
	"fmt"
	"runtime/debug"
)

func produce(out chan<- int, n int) {
	for i := 0; i < n; i++ {
		out <- i
	}
	// bug: out is never closed
}

func main() {
	debug.SetTraceback("crash")
	ch := make(chan int)
	go produce(ch, 3)
	sum := 0
	for v := range ch {
		sum += v
	}
	fmt.Println(sum)
}
