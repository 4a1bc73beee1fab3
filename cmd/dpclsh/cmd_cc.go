package main

import (
	"context"
	"fmt"
	"io"
)

func init() {
	registerSubcommand(subcommand{
		name:  "cc",
		usage: "cc [GCC-ARGS...] [-o PROGRAM.elf] SOURCE.c...",
		brief: "build an MPI program for the simulated Blue Gene/L: the PowerPC cross compiler with the machine's mpi.h and libmpi.a",
		help: `options:
  -o PROGRAM.elf   the program to write (default a.out in the current directory, as
                   mpicc); every other argument goes to the compiler as is
                   (-O2, -D, -I, -std=c99, -ffp-contract=off, -c, objects, -l...)

The compiler is powerpc-linux-gnu-gcc (or $PPCCC), run as
  powerpc-linux-gnu-gcc -mcpu=440fp -static -I DIR GCC-ARGS... DIR/libmpi.a -lm
where DIR holds the mpi.h and libmpi.a built into dpclsh (written to a temporary
directory for the build). With -c, -S or -E nothing is linked.
A C++ source (.cpp, .cc, .cxx, .C) makes it dpclsh c++, a Fortran source (.f, .f90...)
dpclsh fc, with their compilers and options.
Debian: apt-get install gcc-powerpc-linux-gnu libc6-dev-powerpc-cross

example:
  dpclsh cc -g -O2 -ffp-contract=off -o ring.elf examples/apps/ring.c
  dpclsh exec --nodes 8 ring.elf 16 10
`,
		run: runCC,
	})
}

const ccUsage = "usage: dpclsh cc [GCC-ARGS...] [-o PROGRAM.elf] SOURCE.c...\n"

func runCC(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, ccUsage)
		return exitUsage
	}
	tc, err := languageOf(args)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitUsage
	}
	return build(ctx, tc, args, stdout, stderr)
}
