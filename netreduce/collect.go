package netreduce

import (
	"fmt"
	"math"
	"sort"
)

// concat keeps, on the way up, the partial form [ranks []int64, lengths []int64, items...]
// so that the front-end can put every rank's values in rank order (Finalize).
type concat struct{}

type rankItems struct {
	rank  int64
	items []any
}

func (concat) Close() {}

func (concat) Filter(wave []*Packet) ([]*Packet, error) {
	var parts []rankItems
	for _, p := range wave {
		got, err := concatParts(p)
		if err != nil {
			return nil, err
		}
		parts = append(parts, got...)
	}
	sort.SliceStable(parts, func(i, j int) bool { return parts[i].rank < parts[j].rank })
	ranks := make([]int64, len(parts))
	lens := make([]int64, len(parts))
	vals := []any{ranks, lens}
	for i, pt := range parts {
		ranks[i], lens[i] = pt.rank, int64(len(pt.items))
		vals = append(vals, pt.items...)
	}
	return []*Packet{{Values: vals}}, nil
}

func concatParts(p *Packet) ([]rankItems, error) {
	if !p.Reduced {
		return []rankItems{{int64(p.Src), p.Values}}, nil
	}
	if len(p.Values) < 2 {
		return nil, fmt.Errorf("filter concat: malformed partial packet (%d values)", len(p.Values))
	}
	ranks, ok1 := p.Values[0].([]int64)
	lens, ok2 := p.Values[1].([]int64)
	if !ok1 || !ok2 || len(ranks) != len(lens) {
		return nil, fmt.Errorf("filter concat: malformed partial packet")
	}
	items := p.Values[2:]
	out := make([]rankItems, len(ranks))
	for i := range ranks {
		n := int(lens[i])
		if n < 0 || n > len(items) {
			return nil, fmt.Errorf("filter concat: malformed partial packet")
		}
		out[i] = rankItems{ranks[i], items[:n]}
		items = items[n:]
	}
	return out, nil
}

// Finalize drops the rank bookkeeping: the values of all ranks, in rank order.
func (c concat) Finalize(p *Packet) (*Packet, error) {
	if !p.Reduced {
		return p, nil
	}
	if len(p.Values) < 2 {
		return nil, fmt.Errorf("filter concat: malformed partial packet")
	}
	q := *p
	q.Values = p.Values[2:]
	return &q, nil
}

// EqClass is one equivalence class of eqclass's final result: the ranks that sent Value.
// With params {key = K}, Value is the key row ([]any) and Sums the class's element-wise
// sums of the values after it (eqrows.go); otherwise Sums is nil.
type EqClass struct {
	Value any
	Ranks []int
	Sums  []any
}

// eqclass groups ranks by the first value they send; partial form [k1, []int64 ranks1, ...].
type eqclass struct{}

func (eqclass) Close() {}

func (eqclass) Filter(wave []*Packet) ([]*Packet, error) {
	classes := map[any][]int64{}
	for _, p := range wave {
		if !p.Reduced {
			if len(p.Values) == 0 {
				return nil, fmt.Errorf("filter eqclass: packet from %s has no value", origin(p))
			}
			k := p.Values[0]
			if !comparableKey(k) {
				return nil, fmt.Errorf("filter eqclass: packet from %s: value %T cannot be a class key", origin(p), k)
			}
			classes[k] = append(classes[k], int64(p.Src))
			continue
		}
		if len(p.Values)%2 != 0 {
			return nil, fmt.Errorf("filter eqclass: malformed partial packet")
		}
		for i := 0; i < len(p.Values); i += 2 {
			rs, ok := p.Values[i+1].([]int64)
			if !ok || !comparableKey(p.Values[i]) {
				return nil, fmt.Errorf("filter eqclass: malformed partial packet")
			}
			classes[p.Values[i]] = append(classes[p.Values[i]], rs...)
		}
	}
	keys := make([]any, 0, len(classes))
	for k := range classes {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keyLess(keys[i], keys[j]) })
	vals := make([]any, 0, 2*len(keys))
	for _, k := range keys {
		rs := classes[k]
		sort.Slice(rs, func(i, j int) bool { return rs[i] < rs[j] })
		vals = append(vals, k, rs)
	}
	return []*Packet{{Values: vals}}, nil
}

func comparableKey(k any) bool {
	switch k.(type) {
	case int64, uint64, float64, string:
		return true
	}
	return false
}

