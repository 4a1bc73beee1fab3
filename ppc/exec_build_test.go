package ppc

import (
	"bytes"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/internal/oracletest"
)

// TestPrebuiltUpToDate rebuilds testdata/exec in a scratch directory and compares every
// ELF with the committed one, when the installed compiler is the one that built them.
func TestPrebuiltUpToDate(t *testing.T) {
	gcc := oracletest.Require(t, oracletest.GCC)
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make not installed; skipping the rebuild comparison")
	}
	src := filepath.Join("testdata", "exec")
	ver, err := exec.Command(gcc, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if recorded := execELFComment(t, filepath.Join(src, "hello.elf")); !strings.Contains(string(ver), strings.TrimPrefix(recorded, "GCC: ")) {
		t.Skipf("installed %q is not the compiler that built the ELFs (%q); skipping", strings.SplitN(string(ver), "\n", 2)[0], recorded)
	}
	dir := t.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	var elfs []string
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(e.Name(), ".elf") {
			elfs = append(elfs, e.Name())
			continue
		}
		os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644)
	}
	if out, err := exec.Command("make", "-C", dir, "CC="+gcc).CombinedOutput(); err != nil {
		t.Fatalf("make: %v\n%s", err, out)
	}
	for _, name := range elfs {
		want, _ := os.ReadFile(filepath.Join(src, name))
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: rebuild differs from the committed file (%v); run make in %s", name, err, src)
		}
	}
}

func execELFComment(t *testing.T, path string) string {
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := f.Section(".comment")
	if s == nil {
		return ""
	}
	b, _ := s.Data()
	return strings.TrimRight(string(b), "\x00")
}
