package bgl

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

// TestCorpusRebuildsByteForByte rebuilds testdata/bin with the Makefile in a copy of the
// tree and compares with the committed ELFs, when the installed compiler is the one
// recorded in their .comment section.
func TestCorpusRebuildsByteForByte(t *testing.T) {
	gcc := oracletest.Require(t, oracletest.GCC)
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make not installed")
	}
	ver, err := exec.Command(gcc, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	recorded := comment(t, "testdata/bin/hello.elf")
	first := strings.SplitN(string(ver), "\n", 2)[0]
	if !strings.Contains(recorded, strings.TrimPrefix(first, "powerpc-linux-gnu-gcc ")) {
		t.Skipf("installed %q differs from the recorded %q: rebuild not comparable", first, recorded)
	}
	tmp := t.TempDir()
	copyTree(t, "testdata", filepath.Join(tmp, "bgl", "testdata"), "bin")
	copyTree(t, "target", filepath.Join(tmp, "bgl", "target"), "")
	if out, err := exec.Command("make", "-s", "-j2", "-C", filepath.Join(tmp, "bgl", "testdata")).CombinedOutput(); err != nil {
		t.Fatalf("make: %v\n%s", err, out)
	}
	bins, _ := filepath.Glob("testdata/bin/*.elf")
	for _, b := range bins {
		want, _ := os.ReadFile(b)
		got, err := os.ReadFile(filepath.Join(tmp, "bgl", b))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: rebuild differs from the committed binary (%v)", b, err)
		}
	}
}

func comment(t *testing.T, path string) string {
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := f.Section(".comment")
	if s == nil {
		t.Fatalf("%s has no .comment", path)
	}
	b, _ := s.Data()
	return string(bytes.Trim(b, "\x00"))
}

// copyTree copies the regular files of src to dst, leaving out the directory skip.
func copyTree(t *testing.T, src, dst, skip string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			if skip != "" && rel == skip {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
