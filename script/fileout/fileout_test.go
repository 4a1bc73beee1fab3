package fileout

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// withUmask runs the test under umask 022, the usual one, and restores the caller's.
func withUmask(t *testing.T) {
	old := syscall.Umask(0o022)
	t.Cleanup(func() { syscall.Umask(old) })
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// onlyFiles fails unless dir holds exactly the names given: no temporary file is left.
func onlyFiles(t *testing.T, dir string, names ...string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if strings.Join(got, ",") != strings.Join(names, ",") {
		t.Errorf("%s holds %q, want %q", dir, got, names)
	}
}

func TestWriteCreatesPublicFile(t *testing.T) {
	withUmask(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "trace.json")
	if err := Write(path, []byte("{}\n"), Public); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want -rw-r--r--", fi.Mode().Perm())
	}
	if got := readFile(t, path); got != "{}\n" {
		t.Errorf("content %q", got)
	}
	onlyFiles(t, dir, "trace.json")
}

func TestWriteKeepsTheModeOfAReplacedFile(t *testing.T) {
	withUmask(t)
	path := filepath.Join(t.TempDir(), "history")
	if err := os.WriteFile(path, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o660); err != nil { // a mode the umask would not give
		t.Fatal(err)
	}
	if err := Write(path, []byte("new\n"), Public); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o660 {
		t.Errorf("mode %v after the rewrite, want -rw-rw----", fi.Mode().Perm())
	}
	if got := readFile(t, path); got != "new\n" {
		t.Errorf("content %q", got)
	}
}

// TestFailedWriteKeepsTheOldFile: content that fails half-way leaves the old file whole
// and no temporary file, and says which file and why.
func TestFailedWriteKeepsTheOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "table.csv")
	if err := os.WriteFile(path, []byte("old,table\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("the run was interrupted")
	err := WriteFunc(path, Public, func(w io.Writer) error {
		// More than the buffer, so part of it reaches the temporary file.
		if _, err := w.Write([]byte(strings.Repeat("half a table\n", 10000))); err != nil {
			return err
		}
		return boom
	})
	if want := "cannot write " + path + ": the run was interrupted"; err == nil || err.Error() != want {
		t.Fatalf("error %v, want %q", err, want)
	}
	if !errors.Is(err, boom) {
		t.Errorf("%v does not wrap the cause", err)
	}
	if got := readFile(t, path); got != "old,table\n" {
		t.Errorf("the old file became %d bytes", len(got))
	}
	onlyFiles(t, dir, "table.csv")
}

// TestDevFullReportsTheError: a device is written in place and its error is the error.
func TestDevFullReportsTheError(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full on this host")
	}
	err := Write("/dev/full", []byte("x"), Public)
	if want := "cannot write /dev/full: no space left on device"; err == nil || err.Error() != want {
		t.Fatalf("error %v, want %q", err, want)
	}
	if !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("%v is not ENOSPC", err)
	}
	if err := Check("/dev/full"); err != nil {
		t.Errorf("Check(/dev/full) = %v: the device can be opened for writing", err)
	}
	if err := Write("/dev/null", []byte("x"), Public); err != nil {
		t.Errorf("/dev/null: %v", err)
	}
}

// TestOpenDescriptorNames: /dev/fd/N writes to descriptor N itself, which stays open.
func TestOpenDescriptorNames(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	name := "/dev/fd/" + strconv.Itoa(int(w.Fd()))
	if err := Check(name); err != nil {
		t.Fatal(err)
	}
	if err := Write(name, []byte("one "), Public); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("two")); err != nil {
		t.Fatalf("the descriptor was closed by the write: %v", err)
	}
	w.Close()
	got, _ := io.ReadAll(r)
	if string(got) != "one two" {
		t.Errorf("pipe got %q", got)
	}
	if err := Check("/dev/fd/999"); err == nil || !strings.Contains(err.Error(), "cannot write /dev/fd/999: bad file descriptor") {
		t.Errorf("Check of a closed descriptor: %v", err)
	}
}

func TestSymbolicLinkStaysALink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.csv")
	link := filepath.Join(dir, "link.csv")
	if err := os.WriteFile(real, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real.csv", link); err != nil {
		t.Fatal(err)
	}
	if err := Write(link, []byte("new"), Public); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file")
	}
	if got := readFile(t, real); got != "new" {
		t.Errorf("the linked file holds %q", got)
	}
	onlyFiles(t, dir, "link.csv", "real.csv")
}

// TestCheck: Check fails for what Write would fail on and leaves nothing behind.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		path string
		want string // "" for no error
	}{
		{filepath.Join(dir, "new.json"), ""},
		{filepath.Join(dir, "no", "such", "t.json"), "cannot write " + filepath.Join(dir, "no", "such", "t.json") + ": no such file or directory"},
		{dir, "cannot write " + dir + ": is a directory"},
		{"", `cannot write "": no file name`},
	}
	for _, tc := range tests {
		err := Check(tc.path)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("Check(%q) = %v", tc.path, err)
		case tc.want != "" && (err == nil || err.Error() != tc.want):
			t.Errorf("Check(%q) = %v, want %q", tc.path, err, tc.want)
		}
		if tc.want != "" && tc.path != "" {
			if werr := Write(tc.path, []byte("x"), Public); werr == nil || werr.Error() != tc.want {
				t.Errorf("Write(%q) = %v, want %q", tc.path, werr, tc.want)
			}
		}
	}
	onlyFiles(t, dir)
}

// TestReadOnlyFileIsRefused: a file its owner made read-only is not replaced behind its back.
func TestReadOnlyFileIsRefused(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root may write any file")
	}
	path := filepath.Join(t.TempDir(), "kept.csv")
	if err := os.WriteFile(path, []byte("kept"), 0o444); err != nil {
		t.Fatal(err)
	}
	err := Write(path, []byte("new"), Public)
	if want := "cannot write " + path + ": permission denied"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
	if got := readFile(t, path); got != "kept" {
		t.Errorf("content %q", got)
	}
}
