// A real Go program: two goroutines update one map without a lock. The runtime detects it
// and dies with 'fatal error: concurrent map writes' (GOTRACEBACK=crash via
// debug.SetTraceback, so the runtime raises SIGABRT and a debugger sees the stop).
package main

import (
	"fmt"
	"runtime/debug"
	"sync"
)

func count(hits map[int]int, base int, wg *sync.WaitGroup) {
	defer wg.Done()
	for i := 0; i < 1000000; i++ {
		hits[(base+i)%97]++ // bug: no mutex
	}
}

func main() {
	debug.SetTraceback("crash")
	hits := map[int]int{}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go count(hits, g*13, &wg)
	}
	wg.Wait()
	fmt.Println(len(hits))
}
