// A Go nil check (issue 11, fourth pass): a load through a nil pointer that the runtime turns
// into a panic, recovered at once; under gdb (`handle SIGSEGV stop`) the first-chance SIGSEGV
// stops in main.load before Go's signal handler runs. Nothing crashes.
package main

import "fmt"

type node struct{ v, w int }

//go:noinline
func load(p *node) int { return p.w }

func try(p *node) (v int) {
	defer func() {
		if recover() != nil {
			v = -1
		}
	}()
	return load(p)
}

func main() {
	s := 0
	for i := 0; i < 1000; i++ {
		var p *node
		if i%2 == 0 {
			p = &node{i, i}
		}
		s += try(p)
	}
	fmt.Println(s)
}
