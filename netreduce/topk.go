package netreduce

import (
	"fmt"
	"math"
	"slices"
)

// topk keeps, on the way up, the rows of the k ranks with the greatest value at one
// position of their packet: concat's partial form ([ranks, lengths, items...]) cut to k
// rows at every tree node, so the front-end receives k rows whatever the number of ranks
// (the ranks that spent longest in MPI, say, rather than every rank's row).
//
// Params: k (rows kept, from 1) and key (the 1-based position of the ranked value in a
// rank's packet, an integer or a float). Ties go to the higher rank, as with a max over
// (value, rank) pairs (limpio's max rows), so the result does not depend on the tree's
// shape. The final form is concat's: the kept rows' values, in rank
// order.
type topk struct {
	k, key int
}

func newTopk(spec *FilterSpec, _ NodeInfo) (Transform, error) {
	t := &topk{}
	for _, p := range []struct {
		name string
		dst  *int
	}{{"k", &t.k}, {"key", &t.key}} {
		f, ok := asFloat(spec.Params[p.name])
		if !ok || f != math.Trunc(f) || f < 1 || f > 1<<24 {
			return nil, errorf("filter topk: parameter %q must be an integer from 1, got %v", p.name, spec.Params[p.name])
		}
		*p.dst = int(f)
	}
	return t, nil
}

func (*topk) Close() {}

func (t *topk) Filter(wave []*Packet) ([]*Packet, error) {
	type ranked struct {
		part rankItems
		v    float64
	}
	var rows []ranked
	for _, p := range wave {
		parts, err := concatParts(p)
		if err != nil {
			return nil, fmt.Errorf("filter topk: %w", err)
		}
		for _, pt := range parts {
			if t.key > len(pt.items) {
				return nil, fmt.Errorf("filter topk: rank %d sent %d values, no value %d to rank by", pt.rank, len(pt.items), t.key)
			}
			v, ok := asFloat(pt.items[t.key-1])
			if !ok {
				return nil, fmt.Errorf("filter topk: value %d of rank %d is %T, not a number", t.key, pt.rank, pt.items[t.key-1])
			}
			rows = append(rows, ranked{pt, v})
		}
	}
	slices.SortFunc(rows, func(a, b ranked) int {
		switch {
		case a.v > b.v:
			return -1
		case a.v < b.v:
			return 1
		}
		return int(b.part.rank - a.part.rank)
	})
	rows = rows[:min(t.k, len(rows))]
	parts := make([]*Packet, len(rows))
	for i, r := range rows {
		parts[i] = &Packet{Src: int32(r.part.rank), Values: r.part.items}
	}
	return concat{}.Filter(parts)
}

// Finalize is concat's: a lone rank's packet as it is, else the rows' values.
func (t *topk) Finalize(p *Packet) (*Packet, error) { return concat{}.Finalize(p) }

func init() { RegisterFilter("topk", newTopk) }
