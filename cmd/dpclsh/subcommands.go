package main

import (
	"context"
	"io"
	"sort"
)

// A subcommand is a word after `dpclsh` that selects a mode other than the Lua host
// (`dpclsh disasm`, `dpclsh exec`, `dpclsh test`, `dpclsh comm`). Each lives in its own
// file and registers itself from init, so main.go never needs to know the list.
type subcommand struct {
	name  string
	usage string // one line: "disasm PROGRAM.elf [SYMBOL...]"
	brief string // what it does, for --help
	// run receives the arguments after the subcommand's name and returns the exit status
	// (0 success, 1 failure, 2 usage).
	run func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

var subcommands = map[string]subcommand{}

func registerSubcommand(s subcommand) {
	if _, dup := subcommands[s.name]; dup {
		panic("dpclsh: subcommand registered twice: " + s.name)
	}
	subcommands[s.name] = s
}

// subcommandNames lists the registered subcommands in a stable order for help text.
func subcommandNames() []string {
	names := make([]string, 0, len(subcommands))
	for n := range subcommands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
