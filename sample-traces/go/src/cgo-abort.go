// cgo-abort: C code called through cgo calls abort() (a failed C assertion does the same).
// The runtime's handler prints the fatal-signal form: `SIGABRT: abort`,
// `PC=… m=0 sigcode=…`, `signal arrived during cgo execution`, the goroutine traces, and
// the register block (`rax    0x0`, names padded to 7 columns), then exits with status 2.
package main

/*
#include <stdlib.h>
#include <stdio.h>

struct table { int len, cap; };

__attribute__((noinline)) static void table_check(struct table *t) {
	if (t->len > t->cap) {
		fprintf(stderr, "table_check: len %d > cap %d\n", t->len, t->cap);
		abort();
	}
}

static void table_push(int n) {
	struct table t = { n, 4 };
	table_check(&t);
}
*/
import "C"

//go:noinline
func fill(n int) {
	C.table_push(C.int(n))
}

func main() {
	fill(9)
}
