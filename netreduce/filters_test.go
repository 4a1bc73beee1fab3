package netreduce

import (
	"fmt"
	"math/rand"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// filterCase is one built-in filter with what each back-end sends and the naive result
// computed straight from the inputs.
type filterCase struct {
	name   string
	params map[string]any
	send   func(rank int, req int64) []any
	want   func(ranks []int, req int64) []any
}

func vInt(r int, req int64) int64   { return int64(r*37%101) - 50 + req }
func vFlt(r int, req int64) float64 { return float64(r%13) + float64(req)/4 }
func vArr(r int, req int64) []int64 {
	return []int64{int64(r), int64(r * r % 17), req - int64(r%3)}
}

func elementwiseCase(name string, f func(a, b float64) float64, fi func(a, b int64) int64) filterCase {
	return filterCase{name: name,
		send: func(r int, req int64) []any { return []any{vInt(r, req), vFlt(r, req), vArr(r, req)} },
		want: func(ranks []int, req int64) []any {
			i, x, a := vInt(ranks[0], req), vFlt(ranks[0], req), vArr(ranks[0], req)
			for _, r := range ranks[1:] {
				i, x = fi(i, vInt(r, req)), f(x, vFlt(r, req))
				b := vArr(r, req)
				for k := range a {
					a[k] = fi(a[k], b[k])
				}
			}
			return []any{i, x, a}
		}}
}

var filterCases = []filterCase{
	elementwiseCase("sum", func(a, b float64) float64 { return a + b }, func(a, b int64) int64 { return a + b }),
	elementwiseCase("min", func(a, b float64) float64 { return min(a, b) }, func(a, b int64) int64 { return min(a, b) }),
	elementwiseCase("max", func(a, b float64) float64 { return max(a, b) }, func(a, b int64) int64 { return max(a, b) }),
	{name: "avg",
		send: func(r int, req int64) []any { return []any{vInt(r, req), []float64{vFlt(r, req), 1}} },
		want: func(ranks []int, req int64) []any {
			var s, a float64
			for _, r := range ranks {
				s += float64(vInt(r, req))
				a += vFlt(r, req)
			}
			n := float64(len(ranks))
			return []any{s / n, []float64{a / n, 1}}
		}},
	{name: "concat",
		send: func(r int, req int64) []any { return []any{int64(r) * 7, fmt.Sprintf("r%d/%d", r, req)} },
		want: func(ranks []int, req int64) []any {
			var out []any
			for _, r := range ranks {
				out = append(out, int64(r)*7, fmt.Sprintf("r%d/%d", r, req))
			}
			return out
		}},
	{name: "eqclass",
		send: func(r int, req int64) []any { return []any{int64(r%5*10) + req} },
		want: func(ranks []int, req int64) []any {
			groups := map[int64][]int{}
			for _, r := range ranks {
				k := int64(r%5*10) + req
				groups[k] = append(groups[k], r)
			}
			var keys []int64
			for k := range groups {
				keys = append(keys, k)
			}
			sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
			var out []any
			for _, k := range keys {
				out = append(out, EqClass{Value: k, Ranks: groups[k]})
			}
			return out
		}},
	{name: "eqclass", params: map[string]any{"key": 2.0},
		send: func(r int, req int64) []any {
			return []any{int64(r % 3), fmt.Sprint(r%2 == 0), int64(r) + req, 0.5}
		},
		want: func(ranks []int, req int64) []any {
			byKey := map[[2]int]*EqClass{}
			for _, r := range ranks {
				k := [2]int{r % 3, r % 2}
				c := byKey[k]
				if c == nil {
					c = &EqClass{Value: []any{int64(r % 3), fmt.Sprint(r%2 == 0)}, Sums: []any{int64(0), 0.0}}
					byKey[k] = c
				}
				c.Ranks = append(c.Ranks, r)
				c.Sums = []any{c.Sums[0].(int64) + int64(r) + req, c.Sums[1].(float64) + 0.5}
			}
			keys := make([][2]int, 0, len(byKey))
			for k := range byKey {
				keys = append(keys, k)
			}
			// "false" < "true": odd ranks' rows come first within a residue.
			sort.Slice(keys, func(i, j int) bool {
				if keys[i][0] != keys[j][0] {
					return keys[i][0] < keys[j][0]
				}
				return keys[i][1] > keys[j][1]
			})
			var out []any
			for _, k := range keys {
				out = append(out, *byKey[k])
			}
			return out
		}},
	{name: "histogram", params: map[string]any{"min": 0.0, "max": 10.0, "bins": 4.0},
		send: func(r int, req int64) []any { return []any{float64(r%14) - 2, []float64{float64(r % 7)}} },
		want: func(ranks []int, req int64) []any {
			counts := make([]int64, 4)
			bin := func(x float64) { counts[min(max(int(x/2.5), 0), 3)]++ }
			for _, r := range ranks {
				bin(float64(r%14) - 2)
				bin(float64(r % 7))
			}
			out := make([]any, 4)
			for i, c := range counts {
				out[i] = c
			}
			return out
		}},
}

// echoHandler answers each downstream packet (whose first value is the request number)
// with the case's values.
func echoHandler(fc filterCase) BackendHandler {
	return func(rank int, p *Packet) ([]*Packet, error) {
		req := p.Values[0].(int64)
		return []*Packet{{Tag: p.Tag, Values: fc.send(rank, req)}}, nil
	}
}

func randomSubset(rng *rand.Rand, n int) *RankSet {
	if rng.Intn(3) == 0 {
		return nil
	}
	s := NewRankSet(n)
	for s.Count() == 0 {
		p := rng.Float64()
		for r := 0; r < n; r++ {
			if rng.Float64() < p {
				s.Add(r)
			}
		}
	}
	return s
}

// members lists set's back-ends; nil is every back-end of [0, n).
func members(set *RankSet, n int) []int {
	if set == nil {
		all := make([]int, n)
		for r := range all {
			all[r] = r
		}
		return all
	}
	return set.List()
}

// TestFiltersMatchNaiveReferenceSim runs every built-in filter over random trees, random
// subsets and random message interleavings on the pure state machines.
func TestFiltersMatchNaiveReferenceSim(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for i := 0; i < 60; i++ {
		fc := filterCases[i%len(filterCases)]
		topo := randomTopology(rng, 4096)
		set := randomSubset(rng, topo.Backends())
		seed := rng.Int63()
		t.Run(fmt.Sprintf("%d-%s-%dbe", i, fc.name, topo.Backends()), func(t *testing.T) {
			s := newSim(topo, echoHandler(fc), seed)
			spec := &StreamSpec{ID: 1, Backends: set, Up: &FilterSpec{Name: fc.name, Params: fc.params}}
			s.post(Msg{Kind: MsgOpen, Stream: 1, Spec: spec})
			for req := int64(1); req <= 3; req++ {
				s.post(Msg{Kind: MsgData, Stream: 1, Packet: &Packet{Tag: 100, Values: []any{req}}})
			}
			s.run()
			got := s.data(t)
			if len(got) != 3 {
				t.Fatalf("got %d packets, want 3", len(got))
			}
			ranks := members(set, topo.Backends())
			for k, p := range got {
				want := fc.want(ranks, int64(k+1))
				if diff := cmp.Diff(want, p.Values); diff != "" {
					t.Fatalf("wave %d: values differ from the reference (-want +got):\n%s", k+1, diff)
				}
				if int(p.Count) != len(ranks) {
					t.Fatalf("wave %d: count %d, want %d", k+1, p.Count, len(ranks))
				}
			}
		})
	}
}
