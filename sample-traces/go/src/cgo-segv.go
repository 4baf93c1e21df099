// cgo-segv: a C function called through cgo writes through NULL. The signal arrives
// while the goroutine is in C, so the runtime cannot turn it into a panic: it prints
// `SIGSEGV: segmentation violation`, `PC=… m=0 sigcode=1 addr=0x0`,
// `signal arrived during cgo execution`, the goroutine traces and the register block,
// and exits with status 2.
package main

/*
#include <stddef.h>
struct counter { long hits; long *slot; };

__attribute__((noinline)) static void bump(struct counter *c) {
	*c->slot += c->hits;           // c->slot == NULL
}

static void count_request(long hits) {
	struct counter c = { hits, NULL };
	bump(&c);
}
*/
import "C"

//go:noinline
func handle(hits int) {
	C.count_request(C.long(hits))
}

func main() {
	handle(3)
}
