package ranks

import (
	"fmt"
	"iter"
	"math/bits"
)

// MaxSize is the largest universe a Set may have: 16,777,216 ranks, a 2 MiB bitset. It is
// far above a full BG/L (65,536 nodes) and only guards against absurd sizes from scripts.
const MaxSize = 1 << 24

// Set is a set of ranks in [0, Size()). It is a plain bitset: bit r of word r/64 is rank r;
// bits at and beyond Size() in the last word are always zero, so word-wise operations,
// counts and equality need no masking except in Complement.
//
// A Set is not safe for concurrent mutation; operations that return a *Set allocate a new one.
type Set struct {
	n     int
	words []uint64
}

// SizeError reports a universe size outside [0, MaxSize].
type SizeError struct{ Size int }

// Unprefixed is the error's text without "ranks: "; Error adds it.
func (e *SizeError) Unprefixed() string {
	return fmt.Sprintf("bad size %d: must be in [0, %d]", e.Size, MaxSize)
}

func (e *SizeError) Error() string { return "ranks: " + e.Unprefixed() }

// Package is the name the error's text starts with.
func (e *SizeError) Package() string { return "ranks" }

// RankError reports a rank outside [0, Size).
type RankError struct{ Rank, Size int }

// Unprefixed is the error's text without "ranks: "; Error adds it.
func (e *RankError) Unprefixed() string {
	return fmt.Sprintf("rank %d out of range [0, %d)", e.Rank, e.Size)
}

func (e *RankError) Error() string { return "ranks: " + e.Unprefixed() }

// Package is the name the error's text starts with.
func (e *RankError) Package() string { return "ranks" }

// MismatchError reports an operation combining sets over different universes.
type MismatchError struct{ Left, Right int }

// Unprefixed is the error's text without "ranks: "; Error adds it.
func (e *MismatchError) Unprefixed() string {
	return fmt.Sprintf("cannot combine sets of different sizes: %d and %d", e.Left, e.Right)
}

func (e *MismatchError) Error() string { return "ranks: " + e.Unprefixed() }

// Package is the name the error's text starts with.
func (e *MismatchError) Package() string { return "ranks" }

// CheckSize returns a *SizeError when n cannot be the size of a Set. Call it on sizes that
// come from users before None or All, which panic on a bad size.
func CheckSize(n int) error {
	if n < 0 || n > MaxSize {
		return &SizeError{Size: n}
	}
	return nil
}

// None returns the empty set over [0, n). It panics when CheckSize(n) fails.
func None(n int) *Set {
	if err := CheckSize(n); err != nil {
		panic(err)
	}
	return &Set{n: n, words: make([]uint64, (n+63)/64)}
}

// All returns the full set [0, n). It panics when CheckSize(n) fails.
func All(n int) *Set {
	s := None(n)
	for i := range s.words {
		s.words[i] = ^uint64(0)
	}
	s.trim()
	return s
}

// Single returns {r} over [0, n).
func Single(n, r int) (*Set, error) {
	if err := CheckSize(n); err != nil {
		return nil, err
	}
	s := None(n)
	return s, s.Add(r)
}

// Range returns the ranks lo through hi inclusive over [0, n); lo > hi gives the empty set.
func Range(n, lo, hi int) (*Set, error) {
	if err := CheckSize(n); err != nil {
		return nil, err
	}
	s := None(n)
	if lo > hi {
		return s, nil
	}
	if err := s.checkRank(lo); err != nil {
		return nil, err
	}
	if err := s.checkRank(hi); err != nil {
		return nil, err
	}
	s.addRange(lo, hi)
	return s, nil
}

