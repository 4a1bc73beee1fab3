package script

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOSMkdir: os.mkdir creates missing parents, accepts an existing directory, and
// returns nil and a message naming the path when it cannot.
func TestOSMkdir(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	s, err := NewSessionWith(Options{Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	src := `local d = ...
print(os.mkdir(d .. "/out/new"), os.mkdir(d .. "/out/new"))
print(os.mkdir(d .. "/file/sub"))`
	if err := s.RunMain(src, "mkdir", []string{dir}); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(filepath.Join(dir, "out", "new")); err != nil || !st.IsDir() {
		t.Errorf("out/new not created: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || lines[0] != "true\ttrue" || !strings.HasPrefix(lines[1], "nil\tos.mkdir: mkdir "+file+": not a directory") {
		t.Errorf("output %q", out.String())
	}
}
