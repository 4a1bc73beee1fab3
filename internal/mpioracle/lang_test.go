package mpioracle

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestWithoutMismatches keeps every gfortran diagnostic but the argument mismatches that
// -fallow-argument-mismatch demotes to warnings.
func TestWithoutMismatches(t *testing.T) {
	out := "a.f90:15:21:\n\n   15 |   call MPI_Send(x, 1)\n      |                     2\n" +
		"Warning: Type mismatch between actual argument at (1) and actual argument at (2) (INTEGER(4)/REAL(8)).\n" +
		"a.f90:20:16:\n\n   20 |   call MPI_Recv(v, 1)\n      |                1\n" +
		"Warning: Rank mismatch between actual argument at (1) and actual argument at (2) (scalar and rank-1)\n" +
		"a.f90:30:5:\n\n   30 |   integer :: unused\n      |     1\n" +
		"Warning: Unused variable ‘unused’ declared at (1) [-Wunused-variable]\n"
	want := "a.f90:30:5:\n\n   30 |   integer :: unused\n      |     1\n" +
		"Warning: Unused variable ‘unused’ declared at (1) [-Wunused-variable]\n"
	if got := string(withoutMismatches([]byte(out))); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if got := withoutMismatches(nil); len(got) != 0 {
		t.Errorf("nothing in, %q out", got)
	}
}

// TestSourceOf finds each program's one source by its language's suffix, and refuses a
// program with none or with two.
func TestSourceOf(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a.c", "b.cpp", "c.f90", "d.f", "e.c", "e.f90"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, want := range map[string]string{"a": "a.c", "b": "b.cpp", "c": "c.f90", "d": "d.f"} {
		src, err := SourceOf(dir, name)
		if err != nil || src != filepath.Join(dir, want) {
			t.Errorf("%s: %q, %v", name, src, err)
		}
		if l, err := LangOf(src); err != nil || l.Ext != filepath.Ext(want) {
			t.Errorf("%s: language %+v, %v", src, l, err)
		}
	}
	for _, name := range []string{"e", "z"} {
		if src, err := SourceOf(dir, name); err == nil {
			t.Errorf("%s: %q, want an error", name, src)
		}
	}
	names, err := Sources(dir)
	slices.Sort(names)
	if err != nil || !slices.Equal(names, []string{"a", "b", "c", "d", "e", "e"}) {
		t.Errorf("Sources: %v, %v", names, err)
	}
}