// FromList returns the set of the given ranks over [0, n); duplicates are allowed.
func FromList(n int, ranks []int) (*Set, error) {
	if err := CheckSize(n); err != nil {
		return nil, err
	}
	s := None(n)
	for _, r := range ranks {
		if err := s.Add(r); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Size is the size of the universe, not the number of members (see Count).
func (s *Set) Size() int { return s.n }

// Count is the number of members.
func (s *Set) Count() int {
	c := 0
	for _, w := range s.words {
		c += bits.OnesCount64(w)
	}
	return c
}

// Empty reports whether the set has no member.
func (s *Set) Empty() bool {
	for _, w := range s.words {
		if w != 0 {
			return false
		}
	}
	return true
}

// Contains reports whether r is a member; ranks outside the universe are never members.
func (s *Set) Contains(r int) bool {
	return r >= 0 && r < s.n && s.words[r>>6]&(1<<(uint(r)&63)) != 0
}

// Add adds rank r.
func (s *Set) Add(r int) error {
	if err := s.checkRank(r); err != nil {
		return err
	}
	s.words[r>>6] |= 1 << (uint(r) & 63)
	return nil
}

// Remove removes rank r; removing a non-member is not an error.
func (s *Set) Remove(r int) error {
	if err := s.checkRank(r); err != nil {
		return err
	}
	s.words[r>>6] &^= 1 << (uint(r) & 63)
	return nil
}

// AddSet adds every member of o (in-place union).
func (s *Set) AddSet(o *Set) error {
	if err := s.checkSame(o); err != nil {
		return err
	}
	for i, w := range o.words {
		s.words[i] |= w
	}
	return nil
}

// RemoveSet removes every member of o (in-place difference).
func (s *Set) RemoveSet(o *Set) error {
	if err := s.checkSame(o); err != nil {
		return err
	}
	for i, w := range o.words {
		s.words[i] &^= w
	}
	return nil
}

// Copy returns an independent copy.
func (s *Set) Copy() *Set {
	return &Set{n: s.n, words: append([]uint64(nil), s.words...)}
}

// Equal reports whether s and o have the same universe and the same members.
func (s *Set) Equal(o *Set) bool {
	if s.n != o.n {
		return false
	}
	for i, w := range s.words {
		if o.words[i] != w {
			return false
		}
	}
	return true
}

// Union returns s ∪ o (the paper's merge).
func (s *Set) Union(o *Set) (*Set, error) {
	if err := s.checkSame(o); err != nil {
		return nil, err
	}
	r := &Set{n: s.n, words: make([]uint64, len(s.words))}
	x, y := s.words, o.words[:len(s.words)]
	for i := range r.words {
		r.words[i] = x[i] | y[i]
	}
	return r, nil
}

// Intersect returns s ∩ o.
func (s *Set) Intersect(o *Set) (*Set, error) {
	if err := s.checkSame(o); err != nil {
		return nil, err
	}
	r := &Set{n: s.n, words: make([]uint64, len(s.words))}
	x, y := s.words, o.words[:len(s.words)]
	for i := range r.words {
		r.words[i] = x[i] & y[i]
	}
	return r, nil
}

// Difference returns s \ o.
func (s *Set) Difference(o *Set) (*Set, error) {
	if err := s.checkSame(o); err != nil {
		return nil, err
	}
	r := &Set{n: s.n, words: make([]uint64, len(s.words))}
	x, y := s.words, o.words[:len(s.words)]
	for i := range r.words {
		r.words[i] = x[i] &^ y[i]
	}
	return r, nil
}

// SymDiff returns the ranks in exactly one of s and o.
func (s *Set) SymDiff(o *Set) (*Set, error) {
	if err := s.checkSame(o); err != nil {
		return nil, err
	}
	r := &Set{n: s.n, words: make([]uint64, len(s.words))}
	x, y := s.words, o.words[:len(s.words)]
	for i := range r.words {
		r.words[i] = x[i] ^ y[i]
	}
	return r, nil
}

// Complement returns [0, Size()) \ s (the paper's invert).
func (s *Set) Complement() *Set {
	r := &Set{n: s.n, words: make([]uint64, len(s.words))}
	for i, w := range s.words {
		r.words[i] = ^w
	}
	r.trim()
	return r
}

// Next returns the smallest member ≥ r, or -1 when there is none.
func (s *Set) Next(r int) int {
	if r < 0 {
		r = 0
	}
	if r >= s.n {
		return -1
	}
	i := r >> 6
	if w := s.words[i] >> (uint(r) & 63); w != 0 {
		return r + bits.TrailingZeros64(w)
	}
	for i++; i < len(s.words); i++ {
		if w := s.words[i]; w != 0 {
			return i<<6 + bits.TrailingZeros64(w)
		}
	}
	return -1
}

// nextAbsent returns the smallest non-member ≥ r, or Size() when every rank from r is a member.
func (s *Set) nextAbsent(r int) int {
	if r >= s.n {
		return s.n
	}
	i := r >> 6
	if w := ^s.words[i] >> (uint(r) & 63); w != 0 {
		return min(r+bits.TrailingZeros64(w), s.n)
	}
	for i++; i < len(s.words); i++ {
		if w := ^s.words[i]; w != 0 {
			return min(i<<6+bits.TrailingZeros64(w), s.n)
		}
	}
	return s.n
}

// Ranks yields the members in increasing order. The set must not change during iteration.
func (s *Set) Ranks() iter.Seq[int] {
	return func(yield func(int) bool) {
		for i, w := range s.words {
			for w != 0 {
				if !yield(i<<6 + bits.TrailingZeros64(w)) {
					return
				}
				w &= w - 1
			}
		}
	}
}

// Runs yields maximal runs of consecutive members as inclusive [lo, hi] pairs, in order.
func (s *Set) Runs() iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		for lo := s.Next(0); lo >= 0; {
			end := s.nextAbsent(lo)
			if !yield(lo, end-1) {
				return
			}
			lo = s.Next(end)
		}
	}
}

