package main

import (
	"context"
	"debug/elf"
	"fmt"
	"io"

	"github.com/dpclsh/dpclsh/ppc"
)

func init() {
	registerSubcommand(subcommand{
		name:  "disasm",
		usage: "disasm PROGRAM.elf [SYMBOL...]",
		brief: "disassemble a PowerPC 440 ELF program as objdump -d -M440 does (only the named functions if given)",
		help: `example:
  dpclsh disasm examples/apps/bin/cg.elf MPI_Allreduce
`,
		run: runDisasm,
	})
}

func runDisasm(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || len(args[0]) > 0 && args[0][0] == '-' {
		fmt.Fprint(stderr, "usage: dpclsh disasm PROGRAM.elf [SYMBOL...]\n")
		return exitUsage
	}
	f, err := elf.Open(args[0])
	if err != nil {
		fmt.Fprintf(stderr, "dpclsh disasm: %s: %v\n", args[0], err)
		return exitError
	}
	defer f.Close()
	if err := ppc.WriteListing(stdout, f, args[1:]...); err != nil {
		if isOutputError(err) {
			return exitError
		}
		fmt.Fprintf(stderr, "dpclsh disasm: %s: %v\n", args[0], err)
		return exitError
	}
	return exitOK
}
