// Go: look-alike for the panic rule: a request handler's panic is recovered and logged (the
// log line quotes the runtime error), and the server goes on; later a nil *Session is read
// through: SIGSEGV in main.(*Session).user, which the debugger sees before the runtime.
package main

import (
	"fmt"
	"os"
)

type Session struct {
	id   int
	name string
}

func handle(req []int, i int) (n int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "recovered in handler: %v\n", r)
			n = -1
		}
	}()
	return req[i]
}

//go:noinline
func (s *Session) user() string {
	return s.name
}

func main() {
	fmt.Println(handle([]int{1, 2, 3}, 3))
	var sessions = map[int]*Session{1: {1, "ann"}}
	fmt.Println(sessions[2].user())
}
