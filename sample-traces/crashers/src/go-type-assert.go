// A real Go program: an unchecked type assertion on a value of another type: 'panic:
// interface conversion: interface {} is string, not int'; GOTRACEBACK=crash makes the
// runtime raise SIGABRT after the report.
package main

import (
	"fmt"
	"runtime/debug"
)

//go:noinline
func portOf(cfg map[string]interface{}) int {
	return cfg["port"].(int)
}

func main() {
	debug.SetTraceback("crash")
	cfg := map[string]interface{}{"host": "example", "port": "8080"}
	fmt.Println(portOf(cfg))
}
