package mpioracle

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/internal/oracletest"
)

// buildFortranForPPC compiles each Fortran program of the suites for the 440 (part of
// TestOtherLanguagesBuildForPPC).
func buildFortranForPPC(t *testing.T, out string) {
	fc := oracletest.Require(t, oracletest.GFortran)
	dir := filepath.Dir(header)
	cmd := exec.Command(fc, "-mcpu=440fp", "-c", "-J", out, "-I", dir, "-o", filepath.Join(out, "mpi.o"),
		filepath.Join(dir, "mpi.f90"))
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("mpi.f90: %v\n%s", err, msg)
	}
	bound := map[string]bool{}
	for _, f := range subset {
		bound[strings.ToLower(f)+"_"] = true
	}
	for _, s := range suites {
		var srcs []string
		for _, ext := range []string{"*.f90", "*.f"} {
			m, _ := filepath.Glob(filepath.Join(s.dir, ext))
			srcs = append(srcs, m...)
		}
		for _, src := range srcs {
			obj := filepath.Join(out, s.name+"_"+filepath.Base(src)+".o")
			cmd := exec.Command(fc, "-mcpu=440fp", "-O2", "-Wall", "-ffp-contract=off", "-fallow-argument-mismatch",
				"-I", dir, "-I", out, "-I", s.dir, "-c", "-o", obj, src)
			msg, err := cmd.CombinedOutput()
			if msg = withoutMismatches(msg); err != nil || len(bytes.TrimSpace(msg)) != 0 {
				t.Errorf("%s: %v\n%s", src, err, msg)
				continue
			}
			for _, sym := range undefined(t, obj) {
				if strings.HasPrefix(sym, "mpi_") && !bound[sym] {
					t.Errorf("%s calls %s: no C function of the subset behind it", src, sym)
				}
			}
		}
	}
}

// fortranOnly are mpif.h's parameters that mpi.h does not define: the status layout and
// the kinds.
var fortranOnly = []string{"MPI_STATUS_SIZE", "MPI_SOURCE", "MPI_TAG", "MPI_ERROR", "MPI_ADDRESS_KIND",
	"MPI_OFFSET_KIND", "MPI_INTEGER_KIND", "MPI_VERSION", "MPI_SUBVERSION"}

var (
	fortranParam = regexp.MustCompile(`(?m)^      PARAMETER \((MPI_\w+)=(-?\d+)\)$`)
	cDefine      = regexp.MustCompile(`(?m)^#define (MPI_\w+) (?:\(\(\w+\)(-?\w+)\)|\(?(-?\w+)\)?)$`)
)

// TestFortranHeaderMatchesC: every constant of mpif.h has mpi.h's value for the same name
// (handles pass between the languages unchanged), and the status layout is C's
// MPI_Status: MPI_SOURCE, MPI_TAG, MPI_ERROR, then the count, 4 integers.
func TestFortranHeaderMatchesC(t *testing.T) {
	f, err := os.ReadFile(filepath.Join(filepath.Dir(header), "mpif.h"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := os.ReadFile(header)
	if err != nil {
		t.Fatal(err)
	}
	cvals := map[string]int64{}
	for _, m := range cDefine.FindAllStringSubmatch(string(c), -1) {
		if v, err := strconv.ParseInt(m[2]+m[3], 0, 64); err == nil {
			cvals[m[1]] = v
		} else if v, alias := cvals[m[3]]; alias { // #define MPI_LONG_LONG_INT MPI_LONG_LONG
			cvals[m[1]] = v
		}
	}
	params := fortranParam.FindAllStringSubmatch(string(f), -1)
	if len(params) < 80 {
		t.Fatalf("found only %d PARAMETERs in mpif.h", len(params))
	}
	fvals := map[string]int64{}
	for _, m := range params {
		v, _ := strconv.ParseInt(m[2], 10, 64)
		fvals[m[1]] = v
		cv, inC := cvals[m[1]]
		switch {
		case slices.Contains(fortranOnly, m[1]):
		case !inC:
			t.Errorf("mpif.h defines %s, which mpi.h does not", m[1])
		case cv != v:
			t.Errorf("%s: mpif.h %d, mpi.h %d", m[1], v, cv)
		}
	}
	if fvals["MPI_STATUS_SIZE"] != 4 || fvals["MPI_SOURCE"] != 1 || fvals["MPI_TAG"] != 2 || fvals["MPI_ERROR"] != 3 {
		t.Errorf("status layout %v is not C's MPI_Status", fvals)
	}
	var cOnly []string
	for name := range cvals {
		if _, ok := fvals[name]; !ok {
			cOnly = append(cOnly, name)
		}
	}
	sort.Strings(cOnly)
	t.Logf("mpi.h constants mpif.h leaves out: %v", cOnly)
}

// TestFortranHeadersCompile: mpif.h compiles included in fixed form and in free form, and
// the mpi module source compiles, with every warning an error (a fixed-form line past
// column 72 would be truncated: gfortran warns).
func TestFortranHeadersCompile(t *testing.T) {
	t.Parallel()
	fc := oracletest.Require(t, oracletest.GFortran)
	out := t.TempDir()
	srcs := map[string]string{
		"fixed.f": "      PROGRAM FIXED\n      IMPLICIT NONE\n      INCLUDE 'mpif.h'\n" +
			"      PRINT *, MPI_COMM_WORLD, MPI_WTIME(), MPI_BOTTOM\n      END\n",
		"free.f90": "program free\n  implicit none\n  include 'mpif.h'\n" +
			"  print *, MPI_COMM_WORLD, MPI_WTIME(), MPI_STATUS_IGNORE(MPI_SOURCE)\nend program free\n",
		"module.f90": "program usesmpi\n  use mpi\n  implicit none\n  integer :: ierr\n" +
			"  call MPI_Init(ierr)\n  print *, MPI_DOUBLE_COMPLEX, MPI_WTICK()\n  call MPI_Finalize(ierr)\nend program usesmpi\n",
	}
	dir := filepath.Dir(header)
	cmd := exec.Command(fc, "-mcpu=440fp", "-std=f2008", "-Wall", "-Wextra", "-Werror", "-I", dir, "-J", out,
		"-c", "-o", filepath.Join(out, "mpi.o"), filepath.Join(dir, "mpi.f90"))
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("mpi.f90: %v\n%s", err, msg)
	}
	for name, text := range srcs {
		src := filepath.Join(out, name)
		if err := os.WriteFile(src, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		// Not -Wextra: it reports every PARAMETER a program leaves unused (MPICH's mpif.h
		// draws the same hundreds of lines).
		cmd := exec.Command(fc, "-mcpu=440fp", "-Wall", "-Werror", "-I", dir, "-I", out, "-c",
			"-o", src+".o", src)
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", name, err, msg)
		}
	}
}
