package ranks

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

var benchSizes = []int{65536, 1 << 20}

// benchPair returns two half-full random sets over [0, n).
func benchPair(n int) (*Set, *Set) {
	r := rand.New(rand.NewPCG(1, 2))
	a, b := None(n), None(n)
	for i := range a.words {
		a.words[i], b.words[i] = r.Uint64(), r.Uint64()
	}
	a.trim()
	b.trim()
	return a, b
}

func benchEach(b *testing.B, fn func(b *testing.B, x, y *Set)) {
	for _, n := range benchSizes {
		x, y := benchPair(n)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			fn(b, x, y)
		})
	}
}

func BenchmarkUnion(b *testing.B) {
	benchEach(b, func(b *testing.B, x, y *Set) {
		for b.Loop() {
			if _, err := x.Union(y); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkIntersect(b *testing.B) {
	benchEach(b, func(b *testing.B, x, y *Set) {
		for b.Loop() {
			if _, err := x.Intersect(y); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkAddSetInPlace(b *testing.B) {
	benchEach(b, func(b *testing.B, x, y *Set) {
		z := x.Copy()
		for b.Loop() {
			if err := z.AddSet(y); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkCount(b *testing.B) {
	benchEach(b, func(b *testing.B, x, _ *Set) {
		for b.Loop() {
			if x.Count() == 0 {
				b.Fatal("empty")
			}
		}
	})
}

// BenchmarkIterate visits every member of a half-full set (n/2 ranks per op).
func BenchmarkIterate(b *testing.B) {
	benchEach(b, func(b *testing.B, x, _ *Set) {
		for b.Loop() {
			sum := 0
			for r := range x.Ranks() {
				sum += r
			}
			if sum == 0 {
				b.Fatal("empty")
			}
		}
	})
}

func BenchmarkString(b *testing.B) {
	benchEach(b, func(b *testing.B, x, _ *Set) {
		for b.Loop() {
			if x.String() == "" {
				b.Fatal("empty")
			}
		}
	})
}

// BenchmarkUnionNaiveMap is the map-of-members twin doing the same union at 65,536 ranks:
// the yardstick the bitset is measured against.
func BenchmarkUnionNaiveMap(b *testing.B) {
	x, y := benchPair(65536)
	tx, ty := newTwin(x.n, x.List()), newTwin(y.n, y.List())
	b.ReportAllocs()
	for b.Loop() {
		u := make(map[int]bool, len(tx.M))
		for r := range tx.M {
			u[r] = true
		}
		for r := range ty.M {
			u[r] = true
		}
		if len(u) == 0 {
			b.Fatal("empty")
		}
	}
}
