package main

import (
	"context"
	"fmt"
	"io"
)

const fcHelp = `options:
  -o PROGRAM.elf   the program to write (default a.out in the current directory, as
                   mpicc); every other argument goes to the compiler as is
                   (-O2, -g, -ffixed-form, -D, -I, -ffp-contract=off, -c, objects, -l...)

The compiler is powerpc-linux-gnu-gfortran (or $PPCFC), run as
  powerpc-linux-gnu-gfortran -mcpu=440fp -static -I DIR -fallow-argument-mismatch
      -fallow-invalid-boz ARGS... DIR/libmpi.a -lm
where DIR holds mpif.h, mpi.h and libmpi.a built into dpclsh, and mpi.mod, which
dpclsh compiles from its mpi.f90 with the same gfortran first (a .mod file is
readable only by the gfortran version that wrote it). INCLUDE 'mpif.h' and USE mpi
both work, in fixed form (.f) and free form (.f90). The two -fallow flags are those
MPICH's mpif90 adds. With -c, -S or -E nothing is linked.
Debian: apt-get install gfortran-powerpc-linux-gnu libc6-dev-powerpc-cross

example:
  dpclsh fc -O2 -g -ffp-contract=off -o heat.elf examples/apps/heat.f90
  dpclsh exec --nodes 7 --label heat.elf 40 200
`

// The Fortran drivers: fc, and f77 (the same driver under the name of MPICH's mpif77).
var fortranDrivers = []struct{ name, usage, brief string }{
	{"fc", "fc [GFORTRAN-ARGS...] [-o PROGRAM.elf] SOURCE.f90...",
		"build a Fortran 77/90 MPI program for the simulated Blue Gene/L: the PowerPC gfortran with the machine's mpif.h, mpi module and libmpi.a"},
	{"f77", "f77 [GFORTRAN-ARGS...] [-o PROGRAM.elf] SOURCE.f...",
		"dpclsh fc under the name of MPICH's mpif77: fixed-form programs with INCLUDE 'mpif.h' build with either"},
}

func init() {
	for _, d := range fortranDrivers {
		name, usage := d.name, d.usage
		registerSubcommand(subcommand{
			name:  name,
			usage: usage,
			brief: d.brief,
			help:  fcHelp,
			run: func(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
				if len(args) == 0 {
					fmt.Fprintf(stderr, "usage: dpclsh %s\n", usage)
					return exitUsage
				}
				tc := fortranToolchain
				tc.sub = name
				return build(ctx, tc, args, stdout, stderr)
			},
		})
	}
}
