// Go: an average over an empty batch divides by len(batch) = 0. Go defines integer division
// by zero as a run-time panic; the CPU's #DE reaches the debugger first as SIGFPE in
// main.average (the runtime would turn it into 'panic: runtime error: integer divide by zero').
package main

import (
	"fmt"
	"os"
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
	batch := make([]int, len(os.Args)-1)
	fmt.Println(average(batch))
}
