// Goroutines doing legal work and a cgo call into C: stopped at a breakpoint in a Go function
// (g in r14, a goroutine stack), in the C function called through cgo, and from outside.
package main

/*
#include <stdint.h>
static volatile uint64_t c_sink;
__attribute__((noinline)) uint64_t c_mix(uint64_t a, uint64_t b) {
	c_sink = a * 0x9e3779b97f4a7c15ull ^ b;
	return c_sink >> 7;
}
*/
import "C"

import (
	"fmt"
	"sync"
)

//go:noinline
func work(id int, rounds int) uint64 {
	var acc uint64 = uint64(id)
	for i := 0; i < rounds; i++ {
		acc = acc*6364136223846793005 + uint64(i)
	}
	return acc
}

//go:noinline
func viaC(a, b uint64) uint64 { return uint64(C.c_mix(C.uint64_t(a), C.uint64_t(b))) }

func main() {
	var wg sync.WaitGroup
	out := make([]uint64, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			out[id] = work(id, 200000000)
		}(g)
	}
	wg.Wait()
	var t uint64
	for _, v := range out {
		t ^= viaC(v, t)
	}
	fmt.Println(t)
}
