package netreduce

import "slices"

// Node is the protocol of one tree node (front-end or internal) as a pure state machine:
// Step feeds it one message, Take returns what it wants sent. It has no goroutines, no
// clock of its own and no I/O; drivers (the transports) own those.
type Node struct {
	topo    *Topology
	rank    int
	parent  int // -1 at the front-end: upstream output is addressed to the application
	kidSlot map[int32]int
	kids    []int
	dead    []bool
	streams map[uint32]*nstream
	pings   map[uint64]*pingWait
	clock   int64
	out     []Msg
}

type pingWait struct {
	waiting map[int]bool // child slots that have not answered
}

// NewNode builds the state machine of rank in topo.
func NewNode(topo *Topology, rank int) *Node {
	n := &Node{topo: topo, rank: rank, parent: topo.Parent(rank), kids: topo.Children(rank),
		streams: map[uint32]*nstream{}, pings: map[uint64]*pingWait{}}
	n.kidSlot = make(map[int32]int, len(n.kids))
	for i, k := range n.kids {
		n.kidSlot[int32(k)] = i
	}
	n.dead = make([]bool, len(n.kids))
	return n
}

// Rank is the node's rank.
func (n *Node) Rank() int { return n.rank }

// Parent is the rank of the node's parent (-1 at the front-end).
func (n *Node) Parent() int { return n.parent }

// Children are the ranks of the node's children; the caller must not change them.
func (n *Node) Children() []int { return n.kids }

// Clock is the node's virtual time in ns.
func (n *Node) Clock() int64 { return n.clock }

// Take returns the messages produced since the last Take; the caller owns the slice.
func (n *Node) Take() []Msg {
	out := n.out
	n.out = nil
	return out
}

func (n *Node) up(m Msg) {
	m.From, m.To = int32(n.rank), int32(n.parent)
	n.out = append(n.out, m)
}

func (n *Node) down(to int, m Msg) {
	m.From, m.To = int32(n.rank), int32(to)
	n.out = append(n.out, m)
}

// Step handles one message.
func (n *Node) Step(m Msg) {
	switch m.Kind {
	case MsgData:
		if m.Packet == nil {
			return
		}
		if int(m.From) == n.parent {
			n.dataDown(m)
		} else {
			n.dataUp(m)
		}
	case MsgOpen:
		n.open(m.Spec)
	case MsgClose:
		n.closeStream(m.Stream)
	case MsgDied:
		n.childDied(m.From)
	case MsgLost:
		n.up(m)
	case MsgFault:
		n.fault(m)
	case MsgPing:
		n.ping(m)
	case MsgPong:
		n.pong(m)
	}
}

func (n *Node) dataDown(m Msg) {
	s := n.streams[m.Stream]
	if s == nil || s.failed {
		return
	}
	pkts := []*Packet{m.Packet}
	if s.down != nil {
		var err error
		if pkts, err = s.down.Filter(pkts); err != nil {
			n.failStream(s, n.rank, err.Error())
			return
		}
	}
	for _, p := range pkts {
		for i, k := range s.kids {
			if !n.dead[s.slots[i]] {
				n.down(k, Msg{Kind: MsgData, Stream: s.spec.ID, Packet: p})
			}
		}
	}
}

func (n *Node) dataUp(m Msg) {
	slot, ok := n.kidSlot[m.From]
	if !ok {
		return
	}
	s := n.streams[m.Stream]
	if s == nil || s.failed {
		return
	}
	i := s.index(slot)
	if i < 0 {
		return
	}
	if m.Packet.Time > n.clock {
		n.clock = m.Packet.Time
	}
	s.arrive(n, i, m.Packet)
}

func (n *Node) open(spec *StreamSpec) {
	if spec == nil || n.streams[spec.ID] != nil {
		return
	}
	s, err := newNstream(n, spec)
	if err != nil {
		n.streams[spec.ID] = &nstream{spec: spec, failed: true}
		n.up(Msg{Kind: MsgFault, Stream: spec.ID, Origin: int32(n.rank), Text: err.Error()})
		return
	}
	n.streams[spec.ID] = s
	for i, k := range s.kids {
		if !n.dead[s.slots[i]] {
			n.down(k, Msg{Kind: MsgOpen, Stream: spec.ID, Spec: spec})
		}
	}
}

func (n *Node) closeStream(id uint32) {
	s := n.streams[id]
	if s == nil {
		return
	}
	delete(n.streams, id)
	for i, k := range s.kids {
		if !n.dead[s.slots[i]] {
			n.down(k, Msg{Kind: MsgClose, Stream: id})
		}
	}
	s.release()
}

func (n *Node) childDied(from int32) {
	slot, ok := n.kidSlot[from]
	if !ok || n.dead[slot] {
		return
	}
	n.dead[slot] = true
	lo, hi := n.topo.BackendRange(int(from))
	n.up(Msg{Kind: MsgLost, Ranks: []int32{int32(lo), int32(hi)}})
	for _, id := range n.streamIDs() {
		s := n.streams[id]
		if i := s.index(slot); i >= 0 && !s.failed {
			s.died(n, i)
		}
	}
	for _, seq := range n.pingSeqs() {
		n.answered(seq, slot)
	}
	// A node none of whose children live has nothing left to send: it leaves its parent's
	// waves as a dead child does, or they would wait for it forever.
	if n.parent >= 0 && !slices.Contains(n.dead, false) {
		n.up(Msg{Kind: MsgDied})
	}
}

func (n *Node) fault(m Msg) {
	s := n.streams[m.Stream]
	if s == nil || s.failed {
		return
	}
	n.failStream(s, int(m.Origin), m.Text)
}

func (n *Node) failStream(s *nstream, origin int, text string) {
	s.failed = true
	s.release()
	n.up(Msg{Kind: MsgFault, Stream: s.spec.ID, Origin: int32(origin), Text: text})
}

func (n *Node) ping(m Msg) {
	if m.Time > n.clock {
		n.clock = m.Time
	}
	w := &pingWait{waiting: map[int]bool{}}
	for slot, k := range n.kids {
		if !n.dead[slot] {
			w.waiting[slot] = true
			n.down(k, Msg{Kind: MsgPing, Seq: m.Seq, Time: m.Time})
		}
	}
	n.pings[m.Seq] = w
	n.checkPing(m.Seq)
}

func (n *Node) pong(m Msg) {
	if slot, ok := n.kidSlot[m.From]; ok {
		n.answered(m.Seq, slot)
	}
}

func (n *Node) answered(seq uint64, slot int) {
	if w := n.pings[seq]; w != nil {
		delete(w.waiting, slot)
		n.checkPing(seq)
	}
}

func (n *Node) checkPing(seq uint64) {
	if w := n.pings[seq]; w != nil && len(w.waiting) == 0 {
		delete(n.pings, seq)
		// Expired timeout waves close only now, after every child has flushed its own:
		// virtual time advances leaves first, so a wave that times out below still
		// reaches a parent whose deadline is the same.
		for _, id := range n.streamIDs() {
			if s := n.streams[id]; !s.failed {
				s.pump(n)
			}
		}
		n.up(Msg{Kind: MsgPong, Seq: seq})
	}
}

// streamIDs and pingSeqs give a deterministic order for work that touches every entry.
func (n *Node) streamIDs() []uint32 {
	ids := make([]uint32, 0, len(n.streams))
	for id := range n.streams {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

func (n *Node) pingSeqs() []uint64 {
	seqs := make([]uint64, 0, len(n.pings))
	for s := range n.pings {
		seqs = append(seqs, s)
	}
	slices.Sort(seqs)
	return seqs
}
