// A real Go program calls C through cgo from a goroutine (not main); the C function writes
// a result through a NULL output pointer. In C code r14 is an ordinary register.
package main

/*
#include <stddef.h>
__attribute__((noinline)) void fill_stats(const int *vals, int n, long *out_sum)
{
    long s = 0;
    for (int i = 0; i < n; i++) s += vals[i];
    *out_sum = s;
}
*/
import "C"

import (
	"fmt"
	"sync"
)

func stats(vals []int32, out *C.long) {
	C.fill_stats((*C.int)(&vals[0]), C.int(len(vals)), out)
}

func main() {
	var wg sync.WaitGroup
	var sum C.long
	wg.Add(1)
	go func() { defer wg.Done(); stats([]int32{1, 2, 3}, &sum) }()
	wg.Wait()
	wg.Add(1)
	go func() { defer wg.Done(); stats([]int32{4, 5}, nil) }()
	wg.Wait()
	fmt.Println(sum)
}
