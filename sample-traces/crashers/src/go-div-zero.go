// Go: an average over an empty batch divides by len(batch) = 0. Go defines integer division
// by zero as a run-time panic: the compiler checks the divisor (no #DE, no SIGFPE) and calls
// runtime.panicdivide: 'panic: runtime error: integer divide by zero'; debug.SetTraceback("crash")
// makes the runtime raise SIGABRT after the report.
package main

import (
	"fmt"
	"os"
	"runtime/debug"
)

//go:noinline
func average(batch []int) int {
	sum := 0
	for _, v := range batch {
		sum += v
	}
	return sum / len(batch)
}

func main() {
	debug.SetTraceback("crash")
	batch := make([]int, len(os.Args)-1)
	fmt.Println(average(batch))
}
