package runtime

import (
	"testing"

	"github.com/dpclsh/dpclsh/netreduce"
)

// instantiationOf builds the tool's tree for daemons I/O-node daemons of one rank each
// under a balanced tree of fan-out fan ("b:F", fan >= daemons: flat) and computes its
// instantiation; no machine is needed.
func instantiationOf(t *testing.T, daemons, fan int, costs *Costs) Instantiation {
	t.Helper()
	counts := make([]int, daemons)
	for i := range counts {
		counts[i] = 1
	}
	topo, err := netreduce.GenerateBGL(counts, fan)
	if err != nil {
		t.Fatal(err)
	}
	if costs == nil {
		costs, _ = NamedCosts("default")
	}
	tree := newToolTree(topo, nil, costs, func(io int, n *netreduce.Node) *Daemon { return &Daemon{IONode: io, node: n} })
	return tree.instantiate()
}

// TestInstantiationFlatGrowsFasterThanTrees is seed 004 Figure 5(a)'s shape: a flat
// tree's front-end creates every back-end itself, one after the other, so instantiation
// grows with the back-ends; 4- and 8-ary trees create their levels concurrently and grow
// with the depth.
func TestInstantiationFlatGrowsFasterThanTrees(t *testing.T) {
	costs, _ := NamedCosts("default")
	perChild := costs.ns(launchRemoteExec) + costs.ns(launchProcStart)
	total := map[int]map[int]int64{}
	for _, fan := range []int{0, 4, 8} {
		total[fan] = map[int]int64{}
		for _, n := range []int{8, 64, 512, 4096} {
			f := fan
			if f == 0 {
				f = n
			}
			in := instantiationOf(t, n, f, costs)
			total[fan][n] = in.TotalNS
			if fan == 0 && in.TotalNS < int64(n)*perChild {
				t.Errorf("flat %d: %d ns, less than %d serialized remote execs and starts", n, in.TotalNS, n)
			}
		}
	}
	t.Logf("instantiation ms at 8/64/512/4096 back-ends: flat %v, 4-ary %v, 8-ary %v", ms(total[0]), ms(total[4]), ms(total[8]))
	flat := total[0][4096] - total[0][8]
	for _, fan := range []int{4, 8} {
		grew := total[fan][4096] - total[fan][8]
		if grew <= 0 || flat < 20*grew {
			t.Errorf("8 -> 4096 back-ends: flat +%d ns, %d-ary +%d ns: want the flat tree to grow far faster", flat, fan, grew)
		}
		if total[fan][4096] > total[fan][512]*2 {
			t.Errorf("%d-ary: %d ns at 512, %d at 4096: want growth with the depth", fan, total[fan][512], total[fan][4096])
		}
	}
}

// TestInstantiationFollowsItsCosts: each launch parameter is paid once per process,
// by its parent in turn; every process is created after its parent is connected and
// reports after it.
func TestInstantiationFollowsItsCosts(t *testing.T) {
	base := instantiationOf(t, 64, 64, nil)
	fast, _ := NamedCosts("default")
	fast.Set("launch_remote_exec_ns", 0)
	in := instantiationOf(t, 64, 64, fast)
	if d := base.TotalNS - in.TotalNS; d != 64*50_000_000 {
		t.Errorf("flat 64 without rsh's cost: %d ns faster, want 64 x 50 ms", d)
	}
	deep := instantiationOf(t, 64, 4, nil)
	if len(deep.Procs) != 64+16+4 {
		t.Fatalf("%d processes below the front-end, want 64 daemons + 20 comm nodes", len(deep.Procs))
	}
	at := map[string]InstantiatedProc{}
	for _, p := range deep.Procs {
		at[p.Name] = p
		q, ok := at[p.Parent]
		if p.Parent != "front-end" && (!ok || p.LaunchNS < q.ConnectedNS || p.ReadyNS > q.ReadyNS) {
			t.Errorf("%s launched at %d, ready %d; its parent %s connected at %d, ready %d", p.Name, p.LaunchNS, p.ReadyNS,
				p.Parent, q.ConnectedNS, q.ReadyNS)
		}
		if !(p.LaunchNS < p.ConnectedNS && p.ConnectedNS < p.ReadyNS && p.ReadyNS <= deep.TotalNS) {
			t.Errorf("%s: launch %d, connected %d, ready %d, total %d", p.Name, p.LaunchNS, p.ConnectedNS, p.ReadyNS, deep.TotalNS)
		}
	}
}

func ms(byN map[int]int64) []float64 {
	var out []float64
	for _, n := range []int{8, 64, 512, 4096} {
		out = append(out, float64(byN[n]/1000)/1000)
	}
	return out
}
