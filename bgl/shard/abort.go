package shard

import (
	"fmt"
	"os"
)

// exit ends the process; tests replace it.
var exit = os.Exit

// describe names a shard and what it holds: "shard 1 of 4 (holding psets 2-3)".
func describe(rank, size int, held string) string {
	s := fmt.Sprintf("shard %d of %d", rank, size)
	if held != "" {
		s += " (holding " + held + ")"
	}
	return s
}

// abortMessage prints the line Abort promises on standard error.
func abortMessage(rank, size int, held, msg string) {
	fmt.Fprintf(os.Stderr, "dpclsh: %s: %s\n", describe(rank, size, held), msg)
}
