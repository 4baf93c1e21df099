// Legal Go states (issue 11, fourth pass): 200 goroutines blocked in read(2) on pipes (so
// their Ms sit in syscalls, and sysmon hands their Ps off), a writer waking them one at a
// time, workers allocating (GC), and a cgo call now and then. Built plainly and with the
// race detector (-race: every access goes through the ThreadSanitizer runtime).
package main

/*
static long c_mix(long x) { return x * 2654435761L ^ (x >> 7); }
*/
import "C"

import (
	"fmt"
	"os"
	"sync"
	"syscall"
)

func reader(fd int, out chan<- int) {
	buf := make([]byte, 64)
	for {
		n, err := syscall.Read(fd, buf)
		if err != nil || n == 0 {
			return
		}
		out <- n
	}
}

func main() {
	const n = 200
	ws := make([]int, n)
	out := make(chan int, 1024)
	for i := 0; i < n; i++ {
		var p [2]int
		if err := syscall.Pipe(p[:]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		ws[i] = p[1]
		go reader(p[0], out)
	}
	var mu sync.Mutex
	shared := map[int]int{}
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; ; i++ {
				s := make([]int, 100+i%500)
				for j := range s {
					s[j] = i * j
				}
				mu.Lock()
				shared[i%97] += len(s)
				mu.Unlock()
				if i%1000 == 0 {
					_ = C.c_mix(C.long(i))
				}
			}
		}(w)
	}
	total := 0
	for i := 0; ; i++ {
		syscall.Write(ws[i%n], []byte("ping"))
		total += <-out
	}
}
