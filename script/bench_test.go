package script

import (
	"bytes"
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"
)

const benchLoop = "local s = 0 for i = 1, 100000 do s = s + i % 7 end return s"

// BenchmarkLoopSession measures a pure-Lua loop in a session, whose state always has a
// context (checked before every instruction) so Ctrl-C and os.exit can stop it.
func BenchmarkLoopSession(b *testing.B) {
	s, err := NewSessionWith(Options{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	fn, err := s.Load(benchLoop, "bench.lua")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := s.Call(fn); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoopPlainState is the same loop in a bare gopher-lua state without a context,
// the baseline for the cost of interruptibility.
func BenchmarkLoopPlainState(b *testing.B) {
	L := lua.NewState()
	defer L.Close()
	fn, err := L.Load(strings.NewReader(benchLoop), "bench.lua")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		L.Push(fn)
		if err := L.PCall(0, 1, nil); err != nil {
			b.Fatal(err)
		}
		L.Pop(1)
	}
}

func FuzzComplete(f *testing.F) {
	for _, s := range []string{"string.fo", "a.b:c", "::", "x.", ".", "1.2.", "obj:si", "_G._G._G.str"} {
		f.Add(s)
	}
	s, err := NewSessionWith(Options{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		partial, words := s.Complete(text)
		if !strings.HasSuffix(text, partial) {
			t.Fatalf("Complete(%q): partial %q is not the end of the text", text, partial)
		}
		for _, w := range words {
			if !strings.HasPrefix(w, partial) {
				t.Fatalf("Complete(%q): %q does not extend %q", text, w, partial)
			}
		}
	})
}
