package bgl_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dpclsh/dpclsh/bgl"
	"github.com/dpclsh/dpclsh/internal/mpioracle"
	"github.com/dpclsh/dpclsh/internal/oracletest"
)

// An mpiSuite is a folder of MPI programs: C, C++ or Fortran sources with a MANIFEST, their PowerPC builds
// in bin/, and the golden outputs internal/mpioracle recorded from MPICH.
type mpiSuite struct {
	name, dir, golden string
}

var mpiSuites = []mpiSuite{
	{"apps", "../examples/apps", "../internal/mpioracle/testdata/apps"},
	{"corpus", "testdata/mpi", "../internal/mpioracle/testdata/corpus"},
}

// simRun runs a PPC build on the simulated machine and returns the result in the
// comparable form, its status mapped to mpiexec's: a rank killed by signal S makes the
// simulated job's status 128+S and mpiexec's S.
func simRun(t *testing.T, exe string, ranks int, args []string, expect mpioracle.Expect) (string, *bgl.RunResult) {
	t.Helper()
	var stderr strings.Builder
	res, err := bgl.Run(bgl.JobConfig{Exe: exe, Args: args, Nodes: ranks, Capture: true, Stderr: &stderr})
	if err != nil {
		t.Fatalf("%s on %d ranks: %v\n%s", exe, ranks, err, stderr.String())
	}
	oracletest.CheckInterpreted(t, fmt.Sprintf("%s on %d ranks", exe, ranks), res.Translated)
	status := res.ExitStatus()
	if expect.Kind == mpioracle.ExpectSignal && status == 128+expect.Code {
		status = expect.Code
	}
	lines := make([][]string, ranks)
	for r, out := range res.Stdout {
		if s := strings.TrimSuffix(string(out), "\n"); s != "" {
			lines[r] = strings.Split(s, "\n")
		}
	}
	return mpioracle.Canonical(status, lines), res
}

func loadSuite(t *testing.T, s mpiSuite) []mpioracle.Entry {
	t.Helper()
	entries, err := mpioracle.LoadManifest(filepath.Join(s.dir, "MANIFEST"))
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

// TestMPIGolden runs every example and corpus program that ends normally, by MPI_Abort or
// by a fault on the simulated machine at every manifest size (1, 2, 7, 64) and compares
// the output, grouped by rank, and the status with what MPICH printed (the golden files).
func TestMPIGolden(t *testing.T) {
	for _, s := range mpiSuites {
		for _, e := range loadSuite(t, s) {
			if e.Expect.Kind == mpioracle.ExpectDeadlock {
				continue
			}
			for _, n := range e.Ranks {
				t.Run(fmt.Sprintf("%s/%s/%d", s.name, e.Name, n), func(t *testing.T) {
					want, err := os.ReadFile(filepath.Join(s.golden, fmt.Sprintf("%s.%d.golden", e.Name, n)))
					if err != nil {
						t.Fatal(err)
					}
					got, _ := simRun(t, filepath.Join(s.dir, "bin", e.Name+".elf"), n, e.Args, e.Expect)
					if got != string(want) {
						t.Errorf("simulated output differs from MPICH's\n--- simulated\n%s--- mpiexec\n%s", got, want)
					}
				})
			}
		}
	}
}

// TestMPINative builds every program natively with MPICH (mpicc, mpicxx or mpif90) and runs it under mpiexec on 2
// ranks (the golden files cover the other sizes without rerunning MPICH), comparing with
// the simulated machine.
func TestMPINative(t *testing.T) {
	for _, s := range mpiSuites {
		for _, e := range loadSuite(t, s) {
			if !e.Native || !hasSize(e.Ranks, 2) {
				continue
			}
			t.Run(s.name+"/"+e.Name, func(t *testing.T) {
				src, err := mpioracle.SourceOf(s.dir, e.Name)
				if err != nil {
					t.Fatal(err)
				}
				bin := mpioracle.Build(t, src, s.dir)
				nat := mpioracle.Run(t, bin, 2, e.Args, time.Minute)
				if nat.TimedOut {
					t.Fatalf("mpiexec timed out")
				}
				got, _ := simRun(t, filepath.Join(s.dir, "bin", e.Name+".elf"), 2, e.Args, e.Expect)
				if ended := e.Expect.Kind != mpioracle.ExpectExit || e.Expect.Code != 0; ended {
					// When a job is ended (MPI_Abort, a fault), mpiexec kills the ranks while
					// their output may still be on its way through the launcher, so MPICH
					// prints a timing-dependent part of it: the status must agree and every
					// line MPICH printed must be in the simulated output, in order.
					if err := mpioracle.EndedOutputAgrees(got, nat.Canonical()); err != nil {
						t.Errorf("%v\n--- simulated\n%s--- mpiexec\n%s", err, got, nat.Canonical())
					}
					return
				}
				if want := nat.Canonical(); got != want {
					t.Errorf("simulated output differs from mpiexec's\n--- simulated\n%s--- mpiexec\n%s", got, want)
				}
			})
		}
	}
}

func hasSize(sizes []int, n int) bool {
	for _, s := range sizes {
		if s == n {
			return true
		}
	}
	return false
}
