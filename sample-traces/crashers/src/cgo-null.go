// A Go program calls C through cgo; the C function reads a field through a NULL record.
// In C code r14 is an ordinary register (Go's g is only pinned in Go's ABIInternal code).
package main

/*
#include <stddef.h>
struct rec { int id; int weight; };
__attribute__((noinline)) int rec_weight(const struct rec *r, int scale)
{
    int acc = 0;
    for (int i = 0; i < scale; i++) acc += i * 3;
    return r->weight * scale + acc;
}
static const struct rec *lookup(int id) { (void)id; return NULL; }
int weigh(int id, int scale) { return rec_weight(lookup(id), scale); }
*/
import "C"

import "fmt"

func total(ids []int) int {
	sum := 0
	for _, id := range ids {
		sum += int(C.weigh(C.int(id), 4))
	}
	return sum
}

func main() {
	fmt.Println(total([]int{7, 11}))
}
