package bgl

import (
	"bytes"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/internal/oracletest"
)

// mpiBinaries are the committed MPI builds: the example apps and the MPI test corpus.
func mpiBinaries(t *testing.T) []string {
	apps, _ := filepath.Glob("../examples/apps/bin/*.elf")
	corpus, _ := filepath.Glob("testdata/mpi/bin/*.elf")
	if len(apps) != 5 || len(corpus) == 0 {
		t.Fatalf("committed MPI builds missing: %d apps, %d corpus programs", len(apps), len(corpus))
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
	gcc := oracletest.Require(t, oracletest.GCC)
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make not installed")
	}
	ver, err := exec.Command(gcc, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	first := strings.SplitN(string(ver), "\n", 2)[0]
	if recorded := comment(t, "../examples/apps/bin/hello_mpi.elf"); !strings.Contains(recorded, strings.TrimPrefix(first, "powerpc-linux-gnu-gcc ")) {
		t.Skipf("installed %q differs from the recorded %q: rebuild not comparable", first, recorded)
	}
	tmp := t.TempDir()
	copyTree(t, "target", filepath.Join(tmp, "bgl", "target"), "")
	os.Remove(filepath.Join(tmp, "bgl", "target", "libmpi.a"))
	copyTree(t, "testdata/mpi", filepath.Join(tmp, "bgl", "testdata", "mpi"), "bin")
	copyTree(t, "../examples/apps", filepath.Join(tmp, "examples", "apps"), "bin")
	for _, dir := range []string{"bgl/target", "bgl/testdata/mpi", "examples/apps"} {
		if out, err := exec.Command("make", "-s", "-j2", "-C", filepath.Join(tmp, dir)).CombinedOutput(); err != nil {
			t.Fatalf("make -C %s: %v\n%s", dir, err, out)
		}
	}
	for _, f := range append(mpiBinaries(t), "target/libmpi.a") {
		want, _ := os.ReadFile(f)
		rel := filepath.Join("bgl", f)
		if strings.HasPrefix(f, "../") {
			rel = strings.TrimPrefix(f, "../")
		}
		got, err := os.ReadFile(filepath.Join(tmp, rel))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: rebuild differs from the committed file (%v)", f, err)
		}
	}
}
