package filter

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/netreduce"
)

func repoFile(t *testing.T, rel string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("../..", rel))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// randomSpec draws a generic topology of 1-5 levels, fan-outs 1-16, at most maxBack leaves.
func randomSpec(rng *rand.Rand, maxBack int) string {
	for {
		frontier := 1
		var fields []string
		for l := 0; l < 1+rng.Intn(5); l++ {
			fans := make([]string, frontier)
			next := 0
			for i := range fans {
				f := 1 + rng.Intn(16)
				fans[i], next = fmt.Sprint(f), next+f
			}
			if next > maxBack {
				break
			}
			fields, frontier = append(fields, strings.Join(fans, ",")), next
		}
		if len(fields) > 0 {
			return "g:" + strings.Join(fields, ":")
		}
	}
}

func naiveTopK(ranks []int, value func(int) int64, k int) []any {
	sorted := append([]int(nil), ranks...)
	sort.SliceStable(sorted, func(i, j int) bool {
		vi, vj := value(sorted[i]), value(sorted[j])
		if vi != vj {
			return vi > vj
		}
		return sorted[i] < sorted[j]
	})
	var out []any
	for _, r := range sorted[:min(k, len(sorted))] {
		out = append(out, value(r), int64(r))
	}
	return out
}

// TestLuaTopKMatchesNaiveOnRandomTrees runs the example topk Lua filter on random trees
// and random subsets of back-ends, in-process.
func TestLuaTopKMatchesNaiveOnRandomTrees(t *testing.T) {
	f, err := LoadLuaFilter(repoFile(t, "examples/filters/topk.lua"), 0)
	if err != nil {
		t.Fatal(err)
	}
	value := func(r int) int64 { return int64(r*37%101) - 50 }
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 12; i++ {
		spec := randomSpec(rng, 4096)
		topo, err := netreduce.Generate(spec)
		if err != nil {
			t.Fatal(err)
		}
		n, err := netreduce.New(topo, netreduce.Options{Backend: func(r int, p *netreduce.Packet) ([]*netreduce.Packet, error) {
			return []*netreduce.Packet{{Values: []any{value(r)}}}, nil
		}})
		if err != nil {
			t.Fatal(err)
		}
		set := netreduce.NewRankSet(topo.Backends())
		for r := 0; r < topo.Backends(); r++ {
			if rng.Intn(3) > 0 {
				set.Add(r)
			}
		}
		if set.Count() == 0 {
			set.Add(0)
		}
		comm, _ := n.CommunicatorSet(set)
		k := 1 + rng.Intn(6)
		s, err := n.NewStream(comm, netreduce.StreamConfig{Up: f.Spec(map[string]any{"k": float64(k)})})
		if err != nil {
			t.Fatal(err)
		}
		s.Send(netreduce.FirstAppTag, "%d", 0)
		p, err := s.RecvQuiet()
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		if want := naiveTopK(set.List(), value, k); !reflect.DeepEqual(p.Values, want) {
			t.Fatalf("%s k=%d: got %v want %v", spec, k, p.Values, want)
		}
		n.Close()
	}
}

func TestLuaFilterBudgetAndErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(src), 0o644)
		return p
	}
	spin, err := LoadLuaFilter(write("spin.lua", "return {filter = function(s, p)\n while true do end\nend}"), 100_000)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := newLuaTransform(spin.Spec(nil), netreduce.NodeInfo{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = tr.Filter([]*netreduce.Packet{{Values: []any{int64(1)}, Count: 1}})
	if err == nil || !strings.Contains(err.Error(), "spin.lua:2: budget exceeded: more than 100000 Lua instructions in one call") {
		t.Fatalf("spin: %v", err)
	}
	for _, c := range []struct{ src, want string }{
		{"return 1", "must return a table"},
		{"return {}", "no filter function"},
		{"return {filter = 1}", "no filter function"},
		{"return {filter = function() end, init = 3}", "init must be a function"},
		{"x = = 1", "spin2.lua"},
	} {
		if _, err := LoadLuaFilter(write("spin2.lua", c.src), 0); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.src, err, c.want)
		}
	}
	bad, _ := LoadLuaFilter(write("ret.lua", "return {filter = function(s, p) return 5 end}"), 0)
	tr, _ = newLuaTransform(bad.Spec(nil), netreduce.NodeInfo{})
	if _, err := tr.Filter([]*netreduce.Packet{{Count: 1}}); err == nil || !strings.Contains(err.Error(), "want a table of values or nil") {
		t.Errorf("non-table result: %v", err)
	}
}

// TestLuaFilterStateIsPerNode checks that every (stream, node) keeps its own state while
// the Lua states running the calls are shared from a pool.
func TestLuaFilterStateIsPerNode(t *testing.T) {
	p := filepath.Join(t.TempDir(), "count.lua")
	os.WriteFile(p, []byte(`return {
  init = function(params) return {calls = 0, base = params.base} end,
  filter = function(state, packets)
    state.calls = state.calls + 1
    return {state.base + state.calls}
  end}`), 0o644)
	f, err := LoadLuaFilter(p, 0)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := newLuaTransform(f.Spec(map[string]any{"base": 100.0}), netreduce.NodeInfo{})
	b, _ := newLuaTransform(f.Spec(map[string]any{"base": 200.0}), netreduce.NodeInfo{})
	wave := []*netreduce.Packet{{Count: 1}}
	var got []any
	for _, tr := range []netreduce.Transform{a, a, b, a, b} {
		out, err := tr.Filter(wave)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, out[0].Values[0])
	}
	want := []any{int64(101), int64(102), int64(201), int64(103), int64(202)}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v want %v", got, want)
	}
	if n := len(f.prog.pool); n > vmPoolSize || n == 0 {
		t.Fatalf("%d pooled states", n)
	}
}
