package ranks

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// SpecError reports a malformed compact rank spec. Offset is the byte offset of Item within
// Spec, so a message can point at the offending part.
type SpecError struct {
	Spec   string
	Item   string
	Offset int
	Reason string
	Err    error // the underlying *RankError for an out-of-range rank, else nil
}

// Unprefixed is the error's text without "ranks: "; Error adds it.
func (e *SpecError) Unprefixed() string {
	return fmt.Sprintf("bad rank spec %q: item %q at offset %d: %s",
		e.Spec, e.Item, e.Offset, e.Reason)
}

func (e *SpecError) Error() string { return "ranks: " + e.Unprefixed() }

// Package is the name the error's text starts with.
func (e *SpecError) Package() string { return "ranks" }

func (e *SpecError) Unwrap() error { return e.Err }

// Parse reads the compact form "0-15,17,32-63" over [0, n): comma-separated items, each a
// rank or an inclusive ascending range "lo-hi". Spaces around items and around '-' are
// ignored; items may overlap and come in any order; "" (or only spaces) is the empty set.
func Parse(n int, spec string) (*Set, error) {
	if err := CheckSize(n); err != nil {
		return nil, err
	}
	s := None(n)
	if strings.TrimSpace(spec) == "" {
		return s, nil
	}
	off := 0
	for item := range strings.SplitSeq(spec, ",") {
		if err := s.parseItem(spec, item, off); err != nil {
			return nil, err
		}
		off += len(item) + 1
	}
	return s, nil
}

// parseItem adds one item of spec, found at byte offset off, to s.
func (s *Set) parseItem(spec, raw string, off int) error {
	item := strings.TrimSpace(raw)
	if item != "" {
		off += len(raw) - len(strings.TrimLeftFunc(raw, unicode.IsSpace))
	}
	fail := func(reason string, err error) error {
		return &SpecError{Spec: spec, Item: item, Offset: off, Reason: reason, Err: err}
	}
	if item == "" {
		return fail("empty item", nil)
	}
	loText, hiText, isRange := strings.Cut(item, "-")
	loText, hiText = strings.TrimSpace(loText), strings.TrimSpace(hiText)
	switch {
	case isRange && loText == "":
		return fail("missing range start", nil)
	case isRange && hiText == "":
		return fail("missing range end", nil)
	}
	lo, err := s.parseRank(loText)
	if err != nil {
		return fail(err.reason, err.err)
	}
	hi := lo
	if isRange {
		if hi, err = s.parseRank(hiText); err != nil {
			return fail(err.reason, err.err)
		}
	}
	if lo > hi {
		return fail(fmt.Sprintf("descending range (%d > %d)", lo, hi), nil)
	}
	s.addRange(lo, hi)
	return nil
}

type rankParseError struct {
	reason string
	err    error
}

// parseRank reads one decimal rank and checks it against the universe.
func (s *Set) parseRank(text string) (int, *rankParseError) {
	for _, c := range []byte(text) {
		if c < '0' || c > '9' {
			return 0, &rankParseError{reason: fmt.Sprintf("%q is not a rank", text)}
		}
	}
	r, err := strconv.Atoi(text)
	if err != nil || r >= s.n {
		pe := &rankParseError{reason: fmt.Sprintf("rank %s out of range [0, %d)", text, s.n)}
		if err == nil {
			pe.err = &RankError{Rank: r, Size: s.n}
		}
		return 0, pe
	}
	return r, nil
}

// String returns the compact form, every run of two or more consecutive ranks as "lo-hi":
// the form Parse reads back. The empty set prints as "".
func (s *Set) String() string {
	var b []byte
	for lo, hi := range s.Runs() {
		if len(b) > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(lo), 10)
		if hi > lo {
			b = append(b, '-')
			b = strconv.AppendInt(b, int64(hi), 10)
		}
	}
	return string(b)
}

// Spec prints ascending ranks in the compact form String uses ("0-3,7,9-10"; "" when
// empty), for lists that have no Set.
func Spec(list []int) string {
	var b []byte
	for i := 0; i < len(list); {
		j := i
		for j+1 < len(list) && list[j+1] == list[j]+1 {
			j++
		}
		if len(b) > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(list[i]), 10)
		if j > i {
			b = append(b, '-')
			b = strconv.AppendInt(b, int64(list[j]), 10)
		}
		i = j + 1
	}
	return string(b)
}
