package probes

import (
	"fmt"
	"testing"
)

// buildChain builds x = ((((0 + 1) + 1) ...) + 1) of n additions the way the Lua binding
// does, checking every new node as it is made, and returns how many nodes were checked
// from scratch in all.
func buildChain(n int) (*Exp, int) {
	e := IntConst(0)
	visited := 0
	for range n {
		e = Binary(KAdd, e, IntConst(1))
		c := &checker{}
		if _, err := c.check(e); err != nil {
			panic(err)
		}
		visited += c.visited
	}
	return e, visited
}

// TestBuildIsLinear: building a tree one checked node at a time checks each node once
// (it was quadratic: 8,000 nodes took 10 s, 100,000 more than 300 s).
func TestBuildIsLinear(t *testing.T) {
	const n = 100_000
	e, visited := buildChain(n)
	if visited > 2*n+1 {
		t.Fatalf("building %d nodes checked %d nodes: not linear", n, visited)
	}
	if got, err := Eval(e, &goEnv{}); err != nil || got.I != n {
		t.Fatalf("the chain evaluates to %d, want %d", got.I, n)
	}
}

// BenchmarkBuildChain builds chains of 8,000 and 100,000 checked nodes.
func BenchmarkBuildChain(b *testing.B) {
	for _, n := range []int{8_000, 100_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				buildChain(n)
			}
		})
	}
}
