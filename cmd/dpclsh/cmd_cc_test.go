package main

import (
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
// Makefile) and runs it on 7 simulated ranks: each prints what MPICH printed (the golden
// files internal/mpioracle recorded with mpiexec).
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
			elf := filepath.Join(out, e.Name+".elf")
			var stdout, stderr strings.Builder
			args := []string{"cc", "-O2", "-g", "-Wall", "-ffp-contract=off", "-o", elf, filepath.Join(dir, e.Name+".c")}
			if st := run(args, strings.NewReader(""), &stdout, &stderr); st != 0 || stderr.Len() != 0 {
				t.Fatalf("dpclsh cc %s: status %d\n%s%s", e.Name, st, stdout.String(), stderr.String())
			}
			res, err := bgl.Run(bgl.JobConfig{Exe: elf, Args: e.Args, Nodes: 7, Capture: true})
			if err != nil {
				t.Fatal(err)
			}
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
