package netreduce

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// mapmergeSend is one rank's map: key part rank%3, five slots of (count, value) where
// some slots are empty; req changes the values from one collection to the next.
func mapmergeSend(r int, req int64) []any {
	out := []any{int64(r % 3)}
	for s := 0; s < 5; s++ {
		out = append(out, int64((r+s)%3), int64(r*37%101)-50+req*int64(s))
	}
	return out
}

// mapmergeWant merges the ranks' maps naively: one entry per (rank%3, slot), counts
// added, values folded by op, entries in key order.
func mapmergeWant(op func(a, b int64) int64) func(ranks []int, req int64) []any {
	return func(ranks []int, req int64) []any {
		byKey := map[[2]int64][]int64{}
		for _, r := range ranks {
			v := mapmergeSend(r, req)
			for s := 0; s < 5; s++ {
				n, x := v[1+2*s].(int64), v[2+2*s].(int64)
				if n == 0 {
					continue
				}
				k := [2]int64{int64(r % 3), int64(10 + s)}
				if e := byKey[k]; e != nil {
					byKey[k] = []int64{e[0] + n, op(e[1], x)}
				} else {
					byKey[k] = []int64{n, x}
				}
			}
		}
		keys := make([][2]int64, 0, len(byKey))
		for k := range byKey {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(a, b [2]int64) int { return slices.Compare(a[:], b[:]) })
		var flat []int64
		for _, k := range keys {
			flat = append(flat, k[0], k[1], byKey[k][0], byKey[k][1])
		}
		return []any{flat}
	}
}

// TestMapmergeMatchesNaiveReferenceSim merges maps over random trees and subsets: the
// result equals the naive merge, so the merge is associative whatever the tree's shape.
func TestMapmergeMatchesNaiveReferenceSim(t *testing.T) {
	rng := rand.New(rand.NewSource(33))
	params := func(agg string) map[string]any {
		return map[string]any{"agg": agg, "width": 2.0, "fixed": 1.0, "base": 10.0}
	}
	cases := []filterCase{
		{name: "mapmerge", params: params("min"), send: mapmergeSend, want: mapmergeWant(func(a, b int64) int64 { return min(a, b) })},
		{name: "mapmerge", params: params("max"), send: mapmergeSend, want: mapmergeWant(func(a, b int64) int64 { return max(a, b) })},
		{name: "mapmerge", params: params("sum"), send: mapmergeSend, want: mapmergeWant(func(a, b int64) int64 { return a + b })},
	}
	for i := 0; i < 12; i++ {
		fc := cases[i%len(cases)]
		topo := randomTopology(rng, 1024)
		set := randomSubset(rng, topo.Backends())
		seed := rng.Int63()
		t.Run(fmt.Sprintf("%d-%s-%dbe", i, fc.params["agg"], topo.Backends()), func(t *testing.T) {
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
			for k, p := range got {
				if diff := cmp.Diff(fc.want(members(set, topo.Backends()), int64(k+1)), p.Values); diff != "" {
					t.Fatalf("wave %d: differs from the naive merge (-want +got):\n%s", k+1, diff)
				}
			}
		})
	}
}

// TestMapmergeRefusesBadInput names the parameter or the rank that was wrong.
func TestMapmergeRefusesBadInput(t *testing.T) {
	for _, tc := range []struct {
		params map[string]any
		values []any
		want   string
	}{
		{map[string]any{"agg": "median", "width": 1.0}, nil,
			`netreduce: filter mapmerge: parameter "agg" must be count, sum, min, max, avg, stats, hist or lhist, got median`},
		{map[string]any{"agg": "count"}, nil, `netreduce: filter mapmerge: parameter "width" must be an integer from 1, got <nil>`},
		{map[string]any{"agg": "sum", "width": 2.0}, []any{int64(1), int64(2), int64(3)},
			"filter mapmerge: packet from rank 5 has 3 values, not 0 key values and slots of 2"},
		{map[string]any{"agg": "sum", "width": 1.0}, []any{int64(1), 2.5},
			"filter mapmerge: value 2 from rank 5 is float64, not an integer"},
	} {
		f, err := NewTransform(&FilterSpec{Name: "mapmerge", Params: tc.params}, NodeInfo{})
		if err == nil {
			_, err = f.Filter([]*Packet{{Src: 5, Count: 1, Values: tc.values}})
		}
		if err == nil || err.Error() != tc.want {
			t.Errorf("%v %v: error %v, want %q", tc.params, tc.values, err, tc.want)
		}
	}
}
