package oracletest

import (
	"bytes"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// RequireSameGCC returns the cross compiler's path when it is the compiler recorded in the
// .comment section of the committed ELF at path, and skips the test (naming both versions)
// otherwise: another compiler version is not expected to reproduce the committed bytes.
// It also skips when make is missing, since every rebuild goes through a Makefile.
func RequireSameGCC(t testing.TB, path string) string {
	t.Helper()
	gcc := Require(t, GCC)
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make not installed; skipping the rebuild comparison")
	}
	out, err := exec.Command(gcc, "--version").Output()
	if err != nil {
		t.Fatalf("%s --version: %v", gcc, err)
	}
	installed := strings.TrimPrefix(strings.SplitN(string(out), "\n", 2)[0], GCC+" ")
	recorded := elfComment(t, path)
	if !strings.Contains(recorded, installed) {
		t.Skipf("%s was built by %q, the installed compiler is %q: rebuild not comparable", path, recorded, installed)
	}
	return gcc
}

func elfComment(t testing.TB, path string) string {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := f.Section(".comment")
	if s == nil {
		t.Fatalf("%s has no .comment section", path)
	}
	b, err := s.Data()
	if err != nil {
		t.Fatalf("%s: .comment: %v", path, err)
	}
	return string(bytes.ReplaceAll(bytes.Trim(b, "\x00"), []byte{0}, []byte{'\n'}))
}

// CopyTree copies the regular files below src to dst, leaving out the directories (relative
// to src) named in skip — typically the folder of committed binaries being checked.
func CopyTree(t testing.TB, src, dst string, skip ...string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			for _, s := range skip {
				if rel == s {
					return filepath.SkipDir
				}
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

// CopyFiles copies the named files into dst under their base names: the sources and
// Makefile of a rebuild, without the committed outputs make would take as up to date.
func CopyFiles(t testing.TB, dst string, paths ...string) {
	t.Helper()
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, filepath.Base(p)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Make runs make in dir with the given arguments and fails the test with its output.
func Make(t testing.TB, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("make", append([]string{"-s", "-C", dir}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make -C %s %s: %v\n%s", dir, strings.Join(args, " "), err, out)
	}
}

// SameBytes reports, for each name, a rebuilt file that differs from the committed one.
func SameBytes(t testing.TB, committedDir, rebuiltDir string, names []string) {
	t.Helper()
	for _, name := range names {
		want, err := os.ReadFile(filepath.Join(committedDir, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		got, err := os.ReadFile(filepath.Join(rebuiltDir, name))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: rebuild differs from the committed file (%v); run make in %s", name, err, committedDir)
		}
	}
}
