package netreduce

// nstream is one stream's state on one node: the children that serve it, a FIFO of
// packets per child, the synchronization state and the filter instances.
type nstream struct {
	spec   *StreamSpec
	kids   []int // ranks of the children in the stream
	slots  []int // their slots among the node's children
	bySlot []int // node child slot -> index in kids, -1 when not in the stream
	live   []bool
	queues [][]*Packet
	// nonEmpty counts children with queued packets; liveEmpty live children with none.
	// waitforall's wave is ready exactly when liveEmpty == 0 && nonEmpty > 0.
	nonEmpty, liveEmpty int
	waveStart           int64 // virtual time the oldest queued packet arrived
	up, down            Transform
	fin                 Finalizer
	failed              bool
}

func newNstream(n *Node, spec *StreamSpec) (*nstream, error) {
	s := &nstream{spec: spec, bySlot: make([]int, len(n.kids))}
	for slot, k := range n.kids {
		s.bySlot[slot] = -1
		lo, hi := n.topo.BackendRange(k)
		if spec.anyIn(lo, hi) {
			s.bySlot[slot] = len(s.kids)
			s.kids = append(s.kids, k)
			s.slots = append(s.slots, slot)
		}
	}
	s.live = make([]bool, len(s.kids))
	s.queues = make([][]*Packet, len(s.kids))
	for i, slot := range s.slots {
		s.live[i] = !n.dead[slot]
		if s.live[i] {
			s.liveEmpty++
		}
	}
	info := NodeInfo{Rank: n.rank, Stream: spec.ID, FrontEnd: n.parent < 0}
	up, err := NewTransform(spec.Up, info)
	if err != nil {
		return nil, err
	}
	s.up = up
	if n.parent < 0 {
		s.fin, _ = up.(Finalizer)
	}
	if spec.Down != nil {
		if s.down, err = NewTransform(spec.Down, info); err != nil {
			up.Close()
			return nil, err
		}
	}
	return s, nil
}

func (s *nstream) index(slot int) int {
	if s.bySlot == nil {
		return -1
	}
	return s.bySlot[slot]
}

func (s *nstream) release() {
	if s.up != nil {
		s.up.Close()
		s.up = nil
	}
	if s.down != nil {
		s.down.Close()
		s.down = nil
	}
	s.queues = nil
}

func (s *nstream) arrive(n *Node, i int, p *Packet) {
	if s.spec.Sync == DontWait {
		s.emit(n, []*Packet{p})
		return
	}
	if s.nonEmpty == 0 {
		s.waveStart = n.clock
	}
	if len(s.queues[i]) == 0 {
		s.nonEmpty++
		if s.live[i] {
			s.liveEmpty--
		}
	}
	s.queues[i] = append(s.queues[i], p)
	s.pump(n)
}

// died drops child i from the waves; what it already sent still counts.
func (s *nstream) died(n *Node, i int) {
	if !s.live[i] {
		return
	}
	s.live[i] = false
	if len(s.queues[i]) == 0 {
		s.liveEmpty--
	}
	s.pump(n)
}

func (s *nstream) ready(clock int64) bool {
	if s.nonEmpty == 0 {
		return false
	}
	if s.liveEmpty == 0 {
		return true
	}
	return s.spec.Sync == Timeout && clock >= s.waveStart+s.spec.Timeout
}

// pump emits every wave that is ready.
func (s *nstream) pump(n *Node) {
	for !s.failed && s.ready(n.clock) {
		s.emit(n, s.popWave())
		if s.nonEmpty > 0 {
			s.waveStart = n.clock
		}
	}
}

func (s *nstream) popWave() []*Packet {
	wave := make([]*Packet, 0, s.nonEmpty)
	for i, q := range s.queues {
		if len(q) == 0 {
			continue
		}
		wave = append(wave, q[0])
		q[0] = nil
		if len(q) == 1 {
			s.queues[i] = q[:0]
			s.nonEmpty--
			if s.live[i] {
				s.liveEmpty++
			}
		} else {
			s.queues[i] = q[1:]
		}
	}
	return wave
}

// emit runs the transformation filter over one wave and sends the result up.
func (s *nstream) emit(n *Node, wave []*Packet) {
	outs, err := s.up.Filter(wave)
	if err != nil {
		n.failStream(s, n.rank, err.Error())
		return
	}
	var count int32
	var tmax int64
	first, last := sentSpan(wave)
	for _, p := range wave {
		count += p.Count
		tmax = max(tmax, p.Time)
	}
	for _, o := range outs {
		if !contains(wave, o) {
			o.Stream, o.Tag, o.Src, o.Time, o.Reduced = s.spec.ID, wave[0].Tag, -1, tmax, true
			o.SentFirst, o.SentLast = first, last
			if o.Count == 0 {
				o.Count = count
			}
		}
		if s.fin != nil {
			if o, err = s.fin.Finalize(o); err != nil {
				n.failStream(s, n.rank, err.Error())
				return
			}
		}
		n.up(Msg{Kind: MsgData, Stream: s.spec.ID, Packet: o})
	}
}

func contains(wave []*Packet, p *Packet) bool {
	for _, w := range wave {
		if w == p {
			return true
		}
	}
	return false
}

// sentSpan is the earliest and latest send time of the packets of a wave, those that
// carry one (a filter's output carries the span of every packet merged into it).
func sentSpan(wave []*Packet) (first, last int64) {
	for _, p := range wave {
		if p.SentLast == 0 {
			continue
		}
		if first == 0 || p.SentFirst < first {
			first = p.SentFirst
		}
		last = max(last, p.SentLast)
	}
	return first, last
}
