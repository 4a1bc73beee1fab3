package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// A subcommand is a word after `dpclsh` that selects a mode other than the Lua host
// (`dpclsh disasm`, `dpclsh exec`, `dpclsh test`, `dpclsh comm`). Each lives in its own
// file and registers itself from init, so main.go never needs to know the list.
type subcommand struct {
	name  string
	usage string // one line: "disasm PROGRAM.elf [SYMBOL...]"
	brief string // what it does, for --help
	// flags, when set, returns the subcommand's flag set: the same definitions parse the
	// arguments and print the flags in --help, so the two cannot drift apart.
	flags   func() *flag.FlagSet
	example string // one or more command lines, shown under "example:" in --help
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

// isHelpFlag reports whether a is one of the spellings of "show the help".
func isHelpFlag(a string) bool { return a == "-h" || a == "-help" || a == "--help" }

// writeSubcommandHelp prints a subcommand's --help: usage, what it does, its flags and
// an example. The README's usage section is generated from the same text.
func writeSubcommandHelp(w io.Writer, s subcommand) {
	fmt.Fprintf(w, "usage: dpclsh %s\n\n%s\n", s.usage, s.brief)
	if s.flags != nil {
		var b strings.Builder
		fs := s.flags()
		fs.SetOutput(&b)
		fs.PrintDefaults()
		fmt.Fprintf(w, "\nflags:\n%s", b.String())
	}
	if s.example != "" {
		fmt.Fprintf(w, "\nexample:\n")
		for _, line := range strings.Split(strings.TrimSpace(s.example), "\n") {
			fmt.Fprintf(w, "  %s\n", line)
		}
	}
}

// usageError prints a subcommand's usage line after an error and returns the usage status.
func usageError(stderr io.Writer, s string, err error) int {
	if err != nil {
		fmt.Fprintf(stderr, "dpclsh %s: %v\n", s, err)
	}
	fmt.Fprintf(stderr, "usage: dpclsh %s\n(dpclsh %s --help describes the flags)\n", subcommands[s].usage, s)
	return exitUsage
}
