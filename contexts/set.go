package contexts

import "github.com/dpclsh/dpclsh/contexts/ranks"

// Set is a set of ranks: dpclsh's one rank-set type, defined in the leaf package ranks
// (which the reduction tree uses too) and named here for the context algebra.
type Set = ranks.Set

// The errors of sets and rank specs (see package ranks).
type (
	SizeError     = ranks.SizeError
	RankError     = ranks.RankError
	MismatchError = ranks.MismatchError
	SpecError     = ranks.SpecError
)

// MaxSize is the largest universe a Set may have.
const MaxSize = ranks.MaxSize

// CheckSize returns a *SizeError when n cannot be the size of a Set.
func CheckSize(n int) error { return ranks.CheckSize(n) }

// None returns the empty set over [0, n); it panics when CheckSize(n) fails.
func None(n int) *Set { return ranks.None(n) }

// All returns the full set over [0, n); it panics when CheckSize(n) fails.
func All(n int) *Set { return ranks.All(n) }

// Single returns {r} over [0, n).
func Single(n, r int) (*Set, error) { return ranks.Single(n, r) }

// Range returns {lo..hi} over [0, n).
func Range(n, lo, hi int) (*Set, error) { return ranks.Range(n, lo, hi) }

// FromList returns the set of the listed ranks over [0, n).
func FromList(n int, list []int) (*Set, error) { return ranks.FromList(n, list) }

// Parse reads a compact rank spec ("0-127,200") over [0, n).
func Parse(n int, spec string) (*Set, error) { return ranks.Parse(n, spec) }
