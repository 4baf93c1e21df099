// Nil pointer dereference in a method called from main (wild corpus, record.sh).
package main

import "fmt"

type Session struct {
	ID    int
	Name  string
	Bytes []byte
}

//go:noinline
func (s *Session) Len() int {
	return len(s.Bytes)
}

//go:noinline
func lookup(id int) *Session {
	if id > 100 {
		return &Session{ID: id}
	}
	return nil
}

func main() {
	s := lookup(7)
	fmt.Println(s.Len())
}
