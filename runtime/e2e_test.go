package runtime

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/contexts"
	"github.com/dpclsh/dpclsh/netreduce"
	"github.com/dpclsh/dpclsh/probes"
	"github.com/google/go-cmp/cmp"
)

// naive computes what a filter must deliver for one wave, from the values each member
// rank sent (in rank order), the naive twin of the tree's reduction.
type naive func(ranks []int, vals [][]any) []any

func elementwise(op func(a, b float64) float64) naive {
	return func(_ []int, vals [][]any) []any {
		acc := toFloats(vals[0])
		for _, v := range vals[1:] {
			for i, x := range toFloats(v) {
				acc[i] = op(acc[i], x)
			}
		}
		out := make([]any, len(acc))
		for i, x := range acc {
			out[i] = int64(x)
		}
		return out
	}
}

func toFloats(v []any) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x.(int64))
	}
	return out
}

type filterCase struct {
	filter string
	params map[string]any
	want   naive
}

// filterCases are the element-wise and collecting built-ins with their naive twins.
func filterCases() []filterCase {
	return []filterCase{
		{"sum", nil, elementwise(func(a, b float64) float64 { return a + b })},
		{"min", nil, elementwise(func(a, b float64) float64 { return min(a, b) })},
		{"max", nil, elementwise(func(a, b float64) float64 { return max(a, b) })},
		{"concat", nil, func(_ []int, vals [][]any) []any {
			var out []any
			for _, v := range vals {
				out = append(out, v...)
			}
			return out
		}},
		{"histogram", map[string]any{"min": 0.0, "max": 256.0, "bins": 4.0}, func(_ []int, vals [][]any) []any {
			counts := make([]int64, 4)
			for _, v := range vals {
				for _, x := range toFloats(v) {
					counts[min(int(x)/64, 3)]++
				}
			}
			out := make([]any, 4)
			for i, c := range counts {
				out[i] = c
			}
			return out
		}},
	}
}

