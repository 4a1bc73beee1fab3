package bgl

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// snapshot lists every path under dir with its size and content hash stand-in.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			b, _ := os.ReadFile(p)
			out[p] = string(b)
		} else {
			out[p] = d.Type().String()
		}
		return nil
	})
	return out
}

// TestSandbox runs sandbox.elf in outer/work: everything aimed outside is refused with
// EACCES and nothing outside changes; I/O inside works, by relative paths and by absolute
// ones under /job, the working directory as getcwd shows it to the rank.
func TestSandbox(t *testing.T) {
	outer := t.TempDir()
	work := filepath.Join(outer, "work")
	os.MkdirAll(filepath.Join(work, "sub"), 0o755)
	os.WriteFile(filepath.Join(outer, "victim.txt"), []byte("keep me"), 0o644)
	os.Symlink("/etc", filepath.Join(work, "escape"))
	os.Symlink("..", filepath.Join(work, "uplink"))
	before := snapshot(t, outer)
	var out, errb bytes.Buffer
	res, err := Run(JobConfig{Exe: "testdata/bin/sandbox.elf", Workdir: work, Stdout: &out, Stderr: &errb})
	if err != nil {
		t.Fatal(err)
	}
	want := `open /etc/passwd: Permission denied
open ../../x: Permission denied
open ../above.txt: Permission denied
open escape/passwd: Permission denied
open escape/created.txt: Permission denied
open uplink/outside.txt: Permission denied
open sub/../../x: Permission denied
mkdir ../d: Permission denied
unlink ../victim.txt: Permission denied
rename out: Permission denied
write inside: 7
read inside: 7 inside
getcwd: /job
read /job/inside.txt: 7 inside
open /job/sub/../inside.txt: ok
open /job/../x: Permission denied
open /job/escape/passwd: Permission denied
open /jobs/x: Permission denied
`
	if out.String() != want || res.ExitStatus() != 0 {
		t.Errorf("status %d, stdout:\n%s\nwant:\n%s\nstderr: %s", res.ExitStatus(), out.String(), want, errb.String())
	}
	after := snapshot(t, outer)
	delete(after, filepath.Join(work, "inside.txt"))
	for p, v := range after {
		if before[p] != v {
			t.Errorf("%s changed or appeared", p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			t.Errorf("%s disappeared", p)
		}
	}
	if _, err := os.Stat("/etc/created.txt"); err == nil {
		t.Error("/etc/created.txt exists")
	}
	if b, _ := os.ReadFile(filepath.Join(work, "inside.txt")); !strings.HasPrefix(string(b), "inside") {
		t.Errorf("inside.txt = %q", b)
	}
}
