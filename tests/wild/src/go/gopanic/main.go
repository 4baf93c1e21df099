// A panic with an error value inside a worker goroutine (wild corpus, record.sh).
package main

import (
	"fmt"
	"sync"
)

//go:noinline
func handle(job int) {
	if job == 3 {
		panic(fmt.Errorf("job %d: checksum mismatch", job))
	}
}

func main() {
	var wg sync.WaitGroup
	for j := 1; j <= 4; j++ {
		wg.Add(1)
		go func(j int) {
			defer wg.Done()
			handle(j)
		}(j)
	}
	wg.Wait()
}
