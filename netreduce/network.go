package netreduce

import (
	"os"
	"strings"
	"sync"
	"time"
)

// Options configure a Network.
type Options struct {
	Transport Transport      // default InProcess{}
	Backend   BackendHandler // standalone back-end behaviour; nil: back-ends answer nothing
	// ResultQueue bounds the packets buffered per stream at the front-end over TCP
	// (default 1024); in-process, the caller's goroutine runs the tree, so the buffer
	// takes what one call produced.
	ResultQueue int
}

// InProcess runs the tree inside the calling process on the deterministic Driver the
// runtime steps a job's tool tree with: no goroutine per node, no queue between them;
// each call that sends (a stream's packet, its creation, a barrier, a kill) steps the
// whole tree, on the caller's goroutine, until nothing is left to do.
type InProcess struct{}

// Start implements Transport; an in-process tree is no fabric: New runs it on a Driver.
func (InProcess) Start(*TreeConfig) (Fabric, error) {
	return nil, errorf("an in-process tree runs on a Driver, not as a fabric")
}

// Network is a tree as seen from its front-end: the MRNet network object.
type Network struct {
	topo   *Topology
	fab    Fabric  // over a transport; nil in-process
	drv    *Driver // in-process: the tree's processes; nil over a transport
	dmu    sync.Mutex
	dead   []bool // in-process: by rank, internal nodes killed
	host   *backendHost
	remote bool       // the back-ends are processes the fabric reaches (TCP.Backend)
	feUp   chan []Msg // from the front-end's children
	feDown chan []Msg // from the application
	fe     *runner
	done   chan struct{}
	wg     sync.WaitGroup
	qlen   int
	close  sync.Once

	mu         sync.Mutex
	streams    map[uint32]*Stream
	nextID     uint32
	lost       *RankSet
	pings      map[uint64]chan struct{}
	seq        uint64
	clock      int64
	backendErr error
	closed     bool
}

// LoadTopology reads a generator spec ("b:4^3", "k:2@16", ...) or an MRNet topology file.
func LoadTopology(spec string) (*Topology, error) {
	if kind, _, ok := strings.Cut(spec, ":"); ok {
		if _, gen := generators[kind]; gen {
			return Generate(spec)
		}
	}
	f, err := os.Open(spec)
	if err != nil {
		return nil, errorf("topology %q is neither a generator spec (b:, k:, g:, flat:, bgl:) nor a readable file: %w", spec, err)
	}
	defer f.Close()
	return ParseTopology(spec, f)
}

// New instantiates the tree described by topo.
func New(topo *Topology, opts Options) (*Network, error) {
	if opts.Transport == nil {
		opts.Transport = InProcess{}
	}
	if opts.ResultQueue <= 0 {
		opts.ResultQueue = 1024
	}
	n := &Network{topo: topo, feUp: make(chan []Msg, 64), feDown: make(chan []Msg, 64), done: make(chan struct{}), qlen: opts.ResultQueue,
		streams: map[uint32]*Stream{}, nextID: 1, lost: NewRankSet(topo.Backends()), pings: map[uint64]chan struct{}{}}
	n.host = newBackendHost(topo, opts.Backend, n.backendFailed)
	if _, ok := opts.Transport.(InProcess); ok {
		n.dead = make([]bool, topo.Size())
		n.drv = NewDriver(topo, func(r int) Process { return inprocNode{n, NewNode(topo, r)} }, nil, n.host,
			func(m Msg, _ int64) { n.toApp(0, []Msg{m}) })
		return n, nil
	}
	fab, err := opts.Transport.Start(&TreeConfig{Topo: topo, FrontEnd: n.feUp, Backends: n.host})
	if err != nil {
		return nil, err
	}
	n.fab = fab
	var host BackendSink = n.host
	toApp := n.toApp
	if h, ok := fab.(interface{ HostsBackends() bool }); ok && h.HostsBackends() {
		// The back-ends are processes of their own: their messages take their links, and
		// what is left for a back-end whose link is gone is dropped, not the app's.
		host, n.remote = nil, true
		toApp = func(to int, b []Msg) {
			if to < 0 {
				n.toApp(to, b)
			}
		}
	}
	n.fe = newRunner(NewNode(topo, topo.Root()), host, n.routeFE, toApp)
	n.wg.Add(1)
	go func() {
		defer n.wg.Done()
		n.fe.loop(n.feUp, n.feDown, n.done)
	}()
	return n, nil
}

// Topology returns the tree's shape.
func (n *Network) Topology() *Topology { return n.topo }

// Backends is the number of back-ends.
func (n *Network) Backends() int { return n.topo.Backends() }

func (n *Network) routeFE(to int, up bool) chan<- []Msg {
	if to < 0 {
		return nil
	}
	return n.fab.Route(to, up)
}

// toApp runs on the front-end goroutine with what the tree sends above the front-end.
func (n *Network) toApp(_ int, batch []Msg) {
	for _, m := range batch {
		switch m.Kind {
		case MsgData:
			if s := n.stream(m.Stream); s != nil {
				s.q.push(m.Packet, n.done)
			}
		case MsgLost:
			n.mu.Lock()
			for i := 0; i+1 < len(m.Ranks); i += 2 {
				for r := m.Ranks[i]; r < m.Ranks[i+1]; r++ {
					n.lost.Add(int(r))
				}
			}
			n.mu.Unlock()
		case MsgFault:
			if s := n.stream(m.Stream); s != nil {
				s.fail(&FilterError{Stream: m.Stream, Rank: int(m.Origin), Msg: m.Text})
			}
		case MsgPong:
			n.mu.Lock()
			if ch := n.pings[m.Seq]; ch != nil {
				delete(n.pings, m.Seq)
				close(ch)
			}
			n.mu.Unlock()
		}
	}
}

