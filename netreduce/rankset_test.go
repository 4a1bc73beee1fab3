package netreduce

import (
	"math/rand"
	"testing"
)

// TestRankSetAnyInAgreesWithContains checks the word-at-a-time AnyIn against Contains
// rank by rank, over random sets and ranges that also reach outside [0, n).
func TestRankSetAnyInAgreesWithContains(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 2000; i++ {
		n := 1 + rng.Intn(300)
		s := NewRankSet(n)
		for k := rng.Intn(4); k > 0; k-- {
			s.Add(rng.Intn(n))
		}
		lo, hi := rng.Intn(n+5)-2, rng.Intn(n+5)-2
		want := false
		for r := lo; r < hi; r++ {
			if s.Contains(r) {
				want = true
			}
		}
		if got := s.AnyIn(lo, hi); got != want {
			t.Fatalf("n %d %v AnyIn(%d,%d) = %v", n, s.List(), lo, hi, got)
		}
	}
}
