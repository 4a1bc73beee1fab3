package ranks

import (
	"slices"
	"testing"
	"testing/quick"

	"github.com/dpclsh/dpclsh/internal/settwin"
)

// The naive model sets are checked against is shared with the other rank-set package's
// tests (internal/settwin).
type (
	twin    = settwin.Twin
	setCase = settwin.Case
)

var (
	newTwin = settwin.New
	sizes   = settwin.Sizes
	agrees  = settwin.Agrees
)

func quickConfig(*testing.T) *quick.Config { return settwin.QuickConfig() }

// sets makes the case's three sets.
func sets(t *testing.T, c setCase) (a, b, cc *Set) { return settwin.Sets(t, c, FromList) }

func TestOperationsMatchTwin(t *testing.T) {
	prop := func(c setCase) bool {
		a, b, _ := sets(t, c)
		ta, tb := newTwin(c.N, c.A), newTwin(c.N, c.B)
		binary := []struct {
			name string
			op   func(*Set, *Set) (*Set, error)
			keep func(r int) bool
		}{
			{"union", (*Set).Union, func(r int) bool { return ta.M[r] || tb.M[r] }},
			{"intersect", (*Set).Intersect, func(r int) bool { return ta.M[r] && tb.M[r] }},
			{"difference", (*Set).Difference, func(r int) bool { return ta.M[r] && !tb.M[r] }},
			{"symdiff", (*Set).SymDiff, func(r int) bool { return ta.M[r] != tb.M[r] }},
		}
		ok := true
		for _, op := range binary {
			got, err := op.op(a, b)
			if err != nil {
				t.Fatal(err)
			}
			ok = agrees(t, op.name, got, ta.With(op.keep)) && ok
		}
		ok = agrees(t, "complement", a.Complement(), ta.With(func(r int) bool { return !ta.M[r] })) && ok
		ok = agrees(t, "copy", a.Copy(), ta) && ok
		ok = a.Equal(b) == slices.Equal(ta.List(), tb.List()) && ok
		return agrees(t, "operand a unchanged", a, ta) && ok
	}
	if err := quick.Check(prop, quickConfig(t)); err != nil {
		t.Fatal(err)
	}
}

func TestInPlaceMatchTwin(t *testing.T) {
	prop := func(c setCase) bool {
		a, b, _ := sets(t, c)
		ta, tb := newTwin(c.N, c.A), newTwin(c.N, c.B)
		u := a.Copy()
		if err := u.AddSet(b); err != nil {
			t.Fatal(err)
		}
		d := a.Copy()
		if err := d.RemoveSet(b); err != nil {
			t.Fatal(err)
		}
		ok := agrees(t, "AddSet", u, ta.With(func(r int) bool { return ta.M[r] || tb.M[r] }))
		ok = agrees(t, "RemoveSet", d, ta.With(func(r int) bool { return ta.M[r] && !tb.M[r] })) && ok
		e := a.Copy()
		te := newTwin(c.N, c.A)
		for i, r := range c.B {
			if i%2 == 0 {
				ok = e.Add(r) == nil && ok
				te.M[r] = true
			} else {
				ok = e.Remove(r) == nil && ok
				delete(te.M, r)
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
		a, _, _ := sets(t, c)
		ta := newTwin(c.N, c.A)
		ok := true
		for r := -2; r <= c.N+1; r++ {
			want := -1
			for x := max(r, 0); x < c.N; x++ {
				if ta.M[x] {
					want = x
					break
				}
			}
			ok = ok && a.Next(r) == want
		}
		var fromRuns []int
		prevHi := -2
		for lo, hi := range a.Runs() {
			ok = ok && lo <= hi && lo > prevHi+1 && !ta.M[lo-1] && !ta.M[hi+1]
			for r := lo; r <= hi; r++ {
				fromRuns = append(fromRuns, r)
			}
			prevHi = hi
		}
		return slices.Equal(fromRuns, ta.List()) && ok
	}
	if err := quick.Check(prop, quickConfig(t)); err != nil {
		t.Fatal(err)
	}
}

func TestConstructorsMatchTwin(t *testing.T) {
	for _, n := range sizes {
		agrees(t, "None", None(n), newTwin(n, nil))
		agrees(t, "All", All(n), newTwin(n, nil).With(func(int) bool { return true }))
		for _, lo := range []int{0, 1, 63, 64, 65, n / 2, n - 1} {
			for _, hi := range []int{lo - 1, lo, lo + 1, 127, 128, n - 1} {
				if lo < 0 || lo >= n || hi >= n {
					continue
				}
				s, err := Range(n, lo, hi)
				if err != nil {
					t.Fatalf("Range(%d, %d, %d): %v", n, lo, hi, err)
				}
				agrees(t, "Range", s, newTwin(n, nil).With(func(r int) bool { return r >= lo && r <= hi }))
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
		a, b, x := sets(t, c)
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