// List returns the members in increasing order.
func (s *Set) List() []int {
	out := make([]int, 0, s.Count())
	for r := range s.Ranks() {
		out = append(out, r)
	}
	return out
}

func (s *Set) checkRank(r int) error {
	if r < 0 || r >= s.n {
		return &RankError{Rank: r, Size: s.n}
	}
	return nil
}

func (s *Set) checkSame(o *Set) error {
	if s.n != o.n {
		return &MismatchError{Left: s.n, Right: o.n}
	}
	return nil
}

// AddRange adds ranks lo..hi inclusive; nothing when hi < lo.
func (s *Set) AddRange(lo, hi int) error {
	if hi < lo {
		return nil
	}
	if err := s.checkRank(lo); err != nil {
		return err
	}
	if err := s.checkRank(hi); err != nil {
		return err
	}
	s.addRange(lo, hi)
	return nil
}

// AnyIn reports whether some rank in [lo, hi) is a member.
func (s *Set) AnyIn(lo, hi int) bool {
	lo, hi = max(lo, 0), min(hi, s.n)
	if lo >= hi {
		return false
	}
	n := s.Next(lo)
	return n >= 0 && n < hi
}

// addRange sets ranks lo..hi inclusive; the caller has checked 0 ≤ lo ≤ hi < n.
func (s *Set) addRange(lo, hi int) {
	first, last := lo>>6, hi>>6
	loMask := ^uint64(0) << (uint(lo) & 63)
	hiMask := ^uint64(0) >> (63 - uint(hi)&63)
	if first == last {
		s.words[first] |= loMask & hiMask
		return
	}
	s.words[first] |= loMask
	for i := first + 1; i < last; i++ {
		s.words[i] = ^uint64(0)
	}
	s.words[last] |= hiMask
}

// trim clears the bits at and beyond n in the last word.
func (s *Set) trim() {
	if rem := uint(s.n) & 63; rem != 0 {
		s.words[len(s.words)-1] &= 1<<rem - 1
	}
}
