package netreduce

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var rewrite = flag.Bool("rewrite", false, "rewrite golden files under testdata/")

func TestGeneratorsShape(t *testing.T) {
	tests := []struct {
		spec           string
		backends, size int
		depth          int
		rootKids       int
	}{
		{"b:4^2", 16, 21, 2, 4},
		{"b:8^2", 64, 73, 2, 8},
		{"b:4^3", 64, 85, 3, 4},
		{"b:16", 16, 17, 1, 16},
		{"flat:5", 5, 6, 1, 5},
		{"b:2x3x4", 24, 33, 3, 2},
		{"k:2@16", 8, 16, 4, 4},
		{"k:3@9", 6, 9, 2, 4},
		{"g:3:2,0,1:1,1,1", 4, 10, 3, 3},
		{"bgl:256:64:2", 256, 256 + 4 + 2 + 1, 3, 2},
		{"bgl:65536:64:8", 65536, 65536 + 1024 + 128 + 16 + 2 + 1, 5, 2},
		{"bgl:100:64:8", 100, 100 + 2 + 1, 2, 2},
	}
	for _, tt := range tests {
		topo, err := Generate(tt.spec)
		if err != nil {
			t.Fatalf("%s: %v", tt.spec, err)
		}
		got := []int{topo.Backends(), topo.Size(), topo.Depth(), len(topo.Children(topo.Root()))}
		want := []int{tt.backends, tt.size, tt.depth, tt.rootKids}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: backends, size, depth, root fan-out = %v, want %v", tt.spec, got, want)
		}
		checkInvariants(t, tt.spec, topo)
	}
}

// checkInvariants: back-ends are 0..N-1 and leaves, the root is last, every subtree's
// back-ends are the contiguous range BackendRange says.
func checkInvariants(t *testing.T, name string, topo *Topology) {
	t.Helper()
	for r := 0; r < topo.Size(); r++ {
		leaf := len(topo.Children(r)) == 0
		if leaf != topo.IsBackend(r) {
			t.Fatalf("%s: rank %d leaf=%v backend=%v", name, r, leaf, topo.IsBackend(r))
		}
		if (topo.Parent(r) < 0) != (r == topo.Root()) {
			t.Fatalf("%s: rank %d parent %d", name, r, topo.Parent(r))
		}
		lo, hi := topo.BackendRange(r)
		for b := lo; b < hi; b++ {
			p := b
			for p != r && p >= 0 {
				p = topo.Parent(p)
			}
			if p != r {
				t.Fatalf("%s: back-end %d in range of %d but not below it", name, b, r)
			}
		}
	}
}

func TestBGLShapeGroupsByIONode(t *testing.T) {
	topo, _ := Generate("bgl:256:64:4")
	for r := 0; r < 256; r++ {
		io := topo.Parent(r)
		lo, hi := topo.BackendRange(io)
		if lo != r/64*64 || hi != lo+64 {
			t.Fatalf("rank %d: level-2 node serves %d-%d", r, lo, hi-1)
		}
	}
}

func TestParseErrorsNameTheLine(t *testing.T) {
	tests := []struct{ text, want string }{
		{"a:0 => b:1 ;\nb:1 => a:0 ;\n", "t:1: no root: every node has a parent (cycle)"},
		{"a:0 => b:1 ;\nc:2 => d:3 ;\n", "t:2: more than one root"},
		{"a:0 => a:0 ;\n", "t:1: a:0 is its own child"},
		{"# only a comment\n", "no statements"},
		{"a:0 => b:1\n", "t:1: statement not terminated"},
		{"a:0 -> b:1 ;\n", "t:1: want `host:N => child:N"},
		{"a:0 => b ;\n", `t:1: node "b" is not host:N`},
		{"a:0 => b:x ;\n", "t:1: node \"b:x\": N is not a number"},
		{"a:0 => b:1 ;\na:0 => c:2 ;\n", "t:2: a:0 has its children listed twice"},
		{"r:0 => a:1 ;\nb:2 => c:3 ;\nc:3 => b:2 ;\n", "t:2: b:2 is not reachable from the root r:0"},
		{"r:0 => a:1 ;\nx:5 => y:6 ;\ny:6 => z:7 ;\nz:7 => y:6 ;\n", "has two parents"},
	}
	for _, tt := range tests {
		_, err := ParseTopologyString("t", tt.text)
		var te *TopologyError
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want %q", tt.text, err, tt.want)
		} else if !errors.As(err, &te) {
			t.Errorf("%q: %T is not a *TopologyError", tt.text, err)
		}
	}
}

