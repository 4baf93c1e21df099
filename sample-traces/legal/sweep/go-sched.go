// Go runtime at work: goroutines on channels, a mutex, allocation that drives the GC, a
// timer, signal delivery (SIGUSR1 handled by os/signal, so runtime.sigtramp runs) and cgo
// calls. Stops in the scheduler, GC workers, sigtramp and cgo transitions are legal.
package main

/*
static long c_step(long x) { long s = 0; for (int i = 0; i < 1000; i++) s += (x ^ i) & 7; return s; }
*/
import "C"

import (
	"os"
	"os/signal"
	"strconv"
	"sync"
	"syscall"
	"time"
)

type item struct {
	next *item
	buf  []byte
}

func worker(in <-chan int, out chan<- int, mu *sync.Mutex, shared map[int]int) {
	var keep *item
	for v := range in {
		for i := 0; i < 50; i++ {
			keep = &item{next: keep, buf: make([]byte, 256+v%512)}
			if i%10 == 0 {
				keep = nil
			}
		}
		r := int(C.c_step(C.long(v)))
		mu.Lock()
		shared[v%64] += r
		mu.Unlock()
		out <- r
	}
}

func main() {
	rounds := 1 << 62
	if len(os.Args) > 1 {
		rounds, _ = strconv.Atoi(os.Args[1])
	}
	sigs := make(chan os.Signal, 16)
	signal.Notify(sigs, syscall.SIGUSR1)
	go func() {
		for range sigs {
		}
	}()
	go func() {
		for {
			syscall.Kill(os.Getpid(), syscall.SIGUSR1)
			time.Sleep(3 * time.Millisecond)
		}
	}()
	in, out := make(chan int, 8), make(chan int, 8)
	var mu sync.Mutex
	shared := map[int]int{}
	for w := 0; w < 4; w++ {
		go worker(in, out, &mu, shared)
	}
	go func() {
		for i := 0; i < rounds; i++ {
			in <- i
		}
		close(in)
	}()
	t := time.NewTicker(time.Millisecond)
	sum := 0
	for i := 0; i < rounds; i++ {
		select {
		case v := <-out:
			sum += v
		case <-t.C:
			i--
		}
	}
	println(sum)
}
