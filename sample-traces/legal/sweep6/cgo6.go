// Legal work for Go (sixth pass): C calling back into Go (cgo callbacks: crosscall2,
// cgocallback), goroutines preempted asynchronously (SIGURG), and the GC.
package main

/*
#include <stdint.h>
extern int64_t goAdd(int64_t, int64_t);
static int64_t c_fold(int64_t n) {
	int64_t s = 0;
	for (int64_t i = 0; i < n; i++) s = goAdd(s, i);
	return s;
}
*/
import "C"

import (
	"fmt"
	"runtime"
	"sync"
)

//export goAdd
func goAdd(a, b C.int64_t) C.int64_t { return a ^ (b*31 + a>>3) }

var sink []byte

func spin(n int) uint64 {
	var s uint64 = 1
	for i := 0; i < n; i++ {
		s = s*6364136223846793005 + uint64(i)
	}
	return s
}

func main() {
	runtime.GOMAXPROCS(2)
	var wg sync.WaitGroup
	for g := 0; g < 3; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := 0; ; r++ {
				_ = spin(50_000_000)
				sink = make([]byte, 1<<16)
			}
		}()
	}
	for r := 0; ; r++ {
		s := C.c_fold(20000)
		sink = make([]byte, 1<<12)
		if r%500 == 0 {
			fmt.Println("round", r, s)
		}
	}
}
