// A real Go program: a runaway recursion grows the goroutine's stack until the runtime's limit
// (lowered to 4 MiB with debug.SetMaxStack): 'runtime: goroutine stack exceeds 4194304-byte
// limit', 'fatal error: stack overflow'. GOTRACEBACK=crash makes it raise SIGABRT.
package main

import (
	"fmt"
	"runtime/debug"
)

type Tree struct {
	left, right *Tree
	val         int
}

//go:noinline
func depth(t *Tree) int {
	if t == nil {
		return 0
	}
	return 1 + depth(t.left) // a cycle: t.left points back to t
}

func main() {
	debug.SetTraceback("crash")
	debug.SetMaxStack(4 << 20)
	t := &Tree{val: 1}
	t.left = t
	fmt.Println(depth(t))
}
