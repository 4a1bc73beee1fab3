package main

import (
	"context"
	"fmt"
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
	// help is what `dpclsh NAME --help` prints after the usage line and brief: the
	// options with their defaults, and an example.
	help string
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

// isHelpFlag reports whether arg asks for a subcommand's help.
func isHelpFlag(arg string) bool { return arg == "-h" || arg == "-help" || arg == "--help" }

// writeSubcommandHelp prints `dpclsh NAME --help`: usage, what it does, options, example.
func writeSubcommandHelp(w io.Writer, s subcommand) {
	fmt.Fprintf(w, "usage: dpclsh %s\n\n%s\n", s.usage, s.brief)
	if s.help != "" {
		fmt.Fprintf(w, "\n%s", s.help)
	}
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
