// A real Go program: a nil pointer dereference. r14 holds the real g (ABIInternal).
package main

import "fmt"

type node struct {
	val  int
	next *node
}

//go:noinline
func secondVal(n *node) int {
	return n.next.val
}

func main() {
	n := &node{val: 1}
	fmt.Println(secondVal(n))
}
