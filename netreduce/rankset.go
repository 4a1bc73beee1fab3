package netreduce

import "github.com/dpclsh/dpclsh/contexts/ranks"

// RankSet is a set of back-end ranks: the project's one rank-set type (package
// contexts/ranks, a leaf shared with probe contexts and the runtime).
type RankSet = ranks.Set

// NewRankSet returns the empty set over back-ends [0, n).
func NewRankSet(n int) *RankSet { return ranks.None(n) }

// FullRankSet returns every back-end of [0, n).
func FullRankSet(n int) *RankSet { return ranks.All(n) }

// RankSpec prints ascending ranks as ranges: "0-3,7,9-10"; "" when empty.
func RankSpec(list []int) string { return ranks.Spec(list) }

// ParseRankSpec reads "0-3,7,9-10" into a set over [0, n) (errors are *ranks.SpecError).
func ParseRankSpec(spec string, n int) (*RankSet, error) { return ranks.Parse(n, spec) }
