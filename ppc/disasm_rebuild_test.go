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

// TestCorpusRebuild rebuilds the -O0 corpus programs and the static hello with the
// Makefile in a fresh directory and compares them with the committed bytes, when the
// installed compiler is the one that built them (its version is in .comment).
func TestCorpusRebuild(t *testing.T) {
	gcc := oracletest.Require(t, oracletest.GCC)
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make not installed; skipping the corpus rebuild check")
	}
	out, err := exec.Command(gcc, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	version := strings.TrimPrefix(strings.SplitN(string(out), "\n", 2)[0], "powerpc-linux-gnu-gcc ")
	recorded := elfComment(t, "testdata/isa/hello-O2-static.elf")
	if !strings.Contains(recorded, version) {
		t.Skipf("corpus built by %q, installed compiler is %q: not comparing bytes", recorded, version)
	}
	dir := t.TempDir()
	for _, name := range []string{"Makefile", "arith.c", "fpu.c", "strs.c", "hello.c"} {
		data, err := os.ReadFile(filepath.Join("testdata/isa", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	targets := []string{"arith-O0.elf", "fpu-O0.elf", "strs-O0.elf", "hello-O2-static.elf"}
	cmd := exec.Command("make", append([]string{"-s", "-C", dir}, targets...)...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make: %v\n%s", err, msg)
	}
	for _, name := range targets {
		want, err1 := os.ReadFile(filepath.Join("testdata/isa", name))
		got, err2 := os.ReadFile(filepath.Join(dir, name))
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: rebuild differs from the committed file (run make -C testdata/isa)", name)
		}
	}
}

func elfComment(t *testing.T, path string) string {
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := f.Section(".comment")
	if s == nil {
		t.Fatalf("%s: no .comment section", path)
	}
	data, err := s.Data()
	if err != nil {
		t.Fatal(err)
	}
	return string(bytes.ReplaceAll(data, []byte{0}, []byte{'\n'}))
}
