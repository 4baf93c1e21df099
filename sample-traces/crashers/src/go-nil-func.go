// A real Go program calls a nil func value (a handler never registered): the call jumps
// to address 0 (SIGSEGV with pc = 0; the runtime would report 'invalid memory address or
// nil pointer dereference').
package main

import "fmt"

type Router struct {
	handlers map[string]func(int) int
}

//go:noinline
func (r *Router) dispatch(path string, v int) int {
	h := r.handlers[path] // nil for a missing path
	return h(v)
}

func main() {
	r := &Router{handlers: map[string]func(int) int{"/double": func(x int) int { return 2 * x }}}
	fmt.Println(r.dispatch("/double", 4))
	fmt.Println(r.dispatch("/triple", 4))
}
