package ranks

import (
	"math"
	"math/bits"
	"math/rand/v2"
)

// samplePCGStream is the fixed PCG increment paired with the user's seed. Changing it would
// change every sample ever drawn, so it is a constant, not a parameter.
const samplePCGStream = 0x6470636c73616d70 // "dpclsamp"

// Sample returns a uniformly chosen subset of s with exactly floor(|s|·pct/100 + 0.5)
// members. The same set, pct and seed always give the same subset, on every platform and
// Go version: the generator is PCG-DXSM (math/rand/v2's PCG, a fixed algorithm) and the
// bounded draws and the selection are done here, not by library helpers whose output may
// change. Selection sampling (Knuth's algorithm S) keeps each member with probability
// needed/remaining, which makes every subset of that size equally likely.
func (s *Set) Sample(pct float64, seed uint64) (*Set, error) {
	if !(pct >= 0 && pct <= 100) {
		return nil, errorf("bad sample percentage %v: must be in [0, 100]", pct)
	}
	left := s.Count()
	need := int(math.Floor(float64(left)*pct/100 + 0.5))
	out := None(s.n)
	src := rand.NewPCG(seed, samplePCGStream)
	for r := range s.Ranks() {
		if need == 0 {
			break
		}
		if bounded(src, uint64(left)) < uint64(need) {
			out.words[r>>6] |= 1 << (uint(r) & 63)
			need--
		}
		left--
	}
	return out, nil
}

// bounded returns a uniform value in [0, n), n > 0, by Lemire's multiply-and-reject method.
func bounded(src *rand.PCG, n uint64) uint64 {
	hi, lo := bits.Mul64(src.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(src.Uint64(), n)
		}
	}
	return hi
}
