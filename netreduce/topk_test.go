package netreduce

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// topkSend is one rank's row: its rank and a time with many ties (so the tie rule counts).
func topkSend(r int, req int64) []any {
	return []any{int64(r), int64((r*7919 + int(req)*13) % 97)}
}

// topkWant ranks naively: every row sorted by time (greatest first, then higher rank), the
// first k kept, their values in rank order.
func topkWant(k int) func(ranks []int, req int64) []any {
	return func(ranks []int, req int64) []any {
		rs := slices.Clone(ranks)
		slices.SortFunc(rs, func(a, b int) int {
			va, vb := topkSend(a, req)[1].(int64), topkSend(b, req)[1].(int64)
			if va != vb {
				return int(vb - va)
			}
			return b - a
		})
		rs = rs[:min(k, len(rs))]
		slices.Sort(rs)
		var out []any
		for _, r := range rs {
			out = append(out, topkSend(r, req)...)
		}
		return out
	}
}

// TestTopkMatchesNaiveReferenceSim ranks over random trees and subsets: the front-end
// gets the k rows a naive ranking of every rank's row picks, whatever the tree's shape.
func TestTopkMatchesNaiveReferenceSim(t *testing.T) {
	rng := rand.New(rand.NewSource(29))
	for i, k := range []int{1, 3, 10, 64, 5000} {
		fc := filterCase{name: "topk", params: map[string]any{"k": float64(k), "key": 2.0}, send: topkSend, want: topkWant(k)}
		topo := randomTopology(rng, 1024)
		set := randomSubset(rng, topo.Backends())
		seed := rng.Int63()
		t.Run(fmt.Sprintf("%d-k%d-%dbe", i, k, topo.Backends()), func(t *testing.T) {
			s := newSim(topo, echoHandler(fc), seed)
			spec := &StreamSpec{ID: 1, Backends: set, Up: &FilterSpec{Name: fc.name, Params: fc.params}}
			s.post(Msg{Kind: MsgOpen, Stream: 1, Spec: spec})
			for req := int64(1); req <= 2; req++ {
				s.post(Msg{Kind: MsgData, Stream: 1, Packet: &Packet{Tag: 100, Values: []any{req}}})
			}
			s.run()
			got := s.data(t)
			if len(got) != 2 {
				t.Fatalf("got %d packets, want 2", len(got))
			}
			for w, p := range got {
				if diff := cmp.Diff(fc.want(members(set, topo.Backends()), int64(w+1)), p.Values); diff != "" {
					t.Fatalf("wave %d: differs from the naive ranking (-want +got):\n%s", w+1, diff)
				}
			}
		})
	}
}

// TestTopkRefusesBadInput names the parameter or the rank that was wrong.
func TestTopkRefusesBadInput(t *testing.T) {
	for _, tc := range []struct {
		params map[string]any
		values []any
		want   string
	}{
		{map[string]any{"key": 1.0}, nil, `netreduce: filter topk: parameter "k" must be an integer from 1, got <nil>`},
		{map[string]any{"k": 2.0, "key": 0.5}, nil, `netreduce: filter topk: parameter "key" must be an integer from 1, got 0.5`},
		{map[string]any{"k": 2.0, "key": 3.0}, []any{int64(1), int64(2)}, "filter topk: rank 5 sent 2 values, no value 3 to rank by"},
		{map[string]any{"k": 2.0, "key": 1.0}, []any{"x"}, "filter topk: value 1 of rank 5 is string, not a number"},
	} {
		f, err := NewTransform(&FilterSpec{Name: "topk", Params: tc.params}, NodeInfo{})
		if err == nil {
			_, err = f.Filter([]*Packet{{Src: 5, Count: 1, Values: tc.values}})
		}
		if err == nil || err.Error() != tc.want {
			t.Errorf("%v %v: error %v, want %q", tc.params, tc.values, err, tc.want)
		}
	}
}