// keyLess orders numbers numerically before strings, strings lexically.
func keyLess(a, b any) bool {
	sa, aStr := a.(string)
	sb, bStr := b.(string)
	if aStr || bStr {
		if aStr && bStr {
			return sa < sb
		}
		return bStr
	}
	if x, ok := a.(int64); ok {
		if y, ok := b.(int64); ok {
			return x < y
		}
	}
	if x, ok := a.(uint64); ok {
		if y, ok := b.(uint64); ok {
			return x < y
		}
	}
	fa, _ := asFloat(a)
	fb, _ := asFloat(b)
	return fa < fb
}

// Finalize turns the partial form into EqClass values sorted by value.
func (eqclass) Finalize(p *Packet) (*Packet, error) {
	if !p.Reduced {
		p2, err := eqclass{}.Filter([]*Packet{p})
		if err != nil {
			return nil, err
		}
		q := *p
		q.Values = p2[0].Values
		p = &q
	}
	q := *p
	q.Values = make([]any, 0, len(p.Values)/2)
	for i := 0; i+1 < len(p.Values); i += 2 {
		rs := p.Values[i+1].([]int64)
		ranks := make([]int, len(rs))
		for j, r := range rs {
			ranks[j] = int(r)
		}
		q.Values = append(q.Values, EqClass{Value: p.Values[i], Ranks: ranks})
	}
	return &q, nil
}

// histogram counts every numeric value sent (array elements too) into Bins equal bins over
// [Min, Max); values below Min land in the first bin and values at or above Max in the last.
// Partial and final form: one []int64 of counts; Finalize spreads it into one value per bin.
type histogram struct {
	lo, hi float64
	bins   int
}

func newHistogram(spec *FilterSpec, _ NodeInfo) (Transform, error) {
	get := func(k string) (float64, error) {
		v, ok := spec.Params[k]
		if !ok {
			return 0, errorf("filter histogram: parameter %q missing (want {min=, max=, bins=})", k)
		}
		f, ok := asFloat(v)
		if !ok {
			return 0, errorf("filter histogram: parameter %q is %T, not a number", k, v)
		}
		return f, nil
	}
	lo, err := get("min")
	if err != nil {
		return nil, err
	}
	hi, err := get("max")
	if err != nil {
		return nil, err
	}
	bins, err := get("bins")
	if err != nil {
		return nil, err
	}
	if !(hi > lo) || bins < 1 || bins > 1<<20 || bins != math.Trunc(bins) {
		return nil, errorf("filter histogram: need max > min and 1 <= bins <= %d integral, got min=%v max=%v bins=%v", 1<<20, lo, hi, bins)
	}
	return &histogram{lo: lo, hi: hi, bins: int(bins)}, nil
}

func (h *histogram) Close() {}

func (h *histogram) bin(x float64) int {
	b := int(math.Floor((x - h.lo) / (h.hi - h.lo) * float64(h.bins)))
	return min(max(b, 0), h.bins-1)
}

func (h *histogram) Filter(wave []*Packet) ([]*Packet, error) {
	counts := make([]int64, h.bins)
	for _, p := range wave {
		if err := h.add(counts, p); err != nil {
			return nil, err
		}
	}
	return []*Packet{{Values: []any{counts}}}, nil
}

func (h *histogram) add(counts []int64, p *Packet) error {
	if p.Reduced {
		c, ok := p.Values[0].([]int64)
		if len(p.Values) != 1 || !ok || len(c) != h.bins {
			return fmt.Errorf("filter histogram: malformed partial packet")
		}
		for i := range c {
			counts[i] += c[i]
		}
		return nil
	}
	for i, v := range p.Values {
		items, isArr := toSlice(v)
		if !isArr {
			items = []any{v}
		}
		for _, it := range items {
			x, ok := asFloat(it)
			if !ok {
				return fmt.Errorf("filter histogram: value %d from %s is %T, not a number", i+1, origin(p), it)
			}
			counts[h.bin(x)]++
		}
	}
	return nil
}

func (h *histogram) Finalize(p *Packet) (*Packet, error) {
	if !p.Reduced {
		ps, err := h.Filter([]*Packet{p})
		if err != nil {
			return nil, err
		}
		p = &Packet{Stream: p.Stream, Tag: p.Tag, Src: p.Src, Count: p.Count, Time: p.Time,
			SentFirst: p.SentFirst, SentLast: p.SentLast, Reduced: true, Values: ps[0].Values}
	}
	c := p.Values[0].([]int64)
	q := *p
	q.Values = make([]any, len(c))
	for i, n := range c {
		q.Values[i] = n
	}
	return &q, nil
}

func init() {
	RegisterFilter("concat", func(*FilterSpec, NodeInfo) (Transform, error) { return concat{}, nil })
	RegisterFilter("eqclass", newEqclass)
	RegisterFilter("histogram", newHistogram)
}
