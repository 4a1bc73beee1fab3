package mpichsuite

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// SuiteDir is where MPICH's test/mpi is looked for: $DPCL_REALAPPS/mpich-test/mpi when
// DPCL_REALAPPS is set (expected is then true: its absence is an error under
// DPCL_REQUIRE_ORACLES=1), else ../shared/realapps/mpich-test/mpi beside the repository.
func SuiteDir(repo string) (dir string, expected bool) {
	root, expected := os.LookupEnv("DPCL_REALAPPS")
	if !expected || root == "" {
		root, expected = filepath.Join(repo, "..", "shared", "realapps"), false
	}
	return filepath.Join(root, "mpich-test", "mpi"), expected
}

// Present reports whether dir holds the suite.
func Present(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "util", "mtest.c"))
	return err == nil
}

// New builds dpclsh from the repository at repo into work, compiles the harness for the
// machine and for MPICH there, and returns a suite ready to run. Nothing is written
// outside work.
func New(ctx context.Context, repo, root, work string) (*Suite, error) {
	mpicc, err := exec.LookPath("mpicc")
	if err != nil {
		return nil, fmt.Errorf("mpichsuite: MPICH's mpicc: %w", err)
	}
	mpiexec, err := exec.LookPath("mpiexec")
	if err != nil {
		return nil, fmt.Errorf("mpichsuite: MPICH's mpiexec: %w", err)
	}
	dpclsh := filepath.Join(work, "dpclsh")
	build := exec.CommandContext(ctx, "go", "build", "-o", dpclsh, "./cmd/dpclsh")
	build.Dir = repo
	if msg, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("mpichsuite: go build ./cmd/dpclsh: %v\n%s", err, msg)
	}
	s := &Suite{Root: root, Work: work, Sim: BGLRunner{dpclsh}, Host: NativeRunner{mpiexec}, Slow: 2, Workers: 2}
	if s.BGL, err = BuildHarness(ctx, BGL(dpclsh), root, filepath.Join(work, "bgl")); err != nil {
		return nil, err
	}
	if s.Native, err = BuildHarness(ctx, Native(mpicc), root, filepath.Join(work, "native")); err != nil {
		return nil, err
	}
	return s, nil
}

// ReadDirs reads the testlists of dirs (top-level directories of the suite).
func ReadDirs(root string, dirs []string) ([]Entry, error) {
	var all []Entry
	for _, d := range dirs {
		es, err := ReadList(root, d)
		if err != nil {
			return nil, err
		}
		all = append(all, es...)
	}
	return all, nil
}

// AcceptanceDirs are the directories the machine's MPI is measured on.
var AcceptanceDirs = []string{"attr", "coll", "comm", "datatype", "errhan", "group", "info",
	"init", "pt2pt", "topo", "rma", "io"}