func (n *Network) stream(id uint32) *Stream {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.streams[id]
}

func (n *Network) backendFailed(rank int, err error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.backendErr == nil {
		n.backendErr = errorf("back-end %d: %w", rank, err)
	}
}

// BackendErr is the first error a back-end handler returned, if any.
func (n *Network) BackendErr() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.backendErr
}

// post hands app-originated messages to the front-end node.
func (n *Network) post(ms ...Msg) error {
	for i := range ms {
		ms[i].From, ms[i].To = -1, int32(n.topo.Root())
	}
	if n.drv != nil {
		return n.step(ms...)
	}
	select {
	case n.feDown <- ms:
		return nil
	case <-n.done:
		return ErrClosed
	}
}

// Lost returns the back-ends reported lost so far, ascending.
func (n *Network) Lost() []int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.lost.List()
}

// Clock is the front-end's virtual time in ns.
func (n *Network) Clock() int64 {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.clock
}

// Sync waits until every node has processed everything sent before it (a ping that
// travels down every live link and a pong reduced back up). Packets the back-ends sent
// in reply are at the front-end when it returns.
func (n *Network) Sync() error { return n.AdvanceTo(n.Clock()) }

// AdvanceTo moves the tree's virtual clock to t (ns), lets timeout waves that expire by
// then close, and waits as Sync does.
func (n *Network) AdvanceTo(t int64) error {
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return ErrClosed
	}
	n.seq++
	seq := n.seq
	n.clock = max(n.clock, t)
	t = n.clock
	ch := make(chan struct{})
	n.pings[seq] = ch
	n.mu.Unlock()
	if err := n.post(Msg{Kind: MsgPing, Seq: seq, Time: t}); err != nil {
		return err
	}
	select {
	case <-ch:
		return nil
	case <-n.done:
		return ErrClosed
	}
}

// Kill makes a back-end or internal node fail abruptly (failure injection, and what the
// runtime calls when a daemon is gone). Its parent drops it from every wave and the
// front-end learns which back-ends were lost.
func (n *Network) Kill(rank int) error {
	switch {
	case n.topo.IsBackend(rank) && n.remote:
		return n.fab.Kill(rank)
	case n.topo.IsBackend(rank):
		if !n.host.kill(rank) {
			return nil
		}
		parent := n.topo.Parent(rank)
		return n.toNode(parent, Msg{Kind: MsgDied, From: int32(rank), To: int32(parent)})
	case rank >= 0 && rank < n.topo.Root() && n.drv != nil:
		n.dmu.Lock()
		first := !n.dead[rank]
		n.dead[rank] = true
		n.dmu.Unlock()
		if !first {
			return nil
		}
		parent := n.topo.Parent(rank)
		return n.toNode(parent, Msg{Kind: MsgDied, From: int32(rank), To: int32(parent)})
	case rank >= 0 && rank < n.topo.Root():
		return n.fab.Kill(rank)
	}
	return errorf("kill rank %d: not a back-end or internal node", rank)
}

// toNode delivers a message to an internal node (or the front-end) from outside the tree.
func (n *Network) toNode(rank int, m Msg) error {
	if n.drv != nil {
		return n.step(m)
	}
	var ch chan<- []Msg
	if rank == n.topo.Root() {
		ch = n.feUp
	} else if ch = n.fab.Route(rank, true); ch == nil {
		return nil
	}
	select {
	case ch <- []Msg{m}:
		return nil
	case <-n.done:
		return ErrClosed
	}
}

// Close closes every stream, waits (briefly) for the tree to take that in, and stops it.
func (n *Network) Close() error {
	n.close.Do(func() {
		n.mu.Lock()
		ids := make([]uint32, 0, len(n.streams))
		for id := range n.streams {
			ids = append(ids, id)
		}
		n.mu.Unlock()
		for _, id := range ids {
			n.post(Msg{Kind: MsgClose, Stream: id})
		}
		if n.drv != nil {
			n.Sync()
		} else {
			synced := make(chan error, 1)
			go func() { synced <- n.Sync() }()
			select {
			case <-synced:
			case <-time.After(2 * time.Second):
			}
		}
		n.mu.Lock()
		n.closed = true
		n.mu.Unlock()
		close(n.done)
		n.wg.Wait()
		if n.fab != nil {
			n.fab.Close()
		}
	})
	return nil
}

// step runs the in-process tree: each message enters its node at once, and everything
// that follows is stepped before it returns.
func (n *Network) step(ms ...Msg) error {
	n.mu.Lock()
	closed := n.closed
	n.mu.Unlock()
	if closed {
		return ErrClosed
	}
	n.dmu.Lock()
	defer n.dmu.Unlock()
	for _, m := range ms {
		n.drv.Post(m, 0)
	}
	return nil
}

// inprocNode is an in-process tree node: a Node that drops everything once killed.
type inprocNode struct {
	n    *Network
	node *Node
}

func (p inprocNode) Step(m Msg) []Msg {
	if p.n.dead[p.node.rank] {
		return nil
	}
	p.node.Step(m)
	return p.node.Take()
}

// ErrTimeout is returned by RecvTimeout when the virtual timeout passes with no packet.
var ErrTimeout = errorf("recv: timeout")

// ErrQuiet is returned by RecvQuiet when no packet is pending and the tree is quiet.
var ErrQuiet = errorf("recv: no packet pending and the tree is quiet (no wave can complete)")
