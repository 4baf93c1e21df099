// A C callee faults on a NULL pointer while called through cgo (wild corpus, record.sh).
package main

/*
#include <stddef.h>
struct rec { long a, b; char *name; };
static long __attribute__((noinline)) rec_name_len(struct rec *r) {
	long n = 0;
	while (r->name[n]) n++;
	return n;
}
static long c_entry(void) { return rec_name_len(NULL); }
*/
import "C"
import "fmt"

//go:noinline
func nameLen() int {
	return int(C.c_entry())
}

func main() {
	fmt.Println(nameLen())
}
