package script

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// newShellSession is a session with output captured, closed at the end of the test.
func newShellSession(t *testing.T) (*Session, *bytes.Buffer) {
	t.Helper()
	var out bytes.Buffer
	s, err := NewSessionWith(Options{Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, &out
}

// TestCompleteProgramNames completes the program's function names, file:LINE places and
// data symbols inside the string arguments of app:points, app:functions, app:global.
func TestCompleteProgramNames(t *testing.T) {
	s, _ := newShellSession(t)
	if err := s.DoString(`app = dpcl.launch("../examples/apps/bin/ring.elf", {nodes = 8, per_io = 8, quiet = true})`, "t"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		text, partial string
		has, hasNot   []string
	}{
		{`app:points("MPI_A`, "MPI_A", []string{"MPI_Allreduce"}, []string{"MPI_Send", "main"}},
		{`x = app:functions( 'MPI_Se`, "MPI_Se", []string{"MPI_Send"}, []string{"MPI_Recv"}},
		{`app:points("ring.c:`, "ring.c:", []string{"ring.c:20"}, []string{"main"}},
		{`app:points("mai`, "mai", []string{"main"}, []string{"ring.c:20"}},
		{`app:global("environ`, "environ", []string{"environ"}, []string{"main"}},
		{`app:points("MPI_A", "ent`, "ent", nil, []string{"MPI_Allreduce"}},
		{`nosuch:points("MPI_A`, "MPI_A", nil, []string{"MPI_Allreduce"}},
	}
	for _, tc := range tests {
		partial, words := s.Complete(tc.text)
		if partial != tc.partial {
			t.Errorf("Complete(%q): partial %q, want %q", tc.text, partial, tc.partial)
		}
		for _, w := range tc.has {
			if !slices.Contains(words, w) {
				t.Errorf("Complete(%q) lacks %q: %s", tc.text, w, strings.Join(words, " "))
			}
		}
		for _, w := range tc.hasNot {
			if slices.Contains(words, w) {
				t.Errorf("Complete(%q) offers %q", tc.text, w)
			}
		}
	}
}
