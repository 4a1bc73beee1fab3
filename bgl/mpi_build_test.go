package bgl

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/internal/mpioracle"
	"github.com/dpclsh/dpclsh/internal/oracletest"
)

// mpiBinaries are the committed MPI builds: the example apps and the MPI test corpus.
func mpiBinaries(t *testing.T) []string {
	apps, _ := filepath.Glob("../examples/apps/bin/*.elf")
	corpus, _ := filepath.Glob("testdata/mpi/bin/*.elf")
	sources, err := mpioracle.Sources("../examples/apps")
	if err != nil {
		t.Fatal(err)
	}
	if len(apps) != len(sources) || len(corpus) == 0 {
		t.Fatalf("committed MPI builds missing: %d apps of %d, %d corpus programs", len(apps), len(sources), len(corpus))
	}
	return append(apps, corpus...)
}

// mpiFunctions lists the functions target/mpi.h declares.
func mpiFunctions(t *testing.T) []string {
	src, err := os.ReadFile("target/mpi.h")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range regexp.MustCompile(`(?m)^(?:int|double) (MPI_\w+)\(`).FindAllSubmatch(src, -1) {
		names = append(names, string(m[1]))
	}
	if len(names) < 25 {
		t.Fatalf("found only %d MPI functions in mpi.h", len(names))
	}
	return names
}

// TestMPIFunctionsAreReal: in every MPI build, each MPI function the program links is a
// function symbol of its own (nonzero size, an address no other MPI function shares), so a
// tool can probe its entry and exits. libmpi.a itself must define all of mpi.h.
func TestMPIFunctionsAreReal(t *testing.T) {
	names := mpiFunctions(t)
	lib, err := exec.Command("powerpc-linux-gnu-nm", "--defined-only", "target/libmpi.a").Output()
	if err != nil {
		t.Skipf("powerpc-linux-gnu-nm: %v", err)
	}
	for _, n := range names {
		if !regexp.MustCompile(`(?m) T ` + n + `$`).Match(lib) {
			t.Errorf("libmpi.a does not define %s as a text symbol", n)
		}
	}
	for _, bin := range mpiBinaries(t) {
		f, err := elf.Open(bin)
		if err != nil {
			t.Fatal(err)
		}
		syms, _ := f.Symbols()
		f.Close()
		at := map[uint64]string{}
		seen := 0
		for _, s := range syms {
			if !strings.HasPrefix(s.Name, "MPI_") || elf.ST_TYPE(s.Info) != elf.STT_FUNC {
				continue
			}
			seen++
			if s.Size == 0 {
				t.Errorf("%s: %s has size 0", bin, s.Name)
			}
			if other, dup := at[s.Value]; dup {
				t.Errorf("%s: %s and %s share address 0x%x", bin, s.Name, other, s.Value)
			}
			at[s.Value] = s.Name
		}
		if seen < len(names) {
			t.Errorf("%s: %d MPI functions, want all %d of libmpi", bin, seen, len(names))
		}
	}
}

// TestMPIBuildsRebuildByteForByte rebuilds libmpi.a, the apps and the corpus with their
// Makefiles in a copy of the tree and compares with the committed files, when the installed
// compiler is the one recorded in the binaries.
func TestMPIBuildsRebuildByteForByte(t *testing.T) {
	oracletest.RequireSameGCC(t, "../examples/apps/bin/hello_mpi.elf")
	oracletest.Require(t, oracletest.GXX) // the C++ and Fortran apps
	oracletest.Require(t, oracletest.GFortran)
	tmp := t.TempDir()
	oracletest.CopyTree(t, "target", filepath.Join(tmp, "bgl", "target"))
	os.Remove(filepath.Join(tmp, "bgl", "target", "libmpi.a"))
	oracletest.CopyTree(t, "testdata/mpi", filepath.Join(tmp, "bgl", "testdata", "mpi"), "bin")
	oracletest.CopyTree(t, "../examples/apps", filepath.Join(tmp, "examples", "apps"), "bin")
	for _, dir := range []string{"bgl/target", "bgl/testdata/mpi", "examples/apps"} {
		oracletest.Make(t, filepath.Join(tmp, dir), "-j2")
	}
	// Paths are relative to bgl/; the rebuilt tree has bgl/ and examples/ side by side.
	oracletest.SameBytes(t, ".", filepath.Join(tmp, "bgl"), append(mpiBinaries(t), "target/libmpi.a"))
}

// fortranBound are the C functions that had Fortran bindings when libmpi_f.c was written:
// each must keep its mpi_xxx_ (a C function added to mpi.h later is only logged until it
// gets one).
var fortranBound = 93

// TestFortranBindings: libmpi.a's Fortran member defines mpi_xxx_ for the functions of
// mpi.h (gfortran's lower case and one underscore) and nothing without a C function
// behind it; the C member defines no Fortran symbol, so C programs link what they did
// before the Fortran member existed; and the committed C programs contain none.
func TestFortranBindings(t *testing.T) {
	nm := func(args ...string) string {
		out, err := exec.Command("powerpc-linux-gnu-nm", args...).Output()
		if err != nil {
			t.Skipf("powerpc-linux-gnu-nm: %v", err)
		}
		return string(out)
	}
	members := strings.Split(nm("--defined-only", "-A", "target/libmpi.a"), "\n")
	wrappers := map[string]bool{}
	for _, l := range members {
		f := strings.Fields(l)
		if len(f) != 3 || f[1] != "T" || !strings.HasPrefix(f[2], "mpi_") {
			continue
		}
		if !strings.Contains(f[0], ":libmpi_f.o:") {
			t.Errorf("%s: a Fortran symbol outside libmpi_f.o", l)
		}
		wrappers[f[2]] = true
	}
	var missing []string
	bound := 0
	for _, n := range mpiFunctions(t) {
		w := strings.ToLower(n) + "_"
		if wrappers[w] {
			bound++
			delete(wrappers, w)
		} else {
			missing = append(missing, n)
		}
	}
	for w := range wrappers {
		t.Errorf("libmpi_f.o defines %s, for no function of mpi.h", w)
	}
	if bound < fortranBound {
		t.Errorf("%d functions of mpi.h have a Fortran binding, want at least %d", bound, fortranBound)
	}
	if len(missing) > 0 {
		t.Logf("functions of mpi.h without a Fortran binding yet: %v", missing)
	}
	for _, bin := range mpiBinaries(t) {
		if src, _ := mpioracle.SourceOf(filepath.Dir(filepath.Dir(bin)), strings.TrimSuffix(filepath.Base(bin), ".elf")); strings.HasSuffix(src, ".c") &&
			regexp.MustCompile(`(?m) mpi_\w+_$`).MatchString(nm(bin)) {
			t.Errorf("%s, a C program, links Fortran bindings", bin)
		}
	}
}
