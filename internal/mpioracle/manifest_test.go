package mpioracle

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
)

func TestParseManifest(t *testing.T) {
	text := `# comment
ring      1,2,7  16,10  exit:0     run

deadlock  2      -      deadlock   skip
fault     7      -      signal:11  run
ring      64     16,1   exit:3     run
`
	got, err := ParseManifest(strings.NewReader(text), "M")
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{
		{Name: "ring", Ranks: []int{1, 2, 7}, Args: []string{"16", "10"}, Expect: Expect{ExpectExit, 0}, Native: true, Line: 2},
		{Name: "deadlock", Ranks: []int{2}, Expect: Expect{ExpectDeadlock, 0}, Line: 4},
		{Name: "fault", Ranks: []int{7}, Expect: Expect{ExpectSignal, 11}, Native: true, Line: 5},
		{Name: "ring", Ranks: []int{64}, Args: []string{"16", "1"}, Expect: Expect{ExpectExit, 3}, Native: true, Line: 6},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestParseManifestErrors(t *testing.T) {
	tests := []struct {
		text, want string
	}{
		{"a 1 - exit:0", "M:1: want 5 columns"},
		{"\na 0 - exit:0 run", "M:2: ranks \"0\""},
		{"a 1,x - exit:0 run", "is not a job size"},
		{"a 1 - exit run", "want exit:N, signal:N"},
		{"a 1 - exit:256 run", "want exit:N"},
		{"a 1 - crash:1 run", "want exit:N"},
		{"a 1 - exit:0 maybe", "native column"},
		{"a 1 - deadlock run", "mpiexec would hang"},
		{"a-b 1 - exit:0 run", "program name"},
		{"a 1,2 - exit:0 run\na 2 - exit:0 run", "M:2: program \"a\" on 2 ranks already listed on line 1"},
	}
	for _, tc := range tests {
		_, err := ParseManifest(strings.NewReader(tc.text), "M")
		var me *ManifestError
		if !errors.As(err, &me) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want a ManifestError containing %q", tc.text, err, tc.want)
		}
	}
}

func TestExpectRoundTrip(t *testing.T) {
	for _, s := range []string{"exit:0", "exit:7", "signal:11", "deadlock"} {
		e, err := parseExpect(s)
		if err != nil || e.String() != s {
			t.Errorf("%q: parsed %v (%v), prints %q", s, e, err, e.String())
		}
	}
	if _, ok := (Expect{Kind: ExpectDeadlock}).NativeStatus(); ok {
		t.Error("a deadlock has a native status")
	}
	if st, ok := (Expect{Kind: ExpectSignal, Code: 11}).NativeStatus(); !ok || st != 11 {
		t.Errorf("signal:11 native status %d %v, want 11", st, ok)
	}
}

func FuzzParseManifest(f *testing.F) {
	for _, path := range []string{"../../examples/apps/MANIFEST", "../../bgl/testdata/mpi/MANIFEST"} {
		if b, err := os.ReadFile(path); err == nil {
			f.Add(string(b))
		}
	}
	f.Add("a 1,2 x,y signal:9 run\n")
	f.Fuzz(func(t *testing.T, text string) {
		entries, err := ParseManifest(strings.NewReader(text), "fuzz")
		if err != nil {
			return
		}
		for _, e := range entries {
			if e.Name == "" || len(e.Ranks) == 0 || (e.Native && e.Expect.Kind == ExpectDeadlock) {
				t.Fatalf("accepted a bad entry %+v", e)
			}
		}
	})
}

func TestSplitLabeled(t *testing.T) {
	out := "[1] one\n[0] zero\n[1] two\n\n=== BAD TERMINATION ===\n[0] \n[12] too big\n[x] odd\n[0] last"
	lines, launcher := SplitLabeled(out, 2)
	want := [][]string{{"zero", "", "last"}, {"one", "two"}}
	if !reflect.DeepEqual(lines, want) {
		t.Errorf("lines %q, want %q", lines, want)
	}
	wantL := []string{"", "=== BAD TERMINATION ===", "[12] too big", "[x] odd"}
	if !reflect.DeepEqual(launcher, wantL) {
		t.Errorf("launcher %q, want %q", launcher, wantL)
	}
	if got := Canonical(7, lines); got != "exit 7\n[0] zero\n[0] \n[0] last\n[1] one\n[1] two\n" {
		t.Errorf("Canonical = %q", got)
	}
}
