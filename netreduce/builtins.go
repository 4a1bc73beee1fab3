package netreduce

import (
	"fmt"
	"math"
)

// The element-wise built-ins (sum, min, max, avg) combine the i-th value of every packet
// of a wave; arrays combine element by element and must have equal lengths. int64 with
// int64 stays int64, uint64 with uint64 stays uint64, anything else numeric is float64;
// min and max also order strings.

type binop func(a, b any) (any, error)

type elementwise struct {
	name string
	op   binop
	avg  bool
}

func (e *elementwise) Close() {}

func (e *elementwise) Filter(wave []*Packet) ([]*Packet, error) {
	if len(wave) == 1 && !e.avg {
		return wave, nil
	}
	first := wave[0]
	acc := make([]any, len(first.Values))
	for i, v := range first.Values {
		acc[i] = e.start(first, v)
	}
	for _, p := range wave[1:] {
		if len(p.Values) != len(acc) {
			return nil, fmt.Errorf("filter %s: packet from %s has %d values, packet from %s has %d",
				e.name, origin(p), len(p.Values), origin(first), len(acc))
		}
		for i, v := range p.Values {
			r, err := combine(e.op, acc[i], e.start(p, v))
			if err != nil {
				return nil, fmt.Errorf("filter %s: value %d from %s: %w", e.name, i+1, origin(p), err)
			}
			acc[i] = r
		}
	}
	return []*Packet{{Values: acc}}, nil
}

// start converts a value entering the reduction; avg works on float sums.
func (e *elementwise) start(p *Packet, v any) any {
	if !e.avg || p.Reduced {
		return v
	}
	switch x := v.(type) {
	case []int64, []uint64, []float64:
		items, _ := toSlice(x)
		out := make([]float64, len(items))
		for i, it := range items {
			out[i], _ = asFloat(it)
		}
		return out
	}
	f, _ := asFloat(v)
	return f
}

// Finalize divides avg's weighted sums by the number of ranks merged.
func (e *elementwise) Finalize(p *Packet) (*Packet, error) {
	if !e.avg {
		return p, nil
	}
	q := *p
	q.Values = make([]any, len(p.Values))
	n := float64(max(p.Count, 1))
	for i, v := range p.Values {
		switch x := v.(type) {
		case []float64:
			out := make([]float64, len(x))
			for j := range x {
				out[j] = x[j] / n
			}
			q.Values[i] = out
		default:
			f, ok := asFloat(v)
			if !ok {
				return nil, fmt.Errorf("filter avg: value %d is %T, not a number", i+1, v)
			}
			q.Values[i] = f / n
		}
	}
	return &q, nil
}

func origin(p *Packet) string {
	if p.Src >= 0 {
		return fmt.Sprintf("rank %d", p.Src)
	}
	return fmt.Sprintf("an aggregate of %d ranks", p.Count)
}

func combine(op binop, a, b any) (any, error) {
	switch x := a.(type) {
	case []int64:
		return combineArr(op, x, b)
	case []uint64:
		return combineArr(op, x, b)
	case []float64:
		return combineArr(op, x, b)
	case []string:
		return combineArr(op, x, b)
	}
	return op(a, b)
}

func combineArr[T any](op binop, x []T, b any) (any, error) {
	y, ok := b.([]T)
	if !ok {
		return nil, fmt.Errorf("array %T combined with %T", x, b)
	}
	if len(x) != len(y) {
		return nil, fmt.Errorf("arrays of length %d and %d", len(x), len(y))
	}
	out := make([]T, len(x))
	for i := range x {
		r, err := op(x[i], y[i])
		if err != nil {
			return nil, fmt.Errorf("element %d: %w", i+1, err)
		}
		out[i] = r.(T)
	}
	return out, nil
}

// numeric applies the matching typed operation; mixed numeric kinds go through float64.
func numeric(i func(a, b int64) int64, u func(a, b uint64) uint64, f func(a, b float64) float64,
	s func(a, b string) string) binop {
	return func(a, b any) (any, error) {
		switch x := a.(type) {
		case int64:
			if y, ok := b.(int64); ok {
				return i(x, y), nil
			}
		case uint64:
			if y, ok := b.(uint64); ok {
				return u(x, y), nil
			}
		case string:
			y, ok := b.(string)
			if !ok || s == nil {
				return nil, fmt.Errorf("cannot combine string with %T", b)
			}
			return s(x, y), nil
		}
		fa, ok1 := asFloat(a)
		fb, ok2 := asFloat(b)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("cannot combine %T with %T", a, b)
		}
		return f(fa, fb), nil
	}
}

func lessStr(a, b string) string {
	if a < b {
		return a
	}
	return b
}

func moreStr(a, b string) string {
	if a > b {
		return a
	}
	return b
}

var (
	opSum = numeric(func(a, b int64) int64 { return a + b }, func(a, b uint64) uint64 { return a + b },
		func(a, b float64) float64 { return a + b }, nil)
	opMin = numeric(func(a, b int64) int64 { return min(a, b) }, func(a, b uint64) uint64 { return min(a, b) },
		math.Min, lessStr)
	opMax = numeric(func(a, b int64) int64 { return max(a, b) }, func(a, b uint64) uint64 { return max(a, b) },
		math.Max, moreStr)
)

func init() {
	for _, e := range []elementwise{{name: "sum", op: opSum}, {name: "min", op: opMin},
		{name: "max", op: opMax}, {name: "avg", op: opSum, avg: true}} {
		proto := e
		RegisterFilter(e.name, func(*FilterSpec, NodeInfo) (Transform, error) {
			t := proto
			return &t, nil
		})
	}
}
