package ranks

import (
	"errors"
	"math/rand"
	"slices"
	"strings"
	"testing"
	"testing/quick"
)

func TestParse(t *testing.T) {
	tests := []struct {
		n     int
		spec  string
		want  []int
		print string
	}{
		{16, "", nil, ""},
		{16, "  ", nil, ""},
		{16, "3", []int{3}, "3"},
		{16, "0-3", []int{0, 1, 2, 3}, "0-3"},
		{16, "9,10", []int{9, 10}, "9-10"},
		{16, "5-5", []int{5}, "5"},
		{16, " 1 - 2 , 7 ", []int{1, 2, 7}, "1-2,7"},
		{16, "7,0-2,1,007", []int{0, 1, 2, 7}, "0-2,7"},
		{256, "1-5,7,9-10", []int{1, 2, 3, 4, 5, 7, 9, 10}, "1-5,7,9-10"},
		{130, "62-65,129", []int{62, 63, 64, 65, 129}, "62-65,129"},
	}
	for _, tt := range tests {
		s, err := Parse(tt.n, tt.spec)
		if err != nil {
			t.Errorf("Parse(%d, %q): %v", tt.n, tt.spec, err)
			continue
		}
		if got := s.List(); !slices.Equal(got, append([]int{}, tt.want...)) {
			t.Errorf("Parse(%d, %q) = %v, want %v", tt.n, tt.spec, got, tt.want)
		}
		if got := s.String(); got != tt.print {
			t.Errorf("Parse(%d, %q).String() = %q, want %q", tt.n, tt.spec, got, tt.print)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		n    int
		spec string
		msg  string
	}{
		{16, "5-2", `ranks: bad rank spec "5-2": item "5-2" at offset 0: descending range (5 > 2)`},
		{16, "-3", `ranks: bad rank spec "-3": item "-3" at offset 0: missing range start`},
		{16, "3-", `ranks: bad rank spec "3-": item "3-" at offset 0: missing range end`},
		{16, "1,,2", `ranks: bad rank spec "1,,2": item "" at offset 2: empty item`},
		{16, "1,2,", `ranks: bad rank spec "1,2,": item "" at offset 4: empty item`},
		{16, ",1", `ranks: bad rank spec ",1": item "" at offset 0: empty item`},
		{16, "0-3, 16", `ranks: bad rank spec "0-3, 16": item "16" at offset 5: rank 16 out of range [0, 16)`},
		{16, "2-99", `ranks: bad rank spec "2-99": item "2-99" at offset 0: rank 99 out of range [0, 16)`},
		{16, "1,abc", `ranks: bad rank spec "1,abc": item "abc" at offset 2: "abc" is not a rank`},
		{16, "1-2-3", `ranks: bad rank spec "1-2-3": item "1-2-3" at offset 0: "2-3" is not a rank`},
		{16, "+4", `ranks: bad rank spec "+4": item "+4" at offset 0: "+4" is not a rank`},
		{16, "1 2", `ranks: bad rank spec "1 2": item "1 2" at offset 0: "1 2" is not a rank`},
		{16, "99999999999999999999999", `ranks: bad rank spec "99999999999999999999999": item "99999999999999999999999" at offset 0: rank 99999999999999999999999 out of range [0, 16)`},
		{0, "0", `ranks: bad rank spec "0": item "0" at offset 0: rank 0 out of range [0, 0)`},
		{-1, "0", `ranks: bad size -1: must be in [0, 16777216]`},
	}
	for _, tt := range tests {
		_, err := Parse(tt.n, tt.spec)
		if err == nil || err.Error() != tt.msg {
			t.Errorf("Parse(%d, %q) error:\n got %v\nwant %s", tt.n, tt.spec, err, tt.msg)
		}
	}
	_, err := Parse(16, "1,20")
	var re *RankError
	if !errors.As(err, &re) || re.Rank != 20 || re.Size != 16 {
		t.Errorf("out-of-range spec error does not unwrap to the RankError: %#v", err)
	}
}

func TestSpecRoundTrip(t *testing.T) {
	prop := func(c setCase) bool {
		a, _, _ := sets(t, c)
		back, err := Parse(c.N, a.String())
		if err != nil {
			t.Errorf("Parse(String()) of %v: %v", a, err)
			return false
		}
		return back.Equal(a)
	}
	cfg := &quick.Config{MaxCount: 400, Rand: rand.New(rand.NewSource(2))}
	if err := quick.Check(prop, cfg); err != nil {
		t.Fatal(err)
	}
}

// FuzzParse checks that Parse never panics, that what it accepts prints back to a spec
// describing the same set, and that its errors point at a real part of the input.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"", "0-15,17,32-63", "5-2", "-3", "1,,2", "1-2-3", " 3 , 4-9", "99999999999999999999", "63-64,127-129"} {
		f.Add(200, s)
	}
	f.Fuzz(func(t *testing.T, n int, spec string) {
		n = ((n % 300) + 300) % 300
		s, err := Parse(n, spec)
		if err != nil {
			var se *SpecError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%d, %q): error is not a *SpecError: %v", n, spec, err)
			}
			if se.Offset < 0 || se.Offset > len(spec) || !strings.HasPrefix(spec[se.Offset:], se.Item) {
				t.Fatalf("Parse(%d, %q): item %q is not at offset %d", n, spec, se.Item, se.Offset)
			}
			return
		}
		back, err := Parse(n, s.String())
		if err != nil || !back.Equal(s) {
			t.Fatalf("Parse(%d, %q) printed as %q, which reads back as %v, %v", n, spec, s.String(), back, err)
		}
		for r := range s.Ranks() {
			if r < 0 || r >= n {
				t.Fatalf("Parse(%d, %q) holds rank %d", n, spec, r)
			}
		}
	})
}

func TestStringLarge(t *testing.T) {
	s := All(1 << 20)
	if got := s.String(); got != "0-1048575" {
		t.Errorf("All(1<<20).String() = %q", got)
	}
	for _, r := range []int{0, 64, 65, 1<<20 - 1} {
		if err := s.Remove(r); err != nil {
			t.Fatal(err)
		}
	}
	if got := s.String(); got != "1-63,66-1048574" {
		t.Errorf("String() = %q", got)
	}
}
