package dpcl

import (
	"fmt"
	"testing"

	"github.com/dpclsh/dpclsh/script"
)

// BenchmarkProbeBuildLua builds a chain of n additions from Lua (e = e + 1, n times), each
// constructor type-checking its new node: linear in n since nodes keep their checked type.
func BenchmarkProbeBuildLua(b *testing.B) {
	for _, n := range []int{8_000, 100_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			s, err := script.NewSessionWith(script.Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			fn, err := s.Load(fmt.Sprintf("local e = probe.int(0) for i = 1, %d do e = e + 1 end return e:type()", n), "chain.lua")
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := s.Call(fn); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
