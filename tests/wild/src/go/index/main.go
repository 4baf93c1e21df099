// Index out of range panic in a goroutine-free call chain (wild corpus, record.sh).
package main

import (
	"fmt"
	"os"
)

//go:noinline
func pickSlot(slots []int, k int) int {
	return slots[k]
}

func main() {
	slots := make([]int, 3, 4)
	fmt.Println(pickSlot(slots, len(os.Args)+4))
}