func TestParseCommentsAndMultiLineStatements(t *testing.T) {
	text := "# MRNet topology\nfe:0 => # the front-end\n  n:1\n  n:2 ;\nn:1 => be:3 be:4 ;   # leaves\nn:2 => be:5 ;\n"
	topo, err := ParseTopologyString("t", text)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"be:3", "be:4", "be:5", "n:1", "n:2", "fe:0"}
	for r, n := range want {
		if topo.Name(r) != n {
			t.Fatalf("rank %d is %s, want %s", r, topo.Name(r), n)
		}
	}
	if got := topo.Cover([]int{2}); !reflect.DeepEqual(got, []int{4}) {
		t.Fatalf("cover of {2} = %v", got)
	}
}

func TestCoverIsTheSmallestCoveringSubtree(t *testing.T) {
	topo, _ := Generate("b:4^3")
	tests := []struct {
		backends []int
		want     []int
	}{
		{[]int{0}, []int{64, 68}},
		{[]int{0, 1, 2, 3}, []int{64, 68}},
		{[]int{0, 63}, []int{64, 67, 68, 83}},
		{[]int{}, []int{}},
	}
	for _, tt := range tests {
		if got := topo.Cover(tt.backends); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("cover %v = %v, want %v", tt.backends, got, tt.want)
		}
	}
}

func TestGoldenFilesAndDOT(t *testing.T) {
	for _, spec := range []string{"b:2^2", "k:2@8", "bgl:8:4:2"} {
		topo, err := Generate(spec)
		if err != nil {
			t.Fatal(err)
		}
		var file, dot bytes.Buffer
		topo.WriteFile(&file)
		topo.WriteDOT(&dot)
		name := strings.NewReplacer(":", "_", "^", "p", "@", "at").Replace(spec)
		for ext, got := range map[string][]byte{".top": file.Bytes(), ".dot": dot.Bytes()} {
			path := filepath.Join("testdata", name+ext)
			if *rewrite {
				os.WriteFile(path, got, 0o644)
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -rewrite)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from %s:\n%s", spec, path, got)
			}
		}
		again, err := ParseTopologyString(spec, file.String())
		if err != nil || again.String() != topo.String() {
			t.Fatalf("%s: printed file does not parse back the same: %v", spec, err)
		}
	}
}

func TestGeneratorErrors(t *testing.T) {
	for _, spec := range []string{"b:0^2", "b:4^x", "k:1@8", "k:2", "g:2:1", "bgl:10:4", "z:3", "b4"} {
		if _, err := Generate(spec); err == nil {
			t.Errorf("%q accepted", spec)
		}
	}
}

func FuzzParseTopology(f *testing.F) {
	f.Add("fe:0 => a:1 b:2 ;\na:1 => c:3 ;\n")
	f.Add("a:0 => b:1 ;\nb:1 => a:0 ;\n")
	f.Add("# x\nh:1 =>\n h:2 ;")
	f.Fuzz(func(t *testing.T, text string) {
		topo, err := ParseTopologyString("fuzz", text)
		if err != nil {
			return
		}
		checkInvariants(t, "fuzz", topo)
		again, err := ParseTopologyString("again", topo.String())
		if err != nil || again.String() != topo.String() {
			t.Fatalf("printed form does not parse back the same: %v", err)
		}
	})
}
