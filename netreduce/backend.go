package netreduce

import "sync/atomic"

// BackendHandler is the behaviour of the back-ends of a standalone tree: it is called with
// each downstream data packet that reaches back-end rank and returns the packets that
// back-end sends up on the same stream (nil: nothing). It must not keep p. In-process it
// is called on the caller's goroutine, back-ends in the tree's deterministic order; over
// TCP, concurrently for different back-ends.
type BackendHandler func(rank int, p *Packet) ([]*Packet, error)

// backendHost runs the back-ends of the tree that live in this process. Back-ends are not
// goroutines: the node (or connection) that delivers a message to one runs it inline, so
// 65,536 of them cost a few bytes each.
type backendHost struct {
	topo    *Topology
	handler BackendHandler
	dead    []atomic.Bool
	errs    func(rank int, err error)
}

func newBackendHost(topo *Topology, h BackendHandler, errs func(int, error)) *backendHost {
	return &backendHost{topo: topo, handler: h, errs: errs, dead: make([]atomic.Bool, topo.Backends())}
}

// Deliver handles one message addressed to a back-end; reply carries what it sends up.
func (h *backendHost) Deliver(m Msg, reply func(Msg)) {
	rank := int(m.To)
	if !h.topo.IsBackend(rank) || h.dead[rank].Load() {
		return
	}
	parent := int32(h.topo.Parent(rank))
	switch m.Kind {
	case MsgPing:
		reply(Msg{Kind: MsgPong, From: m.To, To: parent, Seq: m.Seq})
	case MsgData:
		if m.Packet != nil {
			h.data(rank, parent, m, reply)
		}
	}
}

func (h *backendHost) data(rank int, parent int32, m Msg, reply func(Msg)) {
	if h.handler == nil {
		return
	}
	outs, err := h.handler(rank, m.Packet)
	if err != nil {
		if h.errs != nil {
			h.errs(rank, err)
		}
		return
	}
	for _, p := range outs {
		p.Stream, p.Src, p.Count, p.Reduced = m.Stream, int32(rank), 1, false
		if p.Tag == 0 {
			p.Tag = m.Packet.Tag
		}
		if p.Time < m.Packet.Time {
			p.Time = m.Packet.Time
		}
		reply(Msg{Kind: MsgData, From: int32(rank), To: parent, Stream: m.Stream, Packet: p})
	}
}

func (h *backendHost) kill(rank int) bool { return !h.dead[rank].Swap(true) }
