package netreduce

import (
	"fmt"
	"math"
	"slices"
)

// mapmerge merges bpftrace-style maps by key (dpclsh trace): each rank sends its map as
// a dense table of slots, and every tree node keeps one entry per key, so the front-end
// receives one merged map per collection whatever the number of ranks.
//
// Params: agg (count, sum, min, max, avg, stats, hist, lhist), width (values per slot,
// the first being the slot's event count), fixed (how many leading values are key parts
// the rank sends as such, e.g. its rank; default 0) and base (the index of the packet's
// first slot, default 0). A rank's packet: fixed key values, then slots of width values;
// slots whose count is 0 are empty and dropped. Partial and final form: one []int64 of
// entries sorted by key, each fixed key values, the slot index, then the width values.
//
// The merge of two entries with one key adds every value, except a min or max map's
// second value, which keeps the least or the greatest: associative and commutative, so
// the tree's shape does not change the result.
type mapmerge struct {
	agg                string
	fixed, width, base int
}

var mapmergeAggs = map[string]bool{"count": true, "sum": true, "min": true, "max": true,
	"avg": true, "stats": true, "hist": true, "lhist": true}

func newMapmerge(spec *FilterSpec, _ NodeInfo) (Transform, error) {
	agg, _ := spec.Params["agg"].(string)
	if !mapmergeAggs[agg] {
		return nil, errorf("filter mapmerge: parameter \"agg\" must be count, sum, min, max, avg, stats, hist or lhist, got %v", spec.Params["agg"])
	}
	m := &mapmerge{agg: agg}
	for _, p := range []struct {
		name     string
		dst      *int
		min, def int
	}{{"width", &m.width, 1, -1}, {"fixed", &m.fixed, 0, 0}, {"base", &m.base, 0, 0}} {
		v, ok := spec.Params[p.name]
		if !ok && p.def >= 0 {
			*p.dst = p.def
			continue
		}
		f, isNum := asFloat(v)
		if !isNum || f != math.Trunc(f) || f < float64(p.min) || f > 1<<24 {
			return nil, errorf("filter mapmerge: parameter %q must be an integer from %d, got %v", p.name, p.min, v)
		}
		*p.dst = int(f)
	}
	return m, nil
}

func (m *mapmerge) Close() {}

// stride is the length of one entry of the partial form.
func (m *mapmerge) stride() int { return m.fixed + 1 + m.width }

func (m *mapmerge) Filter(wave []*Packet) ([]*Packet, error) {
	entries := map[string][]int64{}
	for _, p := range wave {
		var err error
		if p.Reduced {
			err = m.addPartial(entries, p)
		} else {
			err = m.addRank(entries, p)
		}
		if err != nil {
			return nil, err
		}
	}
	keys := make([][]int64, 0, len(entries))
	for _, e := range entries {
		keys = append(keys, e)
	}
	slices.SortFunc(keys, func(a, b []int64) int { return slices.Compare(a[:m.fixed+1], b[:m.fixed+1]) })
	out := make([]int64, 0, len(keys)*m.stride())
	for _, e := range keys {
		out = append(out, e...)
	}
	return []*Packet{{Values: []any{out}}}, nil
}

// addRank adds the dense table one rank sent.
func (m *mapmerge) addRank(entries map[string][]int64, p *Packet) error {
	n := len(p.Values) - m.fixed
	if n < 0 || n%m.width != 0 {
		return fmt.Errorf("filter mapmerge: packet from %s has %d values, not %d key values and slots of %d", origin(p), len(p.Values), m.fixed, m.width)
	}
	row := make([]int64, len(p.Values))
	for i, v := range p.Values {
		x, ok := v.(int64)
		if !ok {
			return fmt.Errorf("filter mapmerge: value %d from %s is %T, not an integer", i+1, origin(p), v)
		}
		row[i] = x
	}
	for s := 0; s < n/m.width; s++ {
		vals := row[m.fixed+s*m.width : m.fixed+(s+1)*m.width]
		if vals[0] == 0 {
			continue
		}
		e := make([]int64, 0, m.stride())
		e = append(append(append(e, row[:m.fixed]...), int64(m.base+s)), vals...)
		m.merge(entries, e)
	}
	return nil
}

func (m *mapmerge) addPartial(entries map[string][]int64, p *Packet) error {
	flat, ok := p.Values[0].([]int64)
	if len(p.Values) != 1 || !ok || len(flat)%m.stride() != 0 {
		return fmt.Errorf("filter mapmerge: malformed partial packet from %s", origin(p))
	}
	for i := 0; i < len(flat); i += m.stride() {
		m.merge(entries, flat[i:i+m.stride()])
	}
	return nil
}

// merge folds entry e into the entry with its key.
func (m *mapmerge) merge(entries map[string][]int64, e []int64) {
	id := fmt.Sprint(e[:m.fixed+1])
	have := entries[id]
	if have == nil {
		entries[id] = slices.Clone(e)
		return
	}
	vals, add := have[m.fixed+1:], e[m.fixed+1:]
	for i := range vals {
		switch {
		case i == 1 && m.agg == "min":
			vals[i] = min(vals[i], add[i])
		case i == 1 && m.agg == "max":
			vals[i] = max(vals[i], add[i])
		default:
			vals[i] += add[i]
		}
	}
}

// Finalize gives a packet that reached the front-end unmerged (one rank) the partial form.
func (m *mapmerge) Finalize(p *Packet) (*Packet, error) {
	if p.Reduced {
		return p, nil
	}
	ps, err := m.Filter([]*Packet{p})
	if err != nil {
		return nil, err
	}
	q := *p
	q.Reduced, q.Values = true, ps[0].Values
	return &q, nil
}

func init() { RegisterFilter("mapmerge", newMapmerge) }
