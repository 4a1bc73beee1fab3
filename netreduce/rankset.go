package netreduce

// RankSet is a set of back-end ranks [0, n): a bitmap. The tree keeps its own small set
// type because DESIGN.md section 1 keeps netreduce on the standard library alone; the
// project's full rank-set vocabulary (specs, algebra, samples) is contexts/ranks, and its
// callers convert with RankSetOf.
type RankSet struct {
	n     int
	words []uint64
}

// NewRankSet returns the empty set over back-ends [0, n).
func NewRankSet(n int) *RankSet { return &RankSet{n: n, words: make([]uint64, (n+63)/64)} }

// RankSetOf returns the set of the listed back-ends over [0, n); a rank outside is an error.
func RankSetOf(n int, list []int) (*RankSet, error) {
	s := NewRankSet(n)
	for _, r := range list {
		if err := s.Add(r); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Size is n, the number of back-ends the set ranges over.
func (s *RankSet) Size() int { return s.n }

// Add puts back-end r in the set.
func (s *RankSet) Add(r int) error {
	if r < 0 || r >= s.n {
		return errorf("back-end %d outside 0-%d", r, s.n-1)
	}
	s.words[r>>6] |= 1 << (uint(r) & 63)
	return nil
}

// Contains reports whether back-end r is in the set.
func (s *RankSet) Contains(r int) bool {
	return r >= 0 && r < s.n && s.words[r>>6]&(1<<(uint(r)&63)) != 0
}

// Count is the number of members.
func (s *RankSet) Count() int {
	c := 0
	for _, w := range s.words {
		for ; w != 0; w &= w - 1 {
			c++
		}
	}
	return c
}

// List returns the members in ascending order.
func (s *RankSet) List() []int {
	out := make([]int, 0, s.Count())
	for r := 0; r < s.n; r++ {
		if s.Contains(r) {
			out = append(out, r)
		}
	}
	return out
}

// AnyIn reports whether some back-end in [lo, hi) is a member, a word at a time: it is
// asked for every subtree a packet may go down.
func (s *RankSet) AnyIn(lo, hi int) bool {
	lo, hi = max(lo, 0), min(hi, s.n)
	if lo >= hi {
		return false
	}
	first, last := lo>>6, (hi-1)>>6
	for w := first; w <= last; w++ {
		m := s.words[w]
		if w == first {
			m &= ^uint64(0) << (uint(lo) & 63)
		}
		if w == last {
			m &= ^uint64(0) >> (63 - uint(hi-1)&63)
		}
		if m != 0 {
			return true
		}
	}
	return false
}

// runs returns the members as [start, end) ranges in ascending order: the wire form.
func (s *RankSet) runs() [][2]int {
	var out [][2]int
	for r := 0; r < s.n; r++ {
		if !s.Contains(r) {
			continue
		}
		start := r
		for r < s.n && s.Contains(r) {
			r++
		}
		out = append(out, [2]int{start, r})
	}
	return out
}
