package ranks

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

func TestOperationsMatchTwin(t *testing.T) {
	prop := func(c setCase) bool {
		a, b, _ := c.sets(t)
		ta, tb := newTwin(c.N, c.A), newTwin(c.N, c.B)
		binary := []struct {
			name string
			op   func(*Set, *Set) (*Set, error)
			keep func(r int) bool
		}{
			{"union", (*Set).Union, func(r int) bool { return ta.m[r] || tb.m[r] }},
			{"intersect", (*Set).Intersect, func(r int) bool { return ta.m[r] && tb.m[r] }},
			{"difference", (*Set).Difference, func(r int) bool { return ta.m[r] && !tb.m[r] }},
			{"symdiff", (*Set).SymDiff, func(r int) bool { return ta.m[r] != tb.m[r] }},
		}
		ok := true
		for _, op := range binary {
			got, err := op.op(a, b)
			if err != nil {
				t.Fatal(err)
			}
			ok = agrees(t, op.name, got, ta.with(op.keep)) && ok
		}
		ok = agrees(t, "complement", a.Complement(), ta.with(func(r int) bool { return !ta.m[r] })) && ok
		ok = agrees(t, "copy", a.Copy(), ta) && ok
		ok = a.Equal(b) == slices.Equal(ta.list(), tb.list()) && ok
		return agrees(t, "operand a unchanged", a, ta) && ok
	}
	if err := quick.Check(prop, quickConfig(t)); err != nil {
		t.Fatal(err)
	}
}

func TestInPlaceMatchTwin(t *testing.T) {
	prop := func(c setCase) bool {
		a, b, _ := c.sets(t)
		ta, tb := newTwin(c.N, c.A), newTwin(c.N, c.B)
		u := a.Copy()
		if err := u.AddSet(b); err != nil {
			t.Fatal(err)
		}
		d := a.Copy()
		if err := d.RemoveSet(b); err != nil {
			t.Fatal(err)
		}
		ok := agrees(t, "AddSet", u, ta.with(func(r int) bool { return ta.m[r] || tb.m[r] }))
		ok = agrees(t, "RemoveSet", d, ta.with(func(r int) bool { return ta.m[r] && !tb.m[r] })) && ok
		e := a.Copy()
		te := newTwin(c.N, c.A)
		for i, r := range c.B {
			if i%2 == 0 {
				ok = e.Add(r) == nil && ok
				te.m[r] = true
			} else {
				ok = e.Remove(r) == nil && ok
				delete(te.m, r)
			}
		}
		return agrees(t, "Add/Remove", e, te) && ok
	}
	if err := quick.Check(prop, quickConfig(t)); err != nil {
		t.Fatal(err)
	}
}

func TestNextAndRunsMatchTwin(t *testing.T) {
	prop := func(c setCase) bool {
		a, _, _ := c.sets(t)
		ta := newTwin(c.N, c.A)
		ok := true
		for r := -2; r <= c.N+1; r++ {
			want := -1
			for x := max(r, 0); x < c.N; x++ {
				if ta.m[x] {
					want = x
					break
				}
			}
			ok = ok && a.Next(r) == want
		}
		var fromRuns []int
		prevHi := -2
		for lo, hi := range a.Runs() {
			ok = ok && lo <= hi && lo > prevHi+1 && !ta.m[lo-1] && !ta.m[hi+1]
			for r := lo; r <= hi; r++ {
				fromRuns = append(fromRuns, r)
			}
			prevHi = hi
		}
		return slices.Equal(fromRuns, ta.list()) && ok
	}
	if err := quick.Check(prop, quickConfig(t)); err != nil {
		t.Fatal(err)
	}
}

func TestConstructorsMatchTwin(t *testing.T) {
	for _, n := range sizes {
		agrees(t, "None", None(n), newTwin(n, nil))
		agrees(t, "All", All(n), newTwin(n, nil).with(func(int) bool { return true }))
		for _, lo := range []int{0, 1, 63, 64, 65, n / 2, n - 1} {
			for _, hi := range []int{lo - 1, lo, lo + 1, 127, 128, n - 1} {
				if lo < 0 || lo >= n || hi >= n {
					continue
				}
				s, err := Range(n, lo, hi)
				if err != nil {
					t.Fatalf("Range(%d, %d, %d): %v", n, lo, hi, err)
				}
				agrees(t, "Range", s, newTwin(n, nil).with(func(r int) bool { return r >= lo && r <= hi }))
			}
		}
		if n > 0 {
			s, err := Single(n, n-1)
			if err != nil {
				t.Fatal(err)
			}
			agrees(t, "Single", s, newTwin(n, []int{n - 1}))
		}
	}
}

func TestSetLaws(t *testing.T) {
	must := func(s *Set, err error) *Set {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	prop := func(c setCase) bool {
		a, b, x := c.sets(t)
		laws := []struct {
			name        string
			left, right *Set
		}{
			{"double complement", a.Complement().Complement(), a},
			{"De Morgan ∪", must(a.Union(b)).Complement(), must(a.Complement().Intersect(b.Complement()))},
			{"De Morgan ∩", must(a.Intersect(b)).Complement(), must(a.Complement().Union(b.Complement()))},
			{"∩ distributes over ∪", must(a.Intersect(must(b.Union(x)))), must(must(a.Intersect(b)).Union(must(a.Intersect(x))))},
			{"∪ distributes over ∩", must(a.Union(must(b.Intersect(x)))), must(must(a.Union(b)).Intersect(must(a.Union(x))))},
			{"∪ commutes", must(a.Union(b)), must(b.Union(a))},
			{"∩ associates", must(must(a.Intersect(b)).Intersect(x)), must(a.Intersect(must(b.Intersect(x))))},
			{"difference is ∩ complement", must(a.Difference(b)), must(a.Intersect(b.Complement()))},
			{"symdiff is ∪ minus ∩", must(a.SymDiff(b)), must(must(a.Union(b)).Difference(must(a.Intersect(b))))},
			{"a ∪ ¬a is all", must(a.Union(a.Complement())), All(c.N)},
			{"a ∩ ¬a is none", must(a.Intersect(a.Complement())), None(c.N)},
			{"absorption", must(a.Union(must(a.Intersect(b)))), a},
		}
		ok := true
		for _, law := range laws {
			if !law.left.Equal(law.right) {
				t.Errorf("%s fails over %d: %v vs %v", law.name, c.N, law.left, law.right)
				ok = false
			}
		}
		return ok && a.Count()+a.Complement().Count() == c.N
	}
	if err := quick.Check(prop, quickConfig(t)); err != nil {
		t.Fatal(err)
	}
}
