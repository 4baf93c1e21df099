// Go: a producer keeps publishing after the consumer side closed the channel:
// 'panic: send on closed channel'; debug.SetTraceback("crash") makes the runtime raise
// SIGABRT after the report, so a debugger sees the stop.
package main

import (
	"fmt"
	"runtime/debug"
)

//go:noinline
func publish(ch chan<- int, v int) {
	ch <- v
}

func main() {
	debug.SetTraceback("crash")
	ch := make(chan int, 4)
	publish(ch, 1)
	close(ch) // the consumer is done
	fmt.Println(<-ch)
	publish(ch, 2)
}
