package netreduce

import (
	"errors"
	"sync/atomic"
)

// Transport instantiates a tree's internal nodes and carries batches of messages to them.
// The front-end and the back-ends always live in the calling process; a transport decides
// where the internal nodes run (goroutines, `dpclsh comm` processes) and how batches reach
// them. Every transport runs the same Node state machine and passes the same conformance
// suite.
type Transport interface {
	Start(cfg *TreeConfig) (Fabric, error)
}

// TreeConfig is what a transport needs to bring a tree up.
type TreeConfig struct {
	Topo *Topology
	// FrontEnd receives the batches the tree addresses to the front-end, in order per link.
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
	// Route returns the queue of internal node `to` (a child of the front-end, or the
	// parent of back-ends hosted here); sends block while it is full. nil means the node
	// is gone and what is sent to it is dropped.
	Route(to int) chan<- []Msg
	// Kill stops internal node rank abruptly, as a crash would (failure injection).
	Kill(rank int) error
	// Close stops every internal node.
	Close() error
}

// ErrClosed is returned by operations on a closed network.
var ErrClosed = errors.New("netreduce: network closed")

// runner drives one Node: it steps inbound batches, runs back-end children inline, and
// queues the output, batched per destination, on the channels route picks.
type runner struct {
	node    *Node
	host    BackendSink // nil when this node's back-ends are in another process
	route   func(to int) chan<- []Msg
	inline  func(to int, batch []Msg) // destinations route has no channel for
	pending map[int][]Msg
	order   []int
	outq    []outBatch
	killed  atomic.Bool
}

type outBatch struct {
	ch    chan<- []Msg
	batch []Msg
}

// maxOut bounds the batches a node holds while its destinations are full; past it the node
// stops reading, which is how back-pressure propagates.
const maxOut = 64

func newRunner(node *Node, host BackendSink, route func(int) chan<- []Msg, inline func(int, []Msg)) *runner {
	return &runner{node: node, host: host, route: route, inline: inline, pending: map[int][]Msg{}}
}

// handle steps one inbound batch and queues everything it produced.
func (r *runner) handle(batch []Msg) {
	for i := range batch {
		r.node.Step(batch[i])
	}
	r.flush()
}

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
		if ch := r.route(to); ch != nil {
			r.outq = append(r.outq, outBatch{ch, b})
		} else if r.inline != nil {
			r.inline(to, b)
		}
	}
	r.order = r.order[:0]
}

// loop runs the node until done closes or in is closed. While output is queued it keeps
// reading input (so two nodes sending to each other cannot deadlock) up to maxOut batches.
func (r *runner) loop(in <-chan []Msg, done <-chan struct{}) {
	for {
		if r.killed.Load() {
			r.outq = nil
		}
		if len(r.outq) == 0 {
			select {
			case b, ok := <-in:
				if !ok {
					return
				}
				r.take(b)
			case <-done:
				return
			}
			continue
		}
		h := r.outq[0]
		var rd <-chan []Msg
		if len(r.outq) < maxOut {
			rd = in
		}
		select {
		case h.ch <- h.batch:
			r.outq[0] = outBatch{}
			r.outq = r.outq[1:]
		case b, ok := <-rd:
			if !ok {
				return
			}
			r.take(b)
		case <-done:
			return
		}
	}
}

func (r *runner) take(b []Msg) {
	if !r.killed.Load() {
		r.handle(b)
	}
}
