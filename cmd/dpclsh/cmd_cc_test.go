package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/bgl"
	"github.com/dpclsh/dpclsh/internal/mpioracle"
	"github.com/dpclsh/dpclsh/internal/oracletest"
)

// TestCCBuildsTheApps builds every program of examples/apps with `dpclsh cc` (not the
// Makefile; a C++ or Fortran source makes it use that language's driver) and runs it on 7
// simulated ranks: each prints what MPICH printed (the golden files internal/mpioracle
// recorded with mpiexec).
func TestCCBuildsTheApps(t *testing.T) {
	oracletest.Require(t, oracletest.GCC)
	dir := filepath.Join("..", "..", "examples", "apps")
	entries, err := mpioracle.LoadManifest(filepath.Join(dir, "MANIFEST"))
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	for _, e := range entries {
		if !hasRanks(e.Ranks, 7) {
			continue
		}
		t.Run(e.Name, func(t *testing.T) {
			t.Parallel() // each build is one compiler process: two keep both cores busy
			src, err := mpioracle.SourceOf(dir, e.Name)
			if err != nil {
				t.Fatal(err)
			}
			lang, _ := mpioracle.LangOf(src)
			oracletest.Require(t, map[string]string{"C": oracletest.GCC, "C++": oracletest.GXX, "Fortran": oracletest.GFortran}[lang.Name])
			elf := filepath.Join(out, e.Name+".elf")
			var stdout, stderr strings.Builder
			args := []string{"cc", "-O2", "-g", "-Wall", "-ffp-contract=off", "-o", elf, src}
			if st := run(args, strings.NewReader(""), &stdout, &stderr); st != 0 || stderr.Len() != 0 {
				t.Fatalf("dpclsh cc %s: status %d\n%s%s", e.Name, st, stdout.String(), stderr.String())
			}
			res, err := bgl.Run(bgl.JobConfig{Exe: elf, Args: e.Args, Nodes: 7, Capture: true})
			if err != nil {
				t.Fatal(err)
			}
			oracletest.CheckInterpreted(t, e.Name, res.Translated)
			lines := make([][]string, 7)
			for r, o := range res.Stdout {
				if s := strings.TrimSuffix(string(o), "\n"); s != "" {
					lines[r] = strings.Split(s, "\n")
				}
			}
			got := mpioracle.Canonical(res.ExitStatus(), lines)
			want, err := os.ReadFile(filepath.Join("..", "..", "internal", "mpioracle", "testdata", "apps",
				fmt.Sprintf("%s.7.golden", e.Name)))
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("%s built by dpclsh cc: output differs from MPICH's\n--- simulated\n%s--- mpiexec\n%s", e.Name, got, want)
			}
		})
	}
}

func hasRanks(sizes []int, n int) bool {
	for _, s := range sizes {
		if s == n {
			return true
		}
	}
	return false
}

