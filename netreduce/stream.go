package netreduce

import (
	"context"
	"sync"
	"sync/atomic"
)

// Communicator is a set of back-ends a stream can address.
type Communicator struct {
	net *Network
	set *RankSet // nil: every back-end
}

// Broadcast returns the communicator of every back-end.
func (n *Network) Broadcast() *Communicator { return &Communicator{net: n} }

// Communicator returns the communicator of the given back-ends.
func (n *Network) Communicator(ranks []int) (*Communicator, error) {
	set := NewRankSet(n.topo.Backends())
	for _, r := range ranks {
		if !n.topo.IsBackend(r) {
			return nil, errorf("communicator: rank %d is not a back-end (have 0-%d)", r, n.topo.Backends()-1)
		}
		set.Add(r)
	}
	return &Communicator{net: n, set: set}, nil
}

// CommunicatorSet returns the communicator of the members of set (over this tree's back-ends).
func (n *Network) CommunicatorSet(set *RankSet) (*Communicator, error) {
	if set.Size() != n.topo.Backends() {
		return nil, errorf("communicator: set over %d ranks, tree has %d back-ends", set.Size(), n.topo.Backends())
	}
	return &Communicator{net: n, set: set}, nil
}

// Ranks lists the communicator's back-ends.
func (c *Communicator) Ranks() []int {
	if c.set == nil {
		out := make([]int, c.net.topo.Backends())
		for i := range out {
			out[i] = i
		}
		return out
	}
	return c.set.List()
}

// Len is the number of back-ends.
func (c *Communicator) Len() int {
	if c.set == nil {
		return c.net.topo.Backends()
	}
	return c.set.Count()
}

// StreamConfig chooses a stream's filters.
type StreamConfig struct {
	Up      *FilterSpec // nil: every packet passes unchanged
	Down    *FilterSpec // nil: none
	Sync    SyncMode
	Timeout int64 // virtual ns, for Timeout
}

// Stream is a logical channel between the front-end and a communicator's back-ends.
type Stream struct {
	net  *Network
	spec *StreamSpec
	comm *Communicator
	q    *pktQueue

	failOnce sync.Once
	failed   chan struct{}
	err      error
	closed   atomic.Bool
}

// NewStream creates a stream over c. The filters are checked here: an unknown filter or
// bad parameters fail now, not in the tree.
func (n *Network) NewStream(c *Communicator, cfg StreamConfig) (*Stream, error) {
	if c.net != n {
		return nil, errorf("stream: communicator belongs to another network")
	}
	if cfg.Sync == Timeout && cfg.Timeout < 0 {
		return nil, errorf("stream: negative timeout %d ns", cfg.Timeout)
	}
	for _, f := range []*FilterSpec{cfg.Up, cfg.Down} {
		if f == nil {
			continue
		}
		t, err := NewTransform(f, NodeInfo{Rank: n.topo.Root(), FrontEnd: true})
		if err != nil {
			return nil, err
		}
		t.Close()
	}
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return nil, ErrClosed
	}
	id := n.nextID
	n.nextID++
	spec := &StreamSpec{ID: id, Backends: c.set, Up: cfg.Up, Down: cfg.Down, Sync: cfg.Sync, Timeout: cfg.Timeout}
	qlen := n.qlen
	if n.drv != nil {
		qlen = 0 // the caller's goroutine runs the tree: a full queue would never drain
	}
	s := &Stream{net: n, spec: spec, comm: c, q: newPktQueue(qlen), failed: make(chan struct{})}
	n.streams[id] = s
	n.mu.Unlock()
	if err := n.post(Msg{Kind: MsgOpen, Stream: id, Spec: spec}); err != nil {
		return nil, err
	}
	return s, nil
}

// ID is the stream's unique id.
func (s *Stream) ID() uint32 { return s.spec.ID }

// Communicator is the stream's communicator.
func (s *Stream) Communicator() *Communicator { return s.comm }

func (s *Stream) fail(err error) {
	s.failOnce.Do(func() {
		s.err = err
		close(s.failed)
	})
}

// Err is the stream's failure (a filter error), if any.
func (s *Stream) Err() error {
	select {
	case <-s.failed:
		return s.err
	default:
		return nil
	}
}

// Send multicasts a packet of the given format to the stream's back-ends.
func (s *Stream) Send(tag int, format string, args ...any) error {
	p, err := NewPacket(tag, format, args...)
	if err != nil {
		return err
	}
	return s.SendPacket(p)
}

