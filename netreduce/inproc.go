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
}

type inprocFabric struct {
	topo    *Topology
	fe      chan<- []Msg
	up      []chan []Msg // by rank, traffic from children; nil for back-ends and the front-end
	down    []chan []Msg // by rank, traffic from the parent
	runners []*runner
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
		runners: make([]*runner, topo.Size())}
	for _, r := range topo.Internal() {
		f.up[r], f.down[r] = make(chan []Msg, q), make(chan []Msg, q)
		f.runners[r] = newRunner(NewNode(topo, r), cfg.Backends, f.route, nil)
	}
	for _, r := range topo.Internal() {
		f.wg.Add(1)
		go func(rn *runner, up, down chan []Msg) {
			defer f.wg.Done()
			rn.loop(up, down, f.done)
		}(f.runners[r], f.up[r], f.down[r])
	}
	return f, nil
}

// route gives the inbox of destination to; nil (drop) for a killed node.
func (f *inprocFabric) route(to int, up bool) chan<- []Msg {
	if to == f.topo.Root() {
		return f.fe
	}
	if to < 0 || to >= len(f.runners) || f.runners[to] == nil || f.runners[to].killed.Load() {
		return nil
	}
	if up {
		return f.up[to]
	}
	return f.down[to]
}

// Route implements Fabric.
func (f *inprocFabric) Route(to int, up bool) chan<- []Msg { return f.route(to, up) }

func (f *inprocFabric) Kill(rank int) error {
	if rank < 0 || rank >= len(f.runners) || f.runners[rank] == nil {
		return fmt.Errorf("netreduce: kill rank %d: not an internal node", rank)
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
