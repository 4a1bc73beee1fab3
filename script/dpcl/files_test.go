package dpcl

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/dpclsh/dpclsh/script"

	lua "github.com/yuin/gopher-lua"
)

// TestDpclWriteFile: dpcl.write_file writes a string or an array of parts whole, as a
// file others may read, and returns the bytes; failures raise "cannot write PATH: REASON"
// at the script's line.
func TestDpclWriteFile(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	var out bytes.Buffer
	s, err := script.NewSessionWith(script.Options{Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.L.SetGlobal("DIR", lua.LString(dir))
	err = s.DoString(`
N = dpcl.write_file(DIR .. "/t.csv", {"a,b\n", 1, ",", 2.5, "\n"})
ONE = dpcl.write_file(DIR .. "/one.txt", "x")
CHECKED = dpcl.check_write(DIR .. "/later.json")
FULL = select(2, pcall(dpcl.write_file, "/dev/full", "x"))
MISSING = select(2, pcall(dpcl.check_write, DIR .. "/no/such/x.json"))
ISDIR = select(2, pcall(dpcl.write_file, DIR, "x"))
BAD = select(2, pcall(dpcl.write_file, DIR .. "/bad.txt", {"ok", {}}))
`, "files.lua")
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	num := func(name string) int { return int(lua.LVAsNumber(s.L.GetGlobal(name))) }
	str := func(name string) string { return lua.LVAsString(s.L.GetGlobal(name)) }
	if b, err := os.ReadFile(filepath.Join(dir, "t.csv")); err != nil || string(b) != "a,b\n1,2.5\n" || num("N") != len(b) {
		t.Errorf("t.csv = %q (%v), returned %d", b, err, num("N"))
	}
	if fi, err := os.Stat(filepath.Join(dir, "t.csv")); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("t.csv mode %v (%v), want -rw-r--r--", fi.Mode(), err)
	}
	if num("ONE") != 1 || str("CHECKED") != filepath.Join(dir, "later.json") {
		t.Errorf("ONE = %d, CHECKED = %q", num("ONE"), str("CHECKED"))
	}
	for name, want := range map[string]string{
		"FULL":    "files.lua:5: cannot write /dev/full: no space left on device",
		"MISSING": "files.lua:6: cannot write " + dir + "/no/such/x.json: no such file or directory",
		"ISDIR":   "files.lua:7: cannot write " + dir + ": is a directory",
		"BAD":     "data[2] must be a string or a number, got table",
	} {
		if got := str(name); !strings.Contains(got, want) {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Errorf("%d files in the directory, want t.csv and one.txt only", len(ents))
	}
}
