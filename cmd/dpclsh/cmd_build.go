package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dpclsh/dpclsh/bgl"
)

// A toolchain is how programs of one language are built for the simulated machine: the
// PowerPC cross compiler's driver with the machine's MPI headers and libmpi.a (dpclsh cc,
// dpclsh c++, dpclsh fc). The drivers differ only in what the table says.
type toolchain struct {
	sub      string   // the subcommand, for messages: "cc", "c++", "fc"
	compiler string   // the Debian cross compiler's name
	envVar   string   // overrides compiler, as in the Makefiles
	packages string   // Debian packages that provide compiler
	flags    []string // language flags put before the user's arguments
	// module: compile the embedded mpi.f90 into the include directory first, so
	// `use mpi` finds an mpi.mod written by the very compiler that reads it.
	module bool
}

var (
	cToolchain = toolchain{sub: "cc", compiler: "powerpc-linux-gnu-gcc", envVar: "PPCCC",
		packages: "gcc-powerpc-linux-gnu libc6-dev-powerpc-cross"}
	// g++ with -static links libstdc++ statically; nothing else is needed.
	cxxToolchain = toolchain{sub: "c++", compiler: "powerpc-linux-gnu-g++", envVar: "PPCCXX",
		packages: "g++-powerpc-linux-gnu libc6-dev-powerpc-cross"}
	// The two -fallow flags are MPICH's mpif90's: an F77 program passes arrays of several
	// types to one MPI routine, which gfortran 10 and later refuse without them.
	fortranToolchain = toolchain{sub: "fc", compiler: "powerpc-linux-gnu-gfortran", envVar: "PPCFC",
		packages: "gfortran-powerpc-linux-gnu libc6-dev-powerpc-cross",
		flags:    []string{"-fallow-argument-mismatch", "-fallow-invalid-boz"}, module: true}
)

// Source suffixes that make dpclsh cc use another language's driver, as mpicc would not:
// a user who types `dpclsh cc app.cpp` means a C++ program.
var (
	cxxSuffixes     = []string{".cpp", ".cc", ".cxx", ".c++", ".C", ".CPP"}
	fortranSuffixes = []string{".f", ".for", ".ftn", ".f77", ".f90", ".f95", ".f03", ".f08",
		".F", ".FOR", ".F77", ".F90", ".F95", ".F03", ".F08"}
)

// name is the compiler to run: $envVar when set, else the Debian one.
func (tc toolchain) name() string {
	if c := os.Getenv(tc.envVar); c != "" {
		return c
	}
	return tc.compiler
}

// missing is the message for a compiler that is not installed.
func (tc toolchain) missing() string {
	return fmt.Sprintf("dpclsh %s: %s not found: install the PowerPC cross compiler "+
		"(Debian: apt-get install %s) or set %s\n", tc.sub, tc.name(), tc.packages, tc.envVar)
}

// languageOf picks the toolchain for dpclsh cc's arguments: C++ or Fortran when a source
// has such a suffix, C otherwise. Both at once is an error: no one driver links both
// runtimes.
func languageOf(args []string) (toolchain, error) {
	var cxx, fortran string
	for _, a := range args {
		ext := filepath.Ext(a)
		switch {
		case strings.HasPrefix(a, "-"):
		case slices.Contains(cxxSuffixes, ext):
			cxx = a
		case slices.Contains(fortranSuffixes, ext):
			fortran = a
		}
	}
	switch {
	case cxx != "" && fortran != "":
		return toolchain{}, fmt.Errorf("dpclsh cc: %s is C++ and %s is Fortran: build each with "+
			"dpclsh c++ -c or dpclsh fc -c and link the objects with one of them", cxx, fortran)
	case cxx != "":
		return cxxToolchain, nil
	case fortran != "":
		return fortranToolchain, nil
	}
	return cToolchain, nil
}

// build runs tc's compiler on args with the machine's headers and library and returns
// the exit status: the compiler's own when it fails.
func build(ctx context.Context, tc toolchain, args []string, stdout, stderr io.Writer) int {
	compiler, err := exec.LookPath(tc.name())
	if err != nil {
		fmt.Fprint(stderr, tc.missing())
		return exitError
	}
	dir, err := os.MkdirTemp("", "dpclsh-"+strings.Trim(tc.sub, "+")+"-")
	if err != nil {
		fmt.Fprintf(stderr, "dpclsh %s: %v\n", tc.sub, err)
		return exitError
	}
	defer os.RemoveAll(dir)
	if err := os.CopyFS(dir, bgl.TargetFS()); err != nil {
		fmt.Fprintf(stderr, "dpclsh %s: writing the MPI headers and libmpi.a: %v\n", tc.sub, err)
		return exitError
	}
	if tc.module {
		if st := compileModule(ctx, tc, compiler, dir, stderr); st != exitOK {
			return st
		}
	}
	return runCompiler(ctx, tc, compiler, buildArgs(tc, dir, args), stdout, stderr)
}

// compileModule compiles mpi.f90 in dir into dir/mpi.mod. The module is built at every
// call because a .mod file is readable only by the gfortran version that wrote it.
func compileModule(ctx context.Context, tc toolchain, compiler, dir string, stderr io.Writer) int {
	var msg strings.Builder
	args := []string{"-mcpu=440fp", "-c", "-J", dir, "-I", dir, "-o", filepath.Join(dir, "mpi_mod.o"),
		filepath.Join(dir, "mpi.f90")}
	if st := runCompiler(ctx, tc, compiler, args, &msg, &msg); st != exitOK {
		fmt.Fprintf(stderr, "dpclsh %s: %s cannot compile the MPI module mpi.f90:\n%s", tc.sub, compiler, msg.String())
		return exitError
	}
	return exitOK
}

func runCompiler(ctx context.Context, tc toolchain, compiler string, args []string, stdout, stderr io.Writer) int {
	cmd := exec.CommandContext(ctx, compiler, args...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) && exit.ExitCode() > 0 {
			return exit.ExitCode()
		}
		fmt.Fprintf(stderr, "dpclsh %s: %s: %v\n", tc.sub, compiler, err)
		return exitError
	}
	return exitOK
}

// buildArgs is the compiler's command line: the machine's CPU and static linking first,
// the headers' directory, the language's flags, the user's arguments, then libmpi.a and
// libm when something is linked.
func buildArgs(tc toolchain, dir string, args []string) []string {
	// The prefix map keeps the temporary directory out of the debug information, so a
	// build is reproducible.
	out := []string{"-mcpu=440fp", "-static", "-I", dir, "-ffile-prefix-map=" + dir + "=dpclsh-target"}
	out = append(out, tc.flags...)
	out = append(out, args...)
	for _, a := range args {
		if a == "-c" || a == "-S" || a == "-E" || a == "-M" || a == "-MM" {
			return out
		}
	}
	return append(out, filepath.Join(dir, "libmpi.a"), "-lm")
}
