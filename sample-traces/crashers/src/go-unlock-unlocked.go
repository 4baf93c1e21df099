// Go: a deferred Unlock on an error path that already unlocked: 'fatal error: sync: unlock of
// unlocked mutex' (a runtime throw, not a panic: recover cannot catch it); with
// debug.SetTraceback("crash") the runtime raises SIGABRT.
package main

import (
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
)

type Store struct {
	mu    sync.Mutex
	items map[string]int
}

//go:noinline
func (s *Store) put(k string, v int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if v < 0 {
		s.mu.Unlock() // error path releases early, and the defer releases again
		return errors.New("negative value")
	}
	s.items[k] = v
	return nil
}

func main() {
	debug.SetTraceback("crash")
	s := &Store{items: map[string]int{}}
	fmt.Println(s.put("a", 1))
	fmt.Println(s.put("b", -1))
}
