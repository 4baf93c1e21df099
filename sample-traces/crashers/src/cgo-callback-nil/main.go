// A real Go program hands a C tree walker a Go callback (cgo //export); the C code calls back
// into Go for every node, and the Go callback dereferences a nil *Label for an unlabeled node.
// The fault is in Go code running on a cgo callback (crosscall2/cgocallback), with C frames
// below it and Go frames below those. gdb stops at the SIGSEGV before Go turns it into a panic.
package main

/*
#include <stdlib.h>
struct node { int id; struct node *left, *right; };
extern int walk(struct node *n);
*/
import "C"

import (
	"fmt"
	"unsafe"
)

type Label struct{ weight int }

var labels = map[int]*Label{1: {3}, 2: {5}}

//export visitNode
func visitNode(id C.int) C.int {
	l := labels[int(id)] // nil for a node without a label
	return C.int(l.weight * 2)
}

func main() {
	nodes := (*[3]C.struct_node)(C.calloc(3, C.size_t(unsafe.Sizeof(C.struct_node{}))))
	nodes[0] = C.struct_node{id: 1, left: &nodes[1], right: &nodes[2]}
	nodes[1] = C.struct_node{id: 2}
	nodes[2] = C.struct_node{id: 9}
	fmt.Println(C.walk(&nodes[0]))
}
