package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/dpclsh/dpclsh/bgl"
)

func init() {
	registerSubcommand(subcommand{
		name:  "cc",
		usage: "cc [GCC-ARGS...] -o PROGRAM.elf SOURCE.c...",
		brief: "build an MPI program for the simulated Blue Gene/L: the PowerPC cross compiler with the machine's mpi.h and libmpi.a",
		help: `options:
  -o PROGRAM.elf   the program to write; every other argument goes to the compiler as is
                   (-O2, -D, -I, -std=c99, -ffp-contract=off, -c, objects, -l...)

The compiler is powerpc-linux-gnu-gcc (or $PPCCC), run as
  powerpc-linux-gnu-gcc -mcpu=440fp -static -I DIR GCC-ARGS... DIR/libmpi.a -lm
where DIR holds the mpi.h and libmpi.a built into dpclsh (written to a temporary
directory for the build). With -c, -S or -E nothing is linked.
Debian: apt-get install gcc-powerpc-linux-gnu libc6-dev-powerpc-cross

example:
  dpclsh cc -O2 -ffp-contract=off -o ring.elf examples/apps/ring.c
  dpclsh exec --nodes 8 ring.elf 16 10
`,
		run: runCC,
	})
}

const ccUsage = "usage: dpclsh cc [GCC-ARGS...] -o PROGRAM.elf SOURCE.c...\n"

// ccCompiler is the cross compiler's name: $PPCCC as in the Makefiles, else Debian's.
func ccCompiler() string {
	if c := os.Getenv("PPCCC"); c != "" {
		return c
	}
	return "powerpc-linux-gnu-gcc"
}

func runCC(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, ccUsage)
		return exitUsage
	}
	gcc, err := exec.LookPath(ccCompiler())
	if err != nil {
		fmt.Fprintf(stderr, "dpclsh cc: %s not found: install the PowerPC cross compiler "+
			"(Debian: apt-get install gcc-powerpc-linux-gnu libc6-dev-powerpc-cross) or set PPCCC\n", ccCompiler())
		return exitError
	}
	dir, err := os.MkdirTemp("", "dpclsh-cc-")
	if err != nil {
		fmt.Fprintf(stderr, "dpclsh cc: %v\n", err)
		return exitError
	}
	defer os.RemoveAll(dir)
	if err := os.CopyFS(dir, bgl.TargetFS()); err != nil {
		fmt.Fprintf(stderr, "dpclsh cc: writing mpi.h and libmpi.a: %v\n", err)
		return exitError
	}
	cmd := exec.CommandContext(ctx, gcc, ccArgs(dir, args)...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) && exit.ExitCode() > 0 {
			return exit.ExitCode()
		}
		fmt.Fprintf(stderr, "dpclsh cc: %s: %v\n", gcc, err)
		return exitError
	}
	return exitOK
}

// ccArgs builds the compiler's command line: the machine's CPU and static linking first,
// mpi.h's directory, the user's arguments, then libmpi.a and libm when something is linked.
func ccArgs(dir string, args []string) []string {
	// The prefix map keeps the temporary directory out of the debug information, so a
	// build is reproducible.
	out := []string{"-mcpu=440fp", "-static", "-I", dir, "-ffile-prefix-map=" + dir + "=dpclsh-target"}
	out = append(out, args...)
	for _, a := range args {
		if a == "-c" || a == "-S" || a == "-E" || a == "-M" || a == "-MM" {
			return out
		}
	}
	return append(out, filepath.Join(dir, "libmpi.a"), "-lm")
}
