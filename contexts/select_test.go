package contexts

import (
	"errors"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"testing"
	"testing/quick"

	"github.com/dpclsh/dpclsh/internal/settwin"
)

func TestSampleSizeAndSubset(t *testing.T) {
	pcts := []float64{0, 0.1, 1, 10, 12.5, 33.3, 50, 99.9, 100}
	prop := func(c settwin.Case, seed uint64) bool {
		a, _, _ := settwin.Sets(t, c, FromList)
		ok := true
		for _, pct := range pcts {
			s, err := a.Sample(pct, seed)
			if err != nil {
				t.Fatal(err)
			}
			want := int(math.Floor(float64(a.Count())*pct/100 + 0.5))
			sub, _ := s.Difference(a)
			again, _ := a.Sample(pct, seed)
			if s.Count() != want || !sub.Empty() || !again.Equal(s) || s.Size() != a.Size() {
				t.Errorf("Sample(%v, %d) of %v = %v: want %d members of the set, reproducibly", pct, seed, a, s, want)
				ok = false
			}
		}
		return ok
	}
	if err := quick.Check(prop, &quick.Config{MaxCount: 200, Rand: rand.New(rand.NewSource(3))}); err != nil {
		t.Fatal(err)
	}
}

func TestSampleRounding(t *testing.T) {
	tests := []struct {
		count int
		pct   float64
		want  int
	}{
		{5, 10, 1}, {15, 10, 2}, {4, 10, 0}, {8, 10, 1}, {1, 49.9, 0}, {1, 50, 1}, {3, 50, 2}, {1 << 20, 0.1, 1049},
	}
	for _, tt := range tests {
		s, err := All(tt.count).Sample(tt.pct, 7)
		if err != nil {
			t.Fatal(err)
		}
		if s.Count() != tt.want {
			t.Errorf("Sample(%v) of %d ranks has %d members, want %d", tt.pct, tt.count, s.Count(), tt.want)
		}
	}
}

const goldenSample = "8,17,20,45,48-50,77,86,89"

// TestSampleGolden pins the exact output: a sample must never change across Go versions.
func TestSampleGolden(t *testing.T) {
	s, err := All(100).Sample(10, 42)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.String(); got != goldenSample {
		t.Errorf("All(100).Sample(10, 42) = %q, want %q", got, goldenSample)
	}
}

// TestSampleUniform draws 3 of 10 ranks with 6,000 seeds: all 120 subsets must be about
// equally frequent (chi-square with 119 degrees of freedom; mean 119, sd 15.4).
func TestSampleUniform(t *testing.T) {
	const draws = 6000
	freq := map[string]int{}
	for seed := range uint64(draws) {
		s, err := All(10).Sample(30, seed)
		if err != nil {
			t.Fatal(err)
		}
		freq[s.String()]++
	}
	if len(freq) != 120 {
		t.Fatalf("saw %d distinct 3-subsets of 10, want 120", len(freq))
	}
	expect := float64(draws) / 120
	chi2 := 0.0
	for _, f := range freq {
		chi2 += (float64(f) - expect) * (float64(f) - expect) / expect
	}
	if chi2 > 200 {
		t.Errorf("chi-square %.1f over 119 degrees of freedom: sample is not uniform", chi2)
	}
}

func TestSampleBadPercentage(t *testing.T) {
	for _, pct := range []float64{-0.5, 100.01, math.NaN(), math.Inf(1)} {
		if _, err := All(10).Sample(pct, 1); err == nil {
			t.Errorf("Sample(%v) succeeded", pct)
		}
	}
}

func TestWhere(t *testing.T) {
	for _, n := range settwin.Sizes {
		s, err := Where(n, func(r int) bool { return r%3 == 0 || r == n-1 })
		if err != nil {
			t.Fatal(err)
		}
		settwin.Agrees(t, "Where", s, settwin.New(n, nil).With(func(r int) bool { return r%3 == 0 || r == n-1 }))
	}
	calls := 0
	_, err := TryWhere(100, func(r int) (bool, error) {
		calls++
		if r == 41 {
			return false, errors.New("boom")
		}
		return true, nil
	})
	if err == nil || err.Error() != "contexts: predicate failed at rank 41: boom" || calls != 42 {
		t.Errorf("TryWhere error = %v after %d calls", err, calls)
	}
}