// TestEveryFilterOverTheTree runs loop on 256 ranks (32 I/O nodes, fan-out 4 above
// them) with a probe at step's entry sending (rank, iteration) on a context of a third
// of the ranks, once per built-in filter, and checks every wave against a naive twin.
func TestEveryFilterOverTheTree(t *testing.T) {
	const n, iters = 256, 4
	set, _ := contexts.Where(n, func(r int) bool { return r%3 != 1 })
	members := set.List()
	sendOf := func(r, k int) []any { return []any{int64(r), int64(k)} }
	tests := filterCases()
	a, _ := launch(t, n, 8, fmt.Sprint(iters))
	v, inc := counter(t, a)
	count, err := a.Install(points(t, a, "step", probes.PointEntry), inc, InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	count.Activate()
	hs := map[*Handle]int{}
	for i, tc := range tests {
		h, err := a.Install(points(t, a, "step", probes.PointEntry), probes.Send(probes.Rank(), probes.Ref(v)),
			InstallOptions{Context: set, Filter: &netreduce.FilterSpec{Name: tc.filter, Params: tc.params}})
		if err != nil {
			t.Fatalf("%s: %v", tc.filter, err)
		}
		h.Activate()
		hs[h] = i
	}
	avg, err := a.Install(points(t, a, "step", probes.PointEntry), probes.Send(probes.Rank(), probes.Ref(v)),
		InstallOptions{Context: set, Filter: &netreduce.FilterSpec{Name: "avg"}})
	if err != nil {
		t.Fatal(err)
	}
	eq, err := a.Install(points(t, a, "step", probes.PointEntry), probes.Send(probes.Binary(probes.KMod, probes.Rank(), probes.IntConst(3))),
		InstallOptions{Context: set, Filter: &netreduce.FilterSpec{Name: "eqclass"}})
	if err != nil {
		t.Fatal(err)
	}
	avg.Activate()
	eq.Activate()
	a.Start()
	waves := map[*Handle][]Message{}
	for _, m := range run(t, a) {
		waves[m.Handle] = append(waves[m.Handle], m)
	}
	checkAvgEqclass(t, members, iters, waves[avg], waves[eq])
	for h, i := range hs {
		tc := tests[i]
		if len(waves[h]) != iters {
			t.Errorf("%s: %d waves, want %d", tc.filter, len(waves[h]), iters)
			continue
		}
		for k, m := range waves[h] {
			vals := make([][]any, len(members))
			for j, r := range members {
				vals[j] = sendOf(r, k+1)
			}
			want := tc.want(members, vals)
			if diff := cmp.Diff(want, m.Values); m.Count != len(members) || diff != "" {
				t.Errorf("%s wave %d: count %d, want %d; values (-want +got):\n%s", tc.filter, k+1, m.Count, len(members), diff)
				break
			}
		}
		if st := h.Stats(); st.Sent != st.Delivered || st.Sent != iters*len(members) {
			t.Errorf("%s: stats %+v", tc.filter, st)
		}
	}
}

// TestContextsFromEveryOperation installs one counting probe per context built with each
// operation of the algebra; each wave must merge exactly the context's ranks, and an
// unaggregated probe must deliver each member's values exactly once per firing.
func TestContextsFromEveryOperation(t *testing.T) {
	const n, iters = 128, 3
	evens, _ := contexts.Where(n, func(r int) bool { return r%2 == 0 })
	low, _ := contexts.Range(n, 0, 40)
	io3, _ := contexts.IONodeGroup(n, 3, 8)
	union, _ := evens.Union(io3)
	inter, _ := evens.Intersect(low)
	diff, _ := low.Difference(evens)
	sample, _ := contexts.All(n).Sample(10, 42)
	sets := map[string]*contexts.Set{"where": evens, "range": low, "ionode": io3, "union": union,
		"intersect": inter, "difference": diff, "complement": low.Complement(), "sample": sample,
		"single": mustSingle(n, 77)}
	a, _ := launch(t, n, 8, fmt.Sprint(iters))
	hs := map[*Handle]string{}
	for name, s := range sets {
		h, err := a.Install(points(t, a, "step", probes.PointEntry), probes.Send(probes.IntConst(1)),
			InstallOptions{Context: s, Filter: &netreduce.FilterSpec{Name: "sum"}})
		if err != nil {
			t.Fatal(err)
		}
		h.Activate()
		hs[h] = name
	}
	raw, err := a.Install(points(t, a, "step", probes.PointEntry), probes.Send(probes.Rank()), InstallOptions{Context: union})
	if err != nil {
		t.Fatal(err)
	}
	raw.Activate()
	a.Start()
	seen := map[int]int{}
	waves := map[*Handle]int{}
	for _, m := range run(t, a) {
		if m.Handle == raw {
			if m.Rank < 0 || m.Count != 1 || m.Values[0] != int64(m.Rank) {
				t.Fatalf("unaggregated message %+v", m)
			}
			seen[m.Rank]++
			continue
		}
		waves[m.Handle]++
		if s := sets[hs[m.Handle]]; m.Count != s.Count() || m.Values[0] != int64(s.Count()) {
			t.Errorf("%s: wave of %d ranks summing %v, want %d", hs[m.Handle], m.Count, m.Values[0], s.Count())
		}
	}
	for h, name := range hs {
		if waves[h] != iters {
			t.Errorf("%s: %d waves, want %d", name, waves[h], iters)
		}
	}
	for r := range n {
		if want := map[bool]int{true: iters}[union.Contains(r)]; seen[r] != want {
			t.Errorf("rank %d: %d unaggregated messages, want %d", r, seen[r], want)
		}
	}
}

// checkAvgEqclass checks the avg waves (mean rank, iteration) and the eqclass waves
// (ranks grouped by rank % 3) of TestEveryFilterOverTheTree.
func checkAvgEqclass(t *testing.T, members []int, iters int, avgs, eqs []Message) {
	var rankSum float64
	var class0, class2 []int
	for _, r := range members {
		rankSum += float64(r)
		if r%3 == 0 {
			class0 = append(class0, r)
		} else {
			class2 = append(class2, r)
		}
	}
	for k, m := range avgs {
		want := []any{rankSum / float64(len(members)), float64(k + 1)}
		if diff := cmp.Diff(want, m.Values); diff != "" {
			t.Errorf("avg wave %d (-want +got):\n%s", k+1, diff)
		}
	}
	wantEq := []any{netreduce.EqClass{Value: int64(0), Ranks: class0}, netreduce.EqClass{Value: int64(2), Ranks: class2}}
	if len(eqs) != iters {
		t.Fatalf("eqclass: %d waves, want %d", len(eqs), iters)
	}
	if diff := cmp.Diff(wantEq, eqs[0].Values); diff != "" {
		t.Errorf("eqclass first wave (-want +got):\n%s", diff)
	}
}

func mustSingle(n, r int) *contexts.Set {
	s, err := contexts.Single(n, r)
	if err != nil {
		panic(err)
	}
	return s
}

// TestRandomProbeOperationsKeepOutput makes 1,000 random installs, activations,
// deactivations and removals of counting probes at random points of loop (entries, every
// exit, every call site of tick, step and main), on random subsets of 16 live nodes at
// random moments; every rank must print exactly what it prints uninstrumented.
func TestRandomProbeOperationsKeepOutput(t *testing.T) {
	const n, iters, trials = 16, 40000, 1000
	plain := runPlain(t, loopELF, n, []string{fmt.Sprint(iters)})
	a, out := launch(t, n, 8, fmt.Sprint(iters))
	var pts []probes.Point
	for _, fn := range []string{"tick", "step", "main"} {
		for _, k := range []probes.PointKind{probes.PointEntry, probes.PointExit, probes.PointCall} {
			pts = append(pts, points(t, a, fn, k)...)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	_, inc := counter(t, a)
	var live []*Handle
	a.Start()
	done := 0
	for ; done < trials && !a.Done(); done++ {
		switch op := rng.IntN(4); {
		case op == 0 || len(live) == 0:
			sub, _ := contexts.Where(n, func(int) bool { return rng.IntN(2) == 0 })
			if sub.Empty() {
				sub = contexts.All(n)
			}
			h, err := a.Install([]probes.Point{pts[rng.IntN(len(pts))]}, inc, InstallOptions{Context: sub})
			if err != nil {
				t.Fatal(err)
			}
			live = append(live, h)
		case op == 1:
			check(t, live[rng.IntN(len(live))].Activate())
		case op == 2:
			check(t, live[rng.IntN(len(live))].Deactivate())
		default:
			j := rng.IntN(len(live))
			check(t, live[j].Remove())
			live = append(live[:j], live[j+1:]...)
		}
		stepFor(t, a, uint64(rng.IntN(3000)))
	}
	run(t, a)
	if done < trials {
		t.Fatalf("the job ended after %d of %d operations", done, trials)
	}
	if got, want := sortedLines(out.String()), sortedLines(plain); got != want {
		t.Fatalf("output changed:\n%s\nwant:\n%s", got, want)
	}
}

// sortedLines puts output lines in order: probes cost time, so the interleaving of the
// ranks' lines may change while each rank's own output must not.
func sortedLines(s string) string {
	lines := strings.SplitAfter(s, "\n")
	slices.Sort(lines)
	return strings.Join(lines, "")
}

func check(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
