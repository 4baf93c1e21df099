// A runtime fatal error (all goroutines are asleep - deadlock) with two goroutines (wild corpus).
package main

import (
	"fmt"
	"sync"
)

//go:noinline
func waitAll(wg *sync.WaitGroup, ch chan int) {
	wg.Wait()
	ch <- 1
}

func main() {
	var wg sync.WaitGroup
	ch := make(chan int)
	wg.Add(2)
	go func() { wg.Done() }()
	waitAll(&wg, ch)
	fmt.Println(<-ch)
}
