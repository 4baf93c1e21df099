// gccgo (GCC's Go front end, libgo runtime): a nil *Account dereferenced in a method. The
// SIGSEGV stops the debugger before libgo turns it into a panic.
package main

import "fmt"

type Account struct {
	id      int
	balance int64
}

type Bank struct {
	accounts map[int]*Account
}

//go:noinline
func (b *Bank) balance(id int) int64 {
	a := b.accounts[id] // nil for an unknown id
	return a.balance
}

func main() {
	b := &Bank{accounts: map[int]*Account{1: {1, 100}}}
	fmt.Println(b.balance(1))
	fmt.Println(b.balance(2))
}
