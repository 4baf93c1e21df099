// A real Go program: a struct's map field is never made, and the first write panics with
// 'assignment to entry in nil map'. GOTRACEBACK=crash (debug.SetTraceback) makes the runtime
// raise SIGABRT after printing the panic, so a debugger sees the stop.
package main

import (
	"fmt"
	"runtime/debug"
)

type Index struct {
	name  string
	words map[string]int // never made
}

//go:noinline
func (ix *Index) add(word string) {
	ix.words[word]++
}

func main() {
	debug.SetTraceback("crash")
	ix := &Index{name: "docs"}
	for _, w := range []string{"alpha", "beta"} {
		ix.add(w)
	}
	fmt.Println(len(ix.words))
}