func TestIONodeGroup(t *testing.T) {
	tests := []struct {
		n, ionode, perIO int
		want             string
	}{
		{256, 0, 64, "0-63"},
		{256, 3, 64, "192-255"},
		{200, 3, 64, "192-199"},
		{256, 5, 8, "40-47"},
		{1, 0, 64, "0"},
		{65536, 1023, 64, "65472-65535"},
	}
	for _, tt := range tests {
		s, err := IONodeGroup(tt.n, tt.ionode, tt.perIO)
		if err != nil || s.String() != tt.want {
			t.Errorf("IONodeGroup(%d, %d, %d) = %v, %v; want %s", tt.n, tt.ionode, tt.perIO, s, err, tt.want)
		}
	}
	errs := []struct {
		n, ionode, perIO int
		msg              string
	}{
		{256, 4, 64, "contexts: I/O node group: I/O node 4 out of range [0, 4) (256 ranks at 64 per I/O node)"},
		{256, -1, 64, "contexts: I/O node group: I/O node -1 out of range [0, 4) (256 ranks at 64 per I/O node)"},
		{256, 0, 0, "contexts: I/O node group: bad ranks per I/O node 0: must be at least 1"},
	}
	for _, tt := range errs {
		_, err := IONodeGroup(tt.n, tt.ionode, tt.perIO)
		if err == nil || err.Error() != tt.msg {
			t.Errorf("IONodeGroup(%d, %d, %d) error = %v, want %s", tt.n, tt.ionode, tt.perIO, err, tt.msg)
		}
	}
}

// boxCase is a random torus shape, job size and box for testing/quick.
type boxCase struct {
	N     int
	Shape [3]int
	Box   Box
}

func inBox(c, lo, hi int) bool {
	if lo <= hi {
		return c >= lo && c <= hi
	}
	return c >= lo || c <= hi
}

func TestTorusBoxMatchesTwin(t *testing.T) {
	prop := func(seed int64) bool {
		r := rand.New(rand.NewSource(seed))
		var c boxCase
		nodes := 1
		for i := range 3 {
			c.Shape[i] = 1 + r.Intn(9)
			nodes *= c.Shape[i]
			c.Box.Lo[i], c.Box.Hi[i] = r.Intn(c.Shape[i]), r.Intn(c.Shape[i])
		}
		c.N = 1 + r.Intn(nodes)
		s, err := TorusBox(c.N, c.Shape, c.Box)
		if err != nil {
			t.Fatal(err)
		}
		X, Y := c.Shape[0], c.Shape[1]
		return settwin.Agrees(t, fmt.Sprintf("TorusBox %+v", c), s, settwin.New(c.N, nil).With(func(rank int) bool {
			return inBox(rank%X, c.Box.Lo[0], c.Box.Hi[0]) && inBox(rank/X%Y, c.Box.Lo[1], c.Box.Hi[1]) &&
				inBox(rank/(X*Y), c.Box.Lo[2], c.Box.Hi[2])
		}))
	}
	if err := quick.Check(prop, &quick.Config{MaxCount: 300, Rand: rand.New(rand.NewSource(4))}); err != nil {
		t.Fatal(err)
	}
}

func TestTorusBoxErrors(t *testing.T) {
	tests := []struct {
		n     int
		shape [3]int
		box   Box
		msg   string
	}{
		{64, [3]int{4, 4, 2}, Box{}, "contexts: torus box: shape [4 4 2] has 32 nodes, fewer than 64 ranks"},
		{16, [3]int{4, 0, 2}, Box{}, "contexts: torus box: bad shape [4 0 2]: Y extent 0"},
		{16, [3]int{4, 4, 1}, Box{Hi: [3]int{0, 4, 0}}, "contexts: torus box: Y coordinate 4 out of range [0, 4)"},
		{16, [3]int{4096, 4096, 4096}, Box{}, "contexts: torus box: shape [4096 4096 4096] has more than 16777216 nodes"},
	}
	for _, tt := range tests {
		_, err := TorusBox(tt.n, tt.shape, tt.box)
		if err == nil || err.Error() != tt.msg {
			t.Errorf("TorusBox(%d, %v, %+v) error = %v, want %s", tt.n, tt.shape, tt.box, err, tt.msg)
		}
	}
	s, err := TorusBox(64, [3]int{8, 8, 1}, Box{Lo: [3]int{7, 0, 0}, Hi: [3]int{0, 1, 0}})
	if err != nil || !slices.Equal(s.List(), []int{0, 7, 8, 15}) {
		t.Errorf("wrapping box = %v, %v", s, err)
	}
}