// TestCCErrors: no arguments is a usage error; a missing cross compiler says how to
// install it; a compile error is the compiler's own message and status.
func TestCCErrors(t *testing.T) {
	var out, errb strings.Builder
	if st := run([]string{"cc"}, strings.NewReader(""), &out, &errb); st != exitUsage || !strings.Contains(errb.String(), "usage: dpclsh cc") {
		t.Errorf("no arguments: status %d, stderr %q", st, errb.String())
	}
	t.Setenv("PPCCC", "no-such-powerpc-gcc")
	errb.Reset()
	st := run([]string{"cc", "-o", filepath.Join(t.TempDir(), "x.elf"), "x.c"}, strings.NewReader(""), &out, &errb)
	if want := "dpclsh cc: no-such-powerpc-gcc not found: install the PowerPC cross compiler " +
		"(Debian: apt-get install gcc-powerpc-linux-gnu libc6-dev-powerpc-cross) or set PPCCC\n"; st != exitError || errb.String() != want {
		t.Errorf("missing compiler: status %d, stderr %q, want %q", st, errb.String(), want)
	}
	t.Setenv("PPCCC", "")
	oracletest.Require(t, oracletest.GCC)
	src := filepath.Join(t.TempDir(), "bad.c")
	if err := os.WriteFile(src, []byte("#include <mpi.h>\nint main(void) { return MPI_No_such(); }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	errb.Reset()
	st = run([]string{"cc", "-Werror=implicit-function-declaration", "-o", src + ".elf", src}, strings.NewReader(""), &out, &errb)
	if st == 0 || !strings.Contains(errb.String(), "MPI_No_such") {
		t.Errorf("compile error: status %d, stderr %q", st, errb.String())
	}
}

// TestLanguageDrivers: dpclsh c++ (and dpclsh cc given a C++ source) write the same
// program byte for byte, so the switch in cc is the C++ driver itself; each driver names
// its own compiler, variable and Debian package when the compiler is missing; cc refuses
// C++ and Fortran sources in one command.
func TestLanguageDrivers(t *testing.T) {
	var out, errb strings.Builder
	for _, tt := range []struct {
		sub, src, env, want string
	}{
		{"cc", "x.c", "PPCCC", "dpclsh cc: no-such-compiler not found: install the PowerPC cross compiler " +
			"(Debian: apt-get install gcc-powerpc-linux-gnu libc6-dev-powerpc-cross) or set PPCCC\n"},
		{"c++", "x.cpp", "PPCCXX", "dpclsh c++: no-such-compiler not found: install the PowerPC cross compiler " +
			"(Debian: apt-get install g++-powerpc-linux-gnu libc6-dev-powerpc-cross) or set PPCCXX\n"},
		{"cc", "x.cc", "PPCCXX", "dpclsh c++: no-such-compiler not found: install the PowerPC cross compiler " +
			"(Debian: apt-get install g++-powerpc-linux-gnu libc6-dev-powerpc-cross) or set PPCCXX\n"},
		{"fc", "x.f90", "PPCFC", "dpclsh fc: no-such-compiler not found: install the PowerPC cross compiler " +
			"(Debian: apt-get install gfortran-powerpc-linux-gnu libc6-dev-powerpc-cross) or set PPCFC\n"},
		{"f77", "x.f", "PPCFC", "dpclsh f77: no-such-compiler not found: install the PowerPC cross compiler " +
			"(Debian: apt-get install gfortran-powerpc-linux-gnu libc6-dev-powerpc-cross) or set PPCFC\n"},
	} {
		t.Setenv(tt.env, "no-such-compiler")
		errb.Reset()
		if st := run([]string{tt.sub, "-o", "x.elf", tt.src}, strings.NewReader(""), &out, &errb); st != exitError || errb.String() != tt.want {
			t.Errorf("%s with no compiler: status %d, stderr %q, want %q", tt.sub, st, errb.String(), tt.want)
		}
		errb.Reset()
		if st := run([]string{tt.sub}, strings.NewReader(""), &out, &errb); st != exitUsage || !strings.Contains(errb.String(), "usage: dpclsh "+tt.sub+" ") {
			t.Errorf("%s alone: status %d, stderr %q", tt.sub, st, errb.String())
		}
		t.Setenv(tt.env, "")
	}
	errb.Reset()
	if st := run([]string{"cc", "-o", "x.elf", "a.cpp", "b.f90"}, strings.NewReader(""), &out, &errb); st != exitUsage ||
		!strings.Contains(errb.String(), "a.cpp is C++ and b.f90 is Fortran") {
		t.Errorf("mixed C++ and Fortran: status %d, stderr %q", st, errb.String())
	}

	apps := filepath.Join("..", "..", "examples", "apps")
	for _, tt := range []struct {
		tool, src string
		subs      []string
	}{
		{oracletest.GXX, filepath.Join(apps, "histogram.cpp"), []string{"c++", "cc"}},
		{oracletest.GFortran, filepath.Join(apps, "heat.f90"), []string{"fc", "f77", "cc"}},
	} {
		oracletest.Require(t, tt.tool)
		if got := sameProgram(t, tt.src, tt.subs); !got {
			t.Errorf("dpclsh %v on %s wrote different programs", tt.subs, tt.src)
		}
	}
}

// sameProgram builds src with each subcommand and reports whether all wrote the same bytes.
func sameProgram(t *testing.T, src string, subs []string) bool {
	t.Helper()
	dir := t.TempDir()
	var first []byte
	for i, sub := range subs {
		elf := filepath.Join(dir, sub+".elf")
		var out, errb strings.Builder
		if st := run([]string{sub, "-O2", "-g", "-o", elf, src}, strings.NewReader(""), &out, &errb); st != 0 || errb.Len() != 0 {
			t.Fatalf("dpclsh %s %s: status %d\n%s", sub, src, st, errb.String())
		}
		b, err := os.ReadFile(elf)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = b
		} else if !bytes.Equal(b, first) {
			return false
		}
	}
	return true
}

// TestF77BuildsFixedForm: dpclsh f77 builds a FORTRAN 77 program (fixed form, INCLUDE
// 'mpif.h') that prints on 2 simulated ranks what MPICH printed.
func TestF77BuildsFixedForm(t *testing.T) {
	oracletest.Require(t, oracletest.GFortran)
	dir := filepath.Join("..", "..", "bgl", "testdata", "mpi")
	elf := filepath.Join(t.TempDir(), "f77_ring.elf")
	var out, errb strings.Builder
	if st := run([]string{"f77", "-O2", "-o", elf, filepath.Join(dir, "f77_ring.f")}, strings.NewReader(""), &out, &errb); st != 0 {
		t.Fatalf("dpclsh f77: status %d\n%s", st, errb.String())
	}
	res, err := bgl.Run(bgl.JobConfig{Exe: elf, Nodes: 2, Capture: true})
	if err != nil {
		t.Fatal(err)
	}
	oracletest.CheckInterpreted(t, "f77_ring", res.Translated)
	lines := make([][]string, 2)
	for r, o := range res.Stdout {
		if s := strings.TrimSuffix(string(o), "\n"); s != "" {
			lines[r] = strings.Split(s, "\n")
		}
	}
	want, err := os.ReadFile(filepath.Join("..", "..", "internal", "mpioracle", "testdata", "corpus", "f77_ring.2.golden"))
	if err != nil {
		t.Fatal(err)
	}
	if got := mpioracle.Canonical(res.ExitStatus(), lines); got != string(want) {
		t.Errorf("f77_ring built by dpclsh f77 differs from MPICH's\n--- simulated\n%s--- mpiexec\n%s", got, want)
	}
}

// TestCCWithoutOutputWritesAOut: as mpicc, `dpclsh cc SOURCE.c` writes a.out in the
// current directory, and the usage and help say -o is optional and what it defaults to.
func TestCCWithoutOutputWritesAOut(t *testing.T) {
	for _, sub := range []string{"cc", "c++", "fc", "f77"} {
		s := subcommands[sub]
		if !strings.Contains(s.usage, "[-o PROGRAM.elf]") || !strings.Contains(s.help, "default a.out in the current directory") {
			t.Errorf("dpclsh %s: usage %q and help do not say -o is optional with a.out as default", sub, s.usage)
		}
	}
	oracletest.Require(t, oracletest.GCC)
	dir := t.TempDir()
	src := filepath.Join(dir, "ranks.c")
	prog := "#include <stdio.h>\n#include <mpi.h>\nint main(int argc, char **argv)\n{\n\tint rank;\n" +
		"\tMPI_Init(&argc, &argv);\n\tMPI_Comm_rank(MPI_COMM_WORLD, &rank);\n\tprintf(\"rank %d\\n\", rank);\n" +
		"\tMPI_Finalize();\n\treturn 0;\n}\n"
	if err := os.WriteFile(src, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	var out, errb strings.Builder
	if st := run([]string{"cc", "ranks.c"}, strings.NewReader(""), &out, &errb); st != 0 || errb.Len() != 0 {
		t.Fatalf("dpclsh cc ranks.c: status %d\n%s%s", st, out.String(), errb.String())
	}
	res, err := bgl.Run(bgl.JobConfig{Exe: filepath.Join(dir, "a.out"), Nodes: 2, Capture: true})
	if err != nil {
		t.Fatalf("a.out: %v", err)
	}
	if got := string(res.Stdout[0]) + string(res.Stdout[1]); res.ExitStatus() != 0 || got != "rank 0\nrank 1\n" {
		t.Errorf("a.out on 2 ranks: status %d, output %q", res.ExitStatus(), got)
	}
}
