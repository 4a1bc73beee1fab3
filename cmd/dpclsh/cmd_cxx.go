package main

import (
	"context"
	"fmt"
	"io"
)

func init() {
	registerSubcommand(subcommand{
		name:  "c++",
		usage: "c++ [G++-ARGS...] [-o PROGRAM.elf] SOURCE.cpp...",
		brief: "build a C++ MPI program for the simulated Blue Gene/L: the PowerPC C++ cross compiler, static libstdc++, the machine's mpi.h and libmpi.a",
		help: `options:
  -o PROGRAM.elf   the program to write (default a.out in the current directory, as
                   mpicc); every other argument goes to the compiler as is
                   (-O2, -std=c++17, -D, -I, -ffp-contract=off, -c, objects, -l...)

The compiler is powerpc-linux-gnu-g++ (or $PPCCXX), run as
  powerpc-linux-gnu-g++ -mcpu=440fp -static -I DIR G++-ARGS... DIR/libmpi.a -lm
where DIR holds the mpi.h and libmpi.a built into dpclsh. -static links libstdc++ and
libgcc's unwinder into the program: <iostream>, exceptions, static constructors and the
containers all work on the machine. mpi.h is the C interface (extern "C"); MPI's C++
bindings, deprecated since MPI-2.2 and removed in MPI-3, are not provided. g++ compiles
.c files as C++, as MPICH's mpicxx does. With -c, -S or -E nothing is linked.
Debian: apt-get install g++-powerpc-linux-gnu libc6-dev-powerpc-cross

example:
  dpclsh c++ -O2 -g -ffp-contract=off -o histogram.elf examples/apps/histogram.cpp
  dpclsh exec --nodes 7 --label histogram.elf 4000
`,
		run: func(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
			if len(args) == 0 {
				fmt.Fprint(stderr, "usage: dpclsh c++ [G++-ARGS...] [-o PROGRAM.elf] SOURCE.cpp...\n")
				return exitUsage
			}
			return build(ctx, cxxToolchain, args, stdout, stderr)
		},
	})
}
