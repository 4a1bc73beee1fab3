package netreduce

import (
	"sync/atomic"
)

// Transport instantiates a tree's internal nodes and carries batches of messages to them.
// The front-end lives in the calling process, and the back-ends too unless the transport
// starts them as processes (TCP.Backend); a transport decides where the internal nodes
// run (goroutines, `dpclsh comm` processes) and how batches reach them. Every transport runs the same Node state machine and passes the same conformance
// suite.
type Transport interface {
	Start(cfg *TreeConfig) (Fabric, error)
}

// TreeConfig is what a transport needs to bring a tree up.
type TreeConfig struct {
	Topo *Topology
	// FrontEnd receives the batches the tree's nodes address to the front-end.
	FrontEnd chan<- []Msg
	// Backends runs messages addressed to back-ends; its replies go back to their parents.
	Backends BackendSink
	// Filters lists the filter specs that nodes may need before any stream exists (for
	// transports that ship code ahead of time); may be empty.
	Filters []*FilterSpec
}

// BackendSink runs the back-ends hosted by this process.
type BackendSink interface {
	Deliver(m Msg, reply func(Msg))
}

// Fabric is a started tree as seen from the front-end's process.
type Fabric interface {
	// Route returns the inbox of internal node `to` (a child of the front-end, or the
	// parent of back-ends hosted here) for upstream (from a child) or downstream (from the
	// parent) traffic; sends block while it is full. nil means the node is gone and what
	// is sent to it is dropped.
	Route(to int, up bool) chan<- []Msg
	// Kill stops internal node rank abruptly, as a crash would (failure injection).
	Kill(rank int) error
	// Close stops every internal node.
	Close() error
}

// ErrClosed is returned by operations on a closed network.
var ErrClosed = errorf("network closed")

// runner drives one Node: it steps inbound batches, runs back-end children inline, and
// queues the output, batched per destination, on the queues route picks.
//
// Every node has two inboxes: from its parent (downstream traffic) and from its children
// (upstream traffic). It stops reading its children while its upstream output is backed
// up, and its parent while either output is backed up (a downstream packet can make
// back-ends answer upstream). Upstream waits then only ever depend on nodes nearer the
// front-end and downstream waits on nodes nearer the back-ends, so bounded queues cannot
// form a cycle of waits: back-pressure reaches the sender and nothing deadlocks.
type runner struct {
	node    *Node
	host    BackendSink // nil when this node's back-ends are in another process
	route   func(to int, up bool) chan<- []Msg
	inline  func(to int, batch []Msg) // destinations route has no queue for
	pending map[int][]Msg
	order   []int
	upQ     []outBatch
	downQ   []outBatch
	killed  atomic.Bool
}

type outBatch struct {
	ch    chan<- []Msg
	batch []Msg
}

// maxOut bounds the batches a node holds per direction while its destinations are full.
const maxOut = 64

func newRunner(node *Node, host BackendSink, route func(int, bool) chan<- []Msg, inline func(int, []Msg)) *runner {
	return &runner{node: node, host: host, route: route, inline: inline, pending: map[int][]Msg{}}
}

// handle steps one inbound batch and queues everything it produced.
func (r *runner) handle(batch []Msg) {
	if r.killed.Load() {
		return
	}
	for i := range batch {
		r.deliver(batch[i])
	}
	r.flush()
}

func (r *runner) deliver(m Msg) { r.node.Step(m) }

// flush queues what the node produced, batched per destination; messages for back-ends
// hosted here run inline, and their replies step the node again.
func (r *runner) flush() {
	topo := r.node.topo
	for len(r.node.out) > 0 {
		out := r.node.Take()
		for i := range out {
			m := out[i]
			to := int(m.To)
			if r.host != nil && to >= 0 && topo.IsBackend(to) {
				r.host.Deliver(m, r.node.Step)
				continue
			}
			if _, ok := r.pending[to]; !ok {
				r.order = append(r.order, to)
			}
			r.pending[to] = append(r.pending[to], m)
		}
	}
	for _, to := range r.order {
		b := r.pending[to]
		delete(r.pending, to)
		up := to == r.node.parent
		if ch := r.route(to, up); ch == nil {
			if r.inline != nil {
				r.inline(to, b)
			}
		} else if up {
			r.upQ = append(r.upQ, outBatch{ch, b})
		} else {
			r.downQ = append(r.downQ, outBatch{ch, b})
		}
	}
	r.order = r.order[:0]
}

// loop runs the node until done closes.
func (r *runner) loop(fromKids, fromParent <-chan []Msg, done <-chan struct{}) {
	for {
		if r.killed.Load() {
			r.upQ, r.downQ = nil, nil
		}
		var upCh, downCh chan<- []Msg
		var upB, downB []Msg
		if len(r.upQ) > 0 {
			upCh, upB = r.upQ[0].ch, r.upQ[0].batch
		}
		if len(r.downQ) > 0 {
			downCh, downB = r.downQ[0].ch, r.downQ[0].batch
		}
		kids, parent := fromKids, fromParent
		if len(r.upQ) >= maxOut {
			kids, parent = nil, nil
		}
		if len(r.downQ) >= maxOut {
			parent = nil
		}
		select {
		case upCh <- upB:
			r.upQ[0] = outBatch{}
			r.upQ = r.upQ[1:]
		case downCh <- downB:
			r.downQ[0] = outBatch{}
			r.downQ = r.downQ[1:]
		case b := <-kids:
			r.handle(b)
		case b := <-parent:
			r.handle(b)
		case <-done:
			return
		}
	}
}
