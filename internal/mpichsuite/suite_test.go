package mpichsuite

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dpclsh/dpclsh/internal/oracletest"
)

// ciSubset is the part of the suite `go test` runs: a few quick entries of every
// directory the machine is measured on (the whole suite is the mpichsuite command's).
var ciSubset = []string{
	"attr/attrend 1", "attr/attrorder 1", "attr/attrerr 1", "attr/baseattrcomm 1",
	"errhan/errstring2 1", "errhan/predef_eh 1", "errhan/errfatal 1",
	"info/infodup 1", "info/infoget 1", "info/infoorder 1", "info/infovallen 1",
	"init/version 1", "init/exitst1 2", "init/finalized 1", "init/library_version 1", "init/initstat 1",
	"comm/dup 2", "comm/cmsplit 4",
	"pt2pt/sendrecv2 2", "pt2pt/anyall 2", "pt2pt/bsend1 1", "pt2pt/isendself 1", "pt2pt/waittestnull 1",
	"coll/bcasttest 4",
	"datatype/contents 1", "datatype/gaddress 1",
	"group/groupcreate 4", "group/gtranks 8",
	"topo/cartmap1 4", "topo/dims1 4",
	"rma/winname 2", "rma/getgroup 4", "rma/test1 2", "rma/test2 2",
	"io/rdwrord 4", "io/getextent 2",
}

// TestSuiteCI builds and runs the CI subset on the machine and under MPICH and fails on
// a natively passing entry that fails on the machine without being in
// testdata/known_failures.txt, or a known failure that now passes. Without MPICH's
// test/mpi (../shared/realapps beside the repository or $DPCL_REALAPPS) it skips loudly,
// and fails under DPCL_REQUIRE_ORACLES=1 when DPCL_REALAPPS names where it should be.
func TestSuiteCI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs MPICH's tests; skipped with -short")
	}
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	root, expected := SuiteDir(repo)
	if !Present(root) {
		msg := "ORACLE MISSING: MPICH's test/mpi not found at " + root
		if expected && oracletest.Required() {
			t.Fatal(msg + " (DPCL_REALAPPS is set and DPCL_REQUIRE_ORACLES=1)")
		}
		t.Skip(msg + " (set DPCL_REALAPPS to the folder holding mpich-test); skipping")
	}
	oracletest.Require(t, oracletest.GCC)
	oracletest.Require(t, oracletest.MPICC)
	oracletest.Require(t, oracletest.MPIExec)
	known, err := KnownFailures(filepath.Join("testdata", "known_failures.txt"))
	if err != nil {
		t.Fatal(err)
	}
	all, err := ReadDirs(root, AcceptanceDirs)
	if err != nil {
		t.Fatal(err)
	}
	byKey := map[string]Entry{}
	for _, e := range all {
		byKey[e.Key()] = e
	}
	var entries []Entry
	for _, k := range ciSubset {
		e, ok := byKey[k]
		if !ok {
			t.Fatalf("CI subset entry %q is not in the suite's testlists", k)
		}
		entries = append(entries, e)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	s, err := New(ctx, repo, root, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	res := s.Run(ctx, entries)
	var table strings.Builder
	WriteTable(&table, res)
	t.Logf("CI subset of MPICH's test suite:\n%s", table.String())
	if os.Getenv("MPICHSUITE_CSV") != "" {
		f, err := os.Create(os.Getenv("MPICHSUITE_CSV"))
		if err == nil {
			WriteCSV(f, res)
			f.Close()
		}
	}
	failed, fixed := Regressions(res, known)
	for _, f := range failed {
		t.Errorf("regression: %s", f)
	}
	for _, k := range fixed {
		t.Errorf("%s now passes: remove it from testdata/known_failures.txt", k)
	}
	for _, r := range res {
		if !r.Native {
			t.Errorf("%s does not pass under MPICH (%s): choose another CI entry", r.Key(), r.NativeWhy)
		}
	}
}
