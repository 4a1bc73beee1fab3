package contexts

import (
	"math/rand/v2"
	"testing"
)

func BenchmarkSample10(b *testing.B) {
	for _, n := range []int{65536, 1 << 20} {
		r := rand.New(rand.NewPCG(1, 2))
		x := None(n)
		for i := 0; i < n; i++ {
			if r.IntN(2) == 0 {
				x.Add(i)
			}
		}
		b.Run("", func(b *testing.B) {
			for b.Loop() {
				if _, err := x.Sample(10, 42); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
