package netreduce

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// RankSet is a set of back-end ranks in [0, n), as a bitset.
type RankSet struct {
	n     int
	words []uint64
}

// NewRankSet returns an empty set over [0, n).
func NewRankSet(n int) *RankSet {
	return &RankSet{n: n, words: make([]uint64, (n+63)/64)}
}

// FullRankSet returns the set of every rank in [0, n).
func FullRankSet(n int) *RankSet {
	s := NewRankSet(n)
	for i := 0; i < n; i++ {
		s.Add(i)
	}
	return s
}

// Universe is n: ranks are in [0, n).
func (s *RankSet) Universe() int { return s.n }

// Add puts r in the set; r must be in range.
func (s *RankSet) Add(r int) { s.words[r>>6] |= 1 << (r & 63) }

// Contains tells whether r is in the set.
func (s *RankSet) Contains(r int) bool {
	return r >= 0 && r < s.n && s.words[r>>6]&(1<<(r&63)) != 0
}

// Len is the number of members.
func (s *RankSet) Len() int {
	c := 0
	for _, w := range s.words {
		c += bits.OnesCount64(w)
	}
	return c
}

// AnyIn tells whether some member lies in [lo, hi).
func (s *RankSet) AnyIn(lo, hi int) bool {
	for r := lo; r < hi; {
		w := s.words[r>>6] >> (r & 63)
		if w != 0 {
			return r+bits.TrailingZeros64(w) < hi
		}
		r = (r | 63) + 1
	}
	return false
}

// List returns the members in ascending order.
func (s *RankSet) List() []int {
	out := make([]int, 0, s.Len())
	for wi, w := range s.words {
		for w != 0 {
			out = append(out, wi*64+bits.TrailingZeros64(w))
			w &= w - 1
		}
	}
	return out
}

// String is the compact spec, e.g. "0-3,7,9-10".
func (s *RankSet) String() string { return RankSpec(s.List()) }

// RankSpec prints ascending ranks as ranges: "0-3,7,9-10"; "" when empty.
func RankSpec(ranks []int) string {
	var b strings.Builder
	for i := 0; i < len(ranks); {
		j := i
		for j+1 < len(ranks) && ranks[j+1] == ranks[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(ranks[i]))
		if j > i {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(ranks[j]))
		}
		i = j + 1
	}
	return b.String()
}

// ParseRankSpec reads "0-3,7,9-10" into a set over [0, n).
func ParseRankSpec(spec string, n int) (*RankSet, error) {
	s := NewRankSet(n)
	if strings.TrimSpace(spec) == "" {
		return s, nil
	}
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		a, b, isRange := strings.Cut(part, "-")
		lo, err1 := strconv.Atoi(strings.TrimSpace(a))
		hi, err2 := lo, error(nil)
		if isRange {
			hi, err2 = strconv.Atoi(strings.TrimSpace(b))
		}
		if err1 != nil || err2 != nil || lo > hi {
			return nil, fmt.Errorf("netreduce: rank spec %q: bad range %q", spec, part)
		}
		if lo < 0 || hi >= n {
			return nil, fmt.Errorf("netreduce: rank spec %q: %q outside 0-%d", spec, part, n-1)
		}
		for r := lo; r <= hi; r++ {
			s.Add(r)
		}
	}
	return s, nil
}
