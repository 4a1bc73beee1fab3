package netreduce

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// eqrows is eqclass with params {key = K}: ranks are grouped by their first K values (a
// row, such as one rank's call counts), and the values after the K-th are added up
// element-wise within each class (such as that rank's times), so a tree node holds one
// row and one sum per class, whatever the number of ranks. Partial form: triples
// [key []any, ranks []int64, sums []any]; final form: EqClass values with Value the key
// row ([]any) and Sums, sorted by key row.
type eqrows struct{ key int }

// maxEqKey bounds params.key: a probe sends at most 256 values.
const maxEqKey = 256

func newEqclass(spec *FilterSpec, _ NodeInfo) (Transform, error) {
	v, ok := spec.Params["key"]
	if !ok {
		return eqclass{}, nil
	}
	k, ok := asFloat(v)
	if !ok || k != math.Trunc(k) || k < 1 || k > maxEqKey {
		return nil, errorf("filter eqclass: parameter \"key\" must be an integer from 1 to %d (the number of values that form the class key), got %v", maxEqKey, v)
	}
	return eqrows{key: int(k)}, nil
}

// eqRow is one class while a wave is merged.
type eqRow struct {
	key   []any
	ranks []int64
	sums  []any
}

func (eqrows) Close() {}

func (e eqrows) Filter(wave []*Packet) ([]*Packet, error) {
	classes := map[string]*eqRow{}
	add := func(p *Packet, key []any, ranks []int64, sums []any) error {
		id, err := rowID(key)
		if err != nil {
			return fmt.Errorf("filter eqclass: packet from %s: %w", origin(p), err)
		}
		c := classes[id]
		if c == nil {
			classes[id] = &eqRow{key: key, ranks: append([]int64(nil), ranks...), sums: append([]any(nil), sums...)}
			return nil
		}
		if len(sums) != len(c.sums) {
			return fmt.Errorf("filter eqclass: packet from %s has %d values after the key, its class %d", origin(p), len(sums), len(c.sums))
		}
		for i, v := range sums {
			s, err := combine(opSum, c.sums[i], v)
			if err != nil {
				return fmt.Errorf("filter eqclass: value %d from %s: %w", e.key+i+1, origin(p), err)
			}
			c.sums[i] = s
		}
		c.ranks = append(c.ranks, ranks...)
		return nil
	}
	for _, p := range wave {
		if err := e.merge(p, add); err != nil {
			return nil, err
		}
	}
	rows := make([]*eqRow, 0, len(classes))
	for _, c := range classes {
		rows = append(rows, c)
	}
	sort.Slice(rows, func(i, j int) bool { return rowLess(rows[i].key, rows[j].key) })
	vals := make([]any, 0, 3*len(rows))
	for _, c := range rows {
		sort.Slice(c.ranks, func(i, j int) bool { return c.ranks[i] < c.ranks[j] })
		vals = append(vals, c.key, c.ranks, c.sums)
	}
	return []*Packet{{Values: vals}}, nil
}

// merge feeds one packet's classes to add: a rank's packet is one class of one rank; a
// partial packet carries triples.
func (e eqrows) merge(p *Packet, add func(*Packet, []any, []int64, []any) error) error {
	if !p.Reduced {
		if len(p.Values) < e.key {
			return fmt.Errorf("filter eqclass: packet from %s has %d values, fewer than the key's %d", origin(p), len(p.Values), e.key)
		}
		return add(p, p.Values[:e.key:e.key], []int64{int64(p.Src)}, p.Values[e.key:])
	}
	if len(p.Values)%3 != 0 {
		return fmt.Errorf("filter eqclass: malformed partial packet")
	}
	for i := 0; i < len(p.Values); i += 3 {
		key, ok1 := p.Values[i].([]any)
		rs, ok2 := p.Values[i+1].([]int64)
		sums, ok3 := p.Values[i+2].([]any)
		if !ok1 || !ok2 || !ok3 {
			return fmt.Errorf("filter eqclass: malformed partial packet")
		}
		if err := add(p, key, rs, sums); err != nil {
			return err
		}
	}
	return nil
}

// rowID encodes a key row as a map key: each value with its kind, strings length-prefixed.
func rowID(key []any) (string, error) {
	var b strings.Builder
	for i, v := range key {
		switch x := v.(type) {
		case int64:
			b.WriteString("i" + strconv.FormatInt(x, 10))
		case uint64:
			b.WriteString("u" + strconv.FormatUint(x, 10))
		case float64:
			b.WriteString("f" + strconv.FormatFloat(x, 'g', -1, 64))
		case string:
			b.WriteString("s" + strconv.Itoa(len(x)) + ":" + x)
		default:
			return "", fmt.Errorf("key value %d is %T, which cannot be part of a class key", i+1, v)
		}
		b.WriteByte(';')
	}
	return b.String(), nil
}

// rowLess orders key rows element by element (keyLess), a shorter prefix first.
func rowLess(a, b []any) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if keyLess(a[i], b[i]) {
			return true
		}
		if keyLess(b[i], a[i]) {
			return false
		}
	}
	return len(a) < len(b)
}

// Finalize turns the triples into EqClass values with their sums.
func (e eqrows) Finalize(p *Packet) (*Packet, error) {
	if !p.Reduced {
		ps, err := e.Filter([]*Packet{p})
		if err != nil {
			return nil, err
		}
		q := *p
		q.Values = ps[0].Values
		p = &q
	}
	q := *p
	q.Values = make([]any, 0, len(p.Values)/3)
	for i := 0; i+2 < len(p.Values); i += 3 {
		rs := p.Values[i+1].([]int64)
		ranks := make([]int, len(rs))
		for j, r := range rs {
			ranks[j] = int(r)
		}
		q.Values = append(q.Values, EqClass{Value: p.Values[i], Ranks: ranks, Sums: p.Values[i+2].([]any)})
	}
	return &q, nil
}
