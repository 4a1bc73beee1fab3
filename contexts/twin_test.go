package contexts

import (
	"math/rand"
	"reflect"
	"slices"
	"testing"
	"testing/quick"
)

// twin is the naive model every Set operation is checked against: a map of members.
type twin struct {
	n int
	m map[int]bool
}

func newTwin(n int, ranks []int) twin {
	t := twin{n: n, m: map[int]bool{}}
	for _, r := range ranks {
		t.m[r] = true
	}
	return t
}

func (t twin) list() []int {
	out := []int{}
	for r := range t.m {
		out = append(out, r)
	}
	slices.Sort(out)
	return out
}

func (t twin) with(keep func(r int) bool) twin {
	out := newTwin(t.n, nil)
	for r := range t.n {
		if keep(r) {
			out.m[r] = true
		}
	}
	return out
}

// sizes straddle word boundaries: multiples of 64 and their neighbours.
var sizes = []int{0, 1, 2, 63, 64, 65, 127, 128, 129, 191, 192, 200, 255, 256, 1000, 4096, 4099}

// setCase is a testing/quick value: a universe size and three random member lists with
// independently chosen densities (empty, sparse, half, dense, full all occur).
type setCase struct {
	N       int
	A, B, C []int
}

func (setCase) Generate(r *rand.Rand, _ int) reflect.Value {
	n := sizes[r.Intn(len(sizes))]
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
	return reflect.ValueOf(setCase{N: n, A: members(), B: members(), C: members()})
}

func (c setCase) sets(t *testing.T) (a, b, cc *Set) {
	t.Helper()
	var err error
	if a, err = FromList(c.N, c.A); err != nil {
		t.Fatal(err)
	}
	if b, err = FromList(c.N, c.B); err != nil {
		t.Fatal(err)
	}
	if cc, err = FromList(c.N, c.C); err != nil {
		t.Fatal(err)
	}
	return a, b, cc
}

// quickConfig makes testing/quick deterministic: a fixed seed, so a failure reproduces.
func quickConfig(t *testing.T) *quick.Config {
	t.Helper()
	return &quick.Config{MaxCount: 400, Rand: rand.New(rand.NewSource(1))}
}

// agrees checks a Set against its twin through every observer.
func agrees(t *testing.T, what string, s *Set, tw twin) bool {
	t.Helper()
	want := tw.list()
	got := s.List()
	ok := slices.Equal(got, want) && s.Count() == len(want) && s.Size() == tw.n &&
		s.Empty() == (len(want) == 0) && slices.Equal(slices.Collect(s.Ranks()), want)
	for r := -1; r <= tw.n; r++ {
		ok = ok && s.Contains(r) == tw.m[r]
	}
	if !ok {
		t.Errorf("%s over %d: got %v, want %v", what, tw.n, got, want)
	}
	return ok
}
