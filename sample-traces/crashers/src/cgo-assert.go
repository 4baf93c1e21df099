// Go calls a C library through cgo; the C function's assert() fails (a negative count the Go
// side passed through): glibc prints the assertion and aborts in C code, below cgo's frames.
package main

/*
#include <assert.h>
#include <stdlib.h>

static long sum_counts(const long *counts, int n)
{
	long s = 0;
	for (int i = 0; i < n; i++) {
		assert(counts[i] >= 0);
		s += counts[i];
	}
	return s;
}
*/
import "C"

import "fmt"

func main() {
	counts := []C.long{3, 5, -2, 7}
	fmt.Println(C.sum_counts(&counts[0], C.int(len(counts))))
}
