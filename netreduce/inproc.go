package netreduce

import (
	"fmt"
	"sync"
)

// InProcess runs every internal node as a goroutine of this process with a bounded inbox.
// Back-ends are not goroutines (see backendHost), so a tree of 65,536 back-ends at fan-out
// 4 costs about 22 k goroutines.
type InProcess struct {
	// QueueLen is the capacity of each node's inbox in batches (default 16).
	QueueLen int
	// Separate gives every internal node its own goroutine. By default a node whose
	// children are all back-ends shares its parent's goroutine (unless the parent is the
	// front-end): the bottom level is most of the internal nodes, and a goroutine switch
	// per node per wave costs more than the parallelism it buys on a few cores.
	Separate bool
}

type inprocFabric struct {
	topo    *Topology
	fe      chan<- []Msg
	up      []chan []Msg // by rank, traffic from children; nil for back-ends and the front-end
	down    []chan []Msg // by rank, traffic from the parent
	runners []*runner    // by rank: the runner of the node's goroutine (shared when colocated)
	owner   []int        // by rank: the rank whose goroutine runs the node
	done    chan struct{}
	wg      sync.WaitGroup
	once    sync.Once
}

// Start implements Transport.
func (t InProcess) Start(cfg *TreeConfig) (Fabric, error) {
	q := t.QueueLen
	if q <= 0 {
		q = 16
	}
	topo := cfg.Topo
	f := &inprocFabric{topo: topo, fe: cfg.FrontEnd, done: make(chan struct{}),
		up: make([]chan []Msg, topo.Size()), down: make([]chan []Msg, topo.Size()),
		runners: make([]*runner, topo.Size()), owner: make([]int, topo.Size())}
	for _, r := range topo.Internal() {
		f.owner[r] = r
		if p := topo.Parent(r); !t.Separate && p != topo.Root() && leafParent(topo, r) {
			f.owner[r] = p
		}
	}
	for _, r := range topo.Internal() {
		if f.owner[r] == r {
			f.up[r], f.down[r] = make(chan []Msg, q), make(chan []Msg, q)
			f.runners[r] = newRunner(NewNode(topo, r), cfg.Backends, f.route, nil)
		}
	}
	for _, r := range topo.Internal() {
		if o := f.owner[r]; o != r {
			f.runners[o].colocate(NewNode(topo, r))
			f.runners[r] = f.runners[o]
		}
	}
	for _, r := range topo.Internal() {
		if f.owner[r] != r {
			continue
		}
		f.wg.Add(1)
		go func(rn *runner, up, down chan []Msg) {
			defer f.wg.Done()
			rn.loop(up, down, f.done)
		}(f.runners[r], f.up[r], f.down[r])
	}
	return f, nil
}

// route gives the inbox of destination to; nil (drop) for a killed node. A colocated
// node only ever hears from outside its goroutine upstream (its parent shares it).
func (f *inprocFabric) route(to int, up bool) chan<- []Msg {
	if to == f.topo.Root() {
		return f.fe
	}
	if to < 0 || to >= len(f.runners) || f.runners[to] == nil || f.runners[to].killed.Load() {
		return nil
	}
	o := f.owner[to]
	if up || o != to {
		return f.up[o]
	}
	return f.down[o]
}

// leafParent tells whether every child of r is a back-end.
func leafParent(topo *Topology, r int) bool {
	for _, c := range topo.Children(r) {
		if !topo.IsBackend(c) {
			return false
		}
	}
	return true
}

// Route implements Fabric.
func (f *inprocFabric) Route(to int, up bool) chan<- []Msg { return f.route(to, up) }

func (f *inprocFabric) Kill(rank int) error {
	if rank < 0 || rank >= len(f.runners) || f.runners[rank] == nil {
		return fmt.Errorf("netreduce: kill rank %d: not an internal node", rank)
	}
	if o := f.owner[rank]; o != rank {
		select {
		case f.up[o] <- []Msg{{Kind: msgKill, To: int32(rank)}}:
			return nil
		case <-f.done:
			return ErrClosed
		}
	}
	if f.runners[rank].killed.Swap(true) {
		return nil
	}
	parent := f.topo.Parent(rank)
	if ch := f.route(parent, true); ch != nil {
		select {
		case ch <- []Msg{{Kind: MsgDied, From: int32(rank), To: int32(parent)}}:
		case <-f.done:
			return ErrClosed
		}
	}
	return nil
}

func (f *inprocFabric) Close() error {
	f.once.Do(func() {
		close(f.done)
		f.wg.Wait()
	})
	return nil
}
