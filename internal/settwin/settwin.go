// Package settwin is the naive model that tests check rank sets against: a map of
// members (Twin), random cases for testing/quick (Case) and a check of a set through
// every observer (Agrees). contexts and contexts/ranks test the same Set type with it;
// like every test helper under internal it imports no project package.
package settwin

import (
	"iter"
	"math/rand"
	"reflect"
	"slices"
	"testing"
	"testing/quick"
)

// Twin is a set of ranks in [0, N) as a map of members.
type Twin struct {
	N int
	M map[int]bool
}

// New is the twin of ranks over [0, n).
func New(n int, ranks []int) Twin {
	t := Twin{N: n, M: map[int]bool{}}
	for _, r := range ranks {
		t.M[r] = true
	}
	return t
}

// List is the members, ascending.
func (t Twin) List() []int {
	out := []int{}
	for r := range t.M {
		out = append(out, r)
	}
	slices.Sort(out)
	return out
}

// With is the twin of the ranks of [0, N) keep accepts.
func (t Twin) With(keep func(r int) bool) Twin {
	out := New(t.N, nil)
	for r := range t.N {
		if keep(r) {
			out.M[r] = true
		}
	}
	return out
}

// Sizes straddle word boundaries: multiples of 64 and their neighbours.
var Sizes = []int{0, 1, 2, 63, 64, 65, 127, 128, 129, 191, 192, 200, 255, 256, 1000, 4096, 4099}

// Case is a testing/quick value: a universe size and three random member lists with
// independently chosen densities (empty, sparse, half, dense, full all occur).
type Case struct {
	N       int
	A, B, C []int
}

// Generate implements quick.Generator.
func (Case) Generate(r *rand.Rand, _ int) reflect.Value {
	n := Sizes[r.Intn(len(Sizes))]
	members := func() []int {
		p := []float64{0, 0.02, 0.5, 0.97, 1}[r.Intn(5)]
		var out []int
		for i := range n {
			if r.Float64() < p {
				out = append(out, i)
			}
		}
		return out
	}
	return reflect.ValueOf(Case{N: n, A: members(), B: members(), C: members()})
}

// QuickConfig makes testing/quick deterministic: a fixed seed, so a failure reproduces.
func QuickConfig() *quick.Config {
	return &quick.Config{MaxCount: 400, Rand: rand.New(rand.NewSource(1))}
}

// Set is what Agrees observes of a set.
type Set interface {
	List() []int
	Count() int
	Size() int
	Empty() bool
	Ranks() iter.Seq[int]
	Contains(r int) bool
}

// Agrees checks a set against its twin through every observer.
func Agrees(t testing.TB, what string, s Set, tw Twin) bool {
	t.Helper()
	want := tw.List()
	got := s.List()
	ok := slices.Equal(got, want) && s.Count() == len(want) && s.Size() == tw.N &&
		s.Empty() == (len(want) == 0) && slices.Equal(slices.Collect(s.Ranks()), want)
	for r := -1; r <= tw.N; r++ {
		ok = ok && s.Contains(r) == tw.M[r]
	}
	if !ok {
		t.Errorf("%s over %d: got %v, want %v", what, tw.N, got, want)
	}
	return ok
}

// Sets makes the case's three sets with from (a package's FromList).
func Sets[S any](t testing.TB, c Case, from func(n int, list []int) (S, error)) (a, b, cc S) {
	t.Helper()
	var err error
	if a, err = from(c.N, c.A); err != nil {
		t.Fatal(err)
	}
	if b, err = from(c.N, c.B); err != nil {
		t.Fatal(err)
	}
	if cc, err = from(c.N, c.C); err != nil {
		t.Fatal(err)
	}
	return a, b, cc
}
