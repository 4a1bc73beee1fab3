package ctx

import (
	"github.com/dpclsh/dpclsh/script"
	"io"
	"testing"

	lua "github.com/yuin/gopher-lua"
)

// BenchmarkCtxWhereLua measures ctx.where over 65,536 ranks calling a Lua predicate once
// per rank; ns/op is for the whole scan (divide by 65,536 for the cost of one call).
func BenchmarkCtxWhereLua(b *testing.B) {
	s, err := script.NewSessionWith(script.Options{Stdout: io.Discard, Stderr: io.Discard})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	fn, err := s.Load(`return #ctx.where(65536, function(r) return r % 64 == 0 end)`, "bench.lua")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		out, err := s.Call(fn)
		if err != nil {
			b.Fatal(err)
		}
		if out[0] != lua.LNumber(1024) {
			b.Fatalf("ctx.where selected %v ranks, want 1024", out[0])
		}
	}
}
