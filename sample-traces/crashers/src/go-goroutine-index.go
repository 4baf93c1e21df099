// A real Go program: a goroutine indexes past the end of a slice: 'panic: runtime error:
// index out of range [5] with length 3' in that goroutine; GOTRACEBACK=crash
// (debug.SetTraceback) makes the runtime raise SIGABRT after the report.
package main

import (
	"fmt"
	"runtime/debug"
	"sync"
)

//go:noinline
func pick(row []int, i int) int {
	return row[i]
}

func main() {
	debug.SetTraceback("crash")
	rows := [][]int{{1, 2, 3, 4, 5, 6}, {7, 8, 9}}
	var wg sync.WaitGroup
	out := make([]int, len(rows))
	for k, r := range rows {
		wg.Add(1)
		go func(k int, r []int) {
			defer wg.Done()
			out[k] = pick(r, 5)
		}(k, r)
		wg.Wait()
	}
	fmt.Println(out)
}