// SendPacket multicasts p; the tree shares it by reference, so p must not change afterwards.
func (s *Stream) SendPacket(p *Packet) error {
	if p.Tag < FirstAppTag {
		return errorf("send: tag %d is reserved (application tags start at %d)", p.Tag, FirstAppTag)
	}
	if err := s.Err(); err != nil {
		return err
	}
	if s.closed.Load() {
		return errorf("send: stream %d is closed", s.spec.ID)
	}
	p.Stream, p.Src, p.Time = s.spec.ID, -1, s.net.Clock()
	return s.net.post(Msg{Kind: MsgData, Stream: s.spec.ID, Packet: p})
}

// TryRecv returns a pending packet, or nil when there is none; the stream's failure once
// nothing is left to read.
func (s *Stream) TryRecv() (*Packet, error) {
	if p := s.q.pop(); p != nil {
		return p, nil
	}
	return nil, s.Err()
}

// Recv waits for the next packet.
func (s *Stream) Recv(ctx context.Context) (*Packet, error) {
	for {
		if p, err := s.TryRecv(); p != nil || err != nil {
			return p, err
		}
		select {
		case <-s.q.avail:
		case <-s.failed:
			return s.TryRecv()
		case <-s.net.done:
			return nil, ErrClosed
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// RecvTimeout waits at most d virtual ns: when nothing is pending once the tree is quiet,
// the virtual clock advances by d (closing expired timeout waves) and, if still nothing
// came, it returns ErrTimeout.
func (s *Stream) RecvTimeout(d int64) (*Packet, error) {
	if p, err := s.recvAfterSync(); p != nil || err != nil {
		return p, err
	}
	if err := s.net.AdvanceTo(s.net.Clock() + d); err != nil {
		return nil, err
	}
	if p, err := s.TryRecv(); p != nil || err != nil {
		return p, err
	}
	if err := s.net.BackendErr(); err != nil {
		return nil, err
	}
	return nil, ErrTimeout
}

// RecvQuiet returns the next packet, or ErrQuiet when none is pending once the tree has
// processed everything in flight: with only BackendHandler back-ends nothing could come.
func (s *Stream) RecvQuiet() (*Packet, error) {
	if p, err := s.recvAfterSync(); p != nil || err != nil {
		return p, err
	}
	if err := s.net.BackendErr(); err != nil {
		return nil, err
	}
	return nil, ErrQuiet
}

// recvAfterSync returns the first packet to arrive, or what is pending once a barrier
// shows that the tree has processed everything in flight. The barrier runs while the
// packet is awaited, so a packet already on its way costs no extra latency.
func (s *Stream) recvAfterSync() (*Packet, error) {
	if p, err := s.TryRecv(); p != nil || err != nil {
		return p, err
	}
	if s.net.drv != nil {
		// In-process, the barrier runs to its end inside Sync.
		if err := s.net.Sync(); err != nil {
			return nil, err
		}
		return s.TryRecv()
	}
	synced := make(chan error, 1)
	go func() { synced <- s.net.Sync() }()
	for {
		select {
		case <-s.q.avail:
			if p := s.q.pop(); p != nil {
				return p, nil
			}
		case <-s.failed:
			return s.TryRecv()
		case err := <-synced:
			if err != nil {
				return nil, err
			}
			return s.TryRecv()
		}
	}
}

// pktQueue is a stream's packets at the front-end: bounded (over TCP, so that a
// front-end that does not read slows the back-ends down) or not (in-process).
type pktQueue struct {
	mu    sync.Mutex
	items []*Packet
	limit int           // 0: unbounded
	avail chan struct{} // a token when packets may be there
	space chan struct{} // a token when room may have been made
}

func newPktQueue(limit int) *pktQueue {
	return &pktQueue{limit: limit, avail: make(chan struct{}, 1), space: make(chan struct{}, 1)}
}

// push appends p, waiting for room while the queue is full, unless done closes.
func (q *pktQueue) push(p *Packet, done <-chan struct{}) {
	for {
		q.mu.Lock()
		if q.limit == 0 || len(q.items) < q.limit {
			q.items = append(q.items, p)
			q.mu.Unlock()
			signal(q.avail)
			return
		}
		q.mu.Unlock()
		select {
		case <-q.space:
		case <-done:
			return
		}
	}
}

// pop takes the first packet, or nil.
func (q *pktQueue) pop() *Packet {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.items) == 0 {
		return nil
	}
	p := q.items[0]
	q.items[0] = nil
	q.items = q.items[1:]
	if len(q.items) > 0 {
		signal(q.avail)
	}
	signal(q.space)
	return p
}

func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// Close removes the stream from every node.
func (s *Stream) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	s.net.mu.Lock()
	delete(s.net.streams, s.spec.ID)
	s.net.mu.Unlock()
	return s.net.post(Msg{Kind: MsgClose, Stream: s.spec.ID})
}
