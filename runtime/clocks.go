package runtime

import (
	"math/rand/v2"
)

// ClockSkew says how far the tool processes' clocks are off: each daemon and comm node
// gets an offset drawn uniformly from [-MaxNS, MaxNS] by a generator seeded with Seed;
// the front-end's clock is the reference (offset 0). A process stamps every packet it
// receives with its own clock (what a filter sees as a packet's time), so clock-skew
// detection can run in the tree as probes and filters and be checked against the truth
// (App.TreeNodes).
type ClockSkew struct {
	Seed  uint64
	MaxNS int64
}

// skewClocks draws the offsets, in topology-rank order.
func (t *toolTree) skewClocks(c ClockSkew) {
	if c.MaxNS <= 0 {
		return
	}
	r := rand.New(rand.NewPCG(c.Seed, 0x5eed))
	for i := range t.info {
		if p := &t.info[i]; p.kind != procFrontEnd {
			p.offset = r.Int64N(2*c.MaxNS+1) - c.MaxNS
		}
	}
}

// TreeNode is one tool process as a user sees it.
type TreeNode struct {
	Name     string // "daemon of I/O node 3", "comm node 1", "front-end"
	Kind     string // "daemon", "comm", "front-end"
	Index    int    // the I/O node of a daemon, the number of a comm node
	Parent   string // "" for the front-end
	Depth    int    // hops to the front-end
	OffsetNS int64  // its clock's true offset from the front-end's
	BusyNS   int64  // virtual ns it spent handling messages
}

// TreeNodes lists the tool processes in the topology's order (internal nodes from the
// front-end's children down, breadth-first; the front-end last).
func (a *App) TreeNodes() []TreeNode {
	t := a.tree
	nb := t.topo.Backends()
	out := make([]TreeNode, 0, len(t.info))
	for r := nb; r < t.topo.Size(); r++ {
		p := t.proc(r)
		n := TreeNode{Name: t.name(r), Kind: [...]string{"daemon", "comm", "front-end"}[p.kind], Index: p.index,
			OffsetNS: p.offset, BusyNS: t.drv.Busy(r)}
		for q := t.topo.Parent(r); q >= 0; q = t.topo.Parent(q) {
			if n.Depth == 0 {
				n.Parent = t.name(q)
			}
			n.Depth++
		}
		out = append(out, n)
	}
	return out
}
