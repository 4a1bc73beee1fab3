package runtime

import (
	"fmt"

	"github.com/dpclsh/dpclsh/bgl"
	"github.com/dpclsh/dpclsh/netreduce"
)

// cnMachineLatency is the part of the compute node -> I/O node latency the machine
// already adds to an ais_send packet; the model adds the rest of its cn_latency_ns.
const cnMachineLatency = bgl.TreeLatencyNS

// procKind is what a tool process is: an I/O-node daemon (level 2), a comm node, or the
// front-end.
type procKind uint8

const (
	procDaemon procKind = iota
	procComm
	procFrontEnd
)

// procInfo is what the tree knows of one tool process besides its Process: its kind,
// its number, and its clock's offset.
type procInfo struct {
	kind   procKind
	index  int   // I/O node for a daemon, comm index for a comm node
	offset int64 // its clock reads virtual time + offset
}

// treeFault is a stream failure that reached the front-end: which tree node's filter
// failed, and why.
type treeFault struct {
	Stream uint32
	Node   string
	Text   string
}

// toolTree is the tool's tree inside the simulation: every process above the compute
// nodes is a netreduce.Node, or a Node inside a handler (the daemons, which own theirs;
// the comm nodes and the front-end, which relay commands), stepped by netreduce's
// deterministic Driver in virtual-time order with the costs of the model; what reaches
// the front-end waits there with its arrival time until the machine's clock has passed
// it. It has no goroutines and is used from the goroutine that drives the machine.
//
// The tree keeps its own time: job time (the machine's clock) plus shift, the virtual
// time the job has stood stopped while commands went through the tree. Every time it
// shows (packet stamps, arrivals, protocol clocks) is job time.
type toolTree struct {
	topo    *netreduce.Topology
	costs   *Costs
	drv     *netreduce.Driver
	info    []procInfo // by topology rank - Backends()
	daemons []*Daemon  // by I/O node
	filters map[uint32]bool
	next    uint32 // next stream id
	pings   uint64 // clock pings sent

	shift     int64 // tree time = job time + shift
	stoppedAt int64 // while a command is out: the job time the job stands still at; else -1
	cmd       *cmdRun

	arrived []*netreduce.Packet // at the front-end, in arrival order
	faults  []treeFault
	stamps  map[clockStamp]int64     // OpClock: each hop's send and receive, on its process's clock
	lastAt  []int64                  // per rank: arrival of its latest packet at its daemon (tree time)
	died    map[int]*netreduce.Event // per rank: its end notice
	feBusy  map[uint32]int64
}

// newToolTree builds the processes of topo (level 2 = the parents of the back-ends):
// daemon(io, node) makes I/O node io's daemon around its Node; ios are the I/O nodes of
// the daemons in back-end order (nil: 0, 1, ...).
func newToolTree(topo *netreduce.Topology, ios []int, costs *Costs, daemon func(io int, n *netreduce.Node) *Daemon) *toolTree {
	nb := topo.Backends()
	t := &toolTree{topo: topo, costs: costs, info: make([]procInfo, topo.Size()-nb), stoppedAt: -1,
		filters: map[uint32]bool{}, stamps: map[clockStamp]int64{}, lastAt: make([]int64, nb), died: map[int]*netreduce.Event{}, feBusy: map[uint32]int64{}, next: 1}
	comm := 0
	for r := nb; r < topo.Size(); r++ {
		p := &t.info[r-nb]
		switch {
		case r == topo.Root():
			p.kind = procFrontEnd
		case topo.IsBackend(topo.Children(r)[0]):
			p.kind = procDaemon
		default:
			p.kind, p.index = procComm, comm
			comm++
		}
	}
	// Daemons are numbered as the I/O nodes are: in the order of their ranks (back-ends
	// are numbered depth-first), whatever their depth in the tree.
	io, last := 0, -1
	for b := range nb {
		if d := t.proc(topo.Parent(b)); b == 0 || topo.Parent(b) != topo.Parent(b-1) {
			d.index = io
			if ios != nil {
				d.index = ios[io]
			}
			last = max(last, d.index)
			io++
		}
	}
	t.daemons = make([]*Daemon, last+1)
	t.drv = netreduce.NewDriver(topo, func(r int) netreduce.Process {
		n := netreduce.NewNode(topo, r)
		if p := t.proc(r); p.kind == procDaemon {
			t.daemons[p.index] = daemon(p.index, n)
			return t.daemons[p.index]
		}
		return &relay{node: n, topo: topo, open: map[uint64]*pendingAnswer{}, tree: t}
	}, t, nil, t.toApp)
	t.drv.Handled = t.handled
	return t
}

func (t *toolTree) proc(rank int) *procInfo { return &t.info[rank-t.topo.Backends()] }

// name says which tool process rank is, for reports.
func (t *toolTree) name(rank int) string {
	if t.topo.IsBackend(rank) {
		return fmt.Sprintf("rank %d", rank)
	}
	p := t.proc(rank)
	switch p.kind {
	case procDaemon:
		return fmt.Sprintf("daemon of I/O node %d", p.index)
	case procComm:
		return fmt.Sprintf("comm node %d", p.index)
	}
	return "front-end"
}

// daemonOf is the topology rank of the daemon above back-end rank.
func (t *toolTree) daemonOf(rank int) int { return t.topo.Parent(rank) }

// jobTime is the job time of tree time at: while a command is out the job stands still.
func (t *toolTree) jobTime(at int64) int64 {
	if t.stoppedAt >= 0 {
		return t.stoppedAt
	}
	return at - t.shift
}

// packetBytes is a packet's size on a link: a 16-byte header and 8 bytes per value.
func packetBytes(p *netreduce.Packet) int {
	n := 16
	for _, v := range p.Values {
		switch x := v.(type) {
		case string:
			n += len(x)
		case []any:
			n += 8 * len(x)
		default:
			n += 8
		}
	}
	return n
}

// Inject hands the tree a probe packet of rank that reached its I/O node at job time at
// (the machine's collective-network latency included): it enters the rank's daemon,
// which pushes it up.
func (t *toolTree) Inject(rank int, stream uint32, at int64, values []any) {
	p := &netreduce.Packet{Stream: stream, Tag: netreduce.FirstAppTag, Src: int32(rank), Count: 1, Values: values}
	// The rank sent it one collective-network crossing before it reached the I/O node.
	p.SentFirst = at - cnMachineLatency
	p.SentLast = p.SentFirst
	extra := max(0, t.costs.ns(cnLatency)-cnMachineLatency) + t.costs.bytes(cnPerByte, packetBytes(p))
	at += extra
	d := t.daemonOf(rank)
	p.Time = at + t.proc(d).offset
	tat := at + t.shift
	t.lastAt[rank] = max(t.lastAt[rank], tat)
	t.drv.Push(d, tat, 0, netreduce.Msg{Kind: netreduce.MsgData, From: int32(rank), To: int32(d), Stream: stream, Packet: p})
	if e := t.died[rank]; e != nil {
		// The link is FIFO: a notice queued for an earlier time waits for the packet (a
		// probe sending at _exit), and the waves it is in close with it.
		t.drv.Delay(e, tat)
	}
}

// Kill tells rank's daemon that rank ended at job time at: after everything the rank
// sent before (its packets are ahead of the notice on the same link).
func (t *toolTree) Kill(rank int, at int64) {
	tat := max(at+t.shift+t.costs.ns(cnLatency), t.lastAt[rank])
	d := t.daemonOf(rank)
	t.died[rank] = t.drv.Push(d, tat, 1, netreduce.Msg{Kind: netreduce.MsgDied, From: int32(rank), To: int32(d)})
}

// Advance handles every message due before job time until.
func (t *toolTree) Advance(until int64) { t.drv.Advance(until + t.shift) }

// Quiesce handles every message there is.
func (t *toolTree) Quiesce() { t.drv.Quiesce() }

// kindCosts are the model's keys for one kind of process: receive, per byte, filter
// call, filter per value, and the event loop's scan per child connection.
var kindCosts = [3][5]costKey{
	procDaemon:   {daemonRecv, daemonPerByte, daemonFilter, daemonFilterValue, daemonPollStream},
	procComm:     {commRecv, commPerByte2, commFilter, commFilterValue, commPollConn},
	procFrontEnd: {feRecv, fePerByte, feFilter, feFilterValue, fePollConn},
}

// dataRecvCost is what taking one packet from a child costs a process of kind k with
// conns children: the receive, its bytes, a scan of every child's connection by the
// event loop (so a process's receive cost grows with its fan-out), and at a daemon
// CIOD's carrying of the compute node's socket write on the same core.
func (t *toolTree) dataRecvCost(k procKind, conns int, p *netreduce.Packet) int64 {
	keys := kindCosts[k]
	c := t.costs.ns(keys[0]) + t.costs.bytes(keys[1], packetBytes(p)) + int64(conns)*t.costs.ns(keys[4])
	if k == procDaemon {
		c += t.costs.ns(ciodShip)
	}
	return c
}

// fwdCost is what sending one message costs a process of kind k: the front-end's sends
// are part of what it does with the message (fe_recv, fe_cmd).
func (t *toolTree) fwdCost(k procKind) int64 {
	switch k {
	case procDaemon:
		return t.costs.ns(daemonFwd)
	case procComm:
		return t.costs.ns(commFwd)
	}
	return 0
}

// Recv implements netreduce.DriverCosts: receiving (and filtering) a packet, or taking
// a command or an answer. A packet is stamped on arrival with the process's own clock.
func (t *toolTree) Recv(rank int, m *netreduce.Msg, at int64) int64 {
	p := t.proc(rank)
	switch {
	case m.Kind == netreduce.MsgData && m.Packet != nil:
		keys := kindCosts[p.kind]
		c := t.dataRecvCost(p.kind, len(t.topo.Children(rank)), m.Packet)
		if t.filters[m.Stream] {
			c += t.costs.ns(keys[2]) + t.costs.bytes(keys[3], len(m.Packet.Values))
		}
		m.Packet.Time = t.jobTime(at) + p.offset
		return c
	case m.Kind == netreduce.MsgUser:
		// The process reads its clock when it takes the message, after any queue.
		t.stamp(m, false, rank, max(at, t.drv.BusyUntil(rank)))
		return t.commandCost(rank, p, m, at)
	}
	return 0
}

// Departs implements netreduce.DepartureStamper: an OpClock message is stamped with its
// sender's clock as it leaves.
func (t *toolTree) Departs(rank int, m *netreduce.Msg, at int64) {
	if m.Kind == netreduce.MsgUser {
		t.stamp(m, true, rank, at)
	}
}

// Send implements netreduce.DriverCosts: a packet up costs its sender a forward and
// travels its link; a lost, fault or death notice only travels; commands and answers
// cost a forward (none at the front-end, whose fe_cmd covers the multicast) and travel;
// stream setup and the clock ping are control, not data: they take no modeled time
// (streams open while the session acts; the ping only moves protocol clocks so that
// timeout waves close).
func (t *toolTree) Send(rank int, m *netreduce.Msg) (busy, transit int64, timed bool) {
	p := t.proc(rank)
	up := int(m.To) == t.topo.Parent(rank)
	switch {
	case m.Kind == netreduce.MsgData && up:
		return t.fwdCost(p.kind) + t.costs.bytes(kindCosts[p.kind][1], packetBytes(m.Packet)), t.linkCost(p.kind, m.Packet), true
	case m.Kind == netreduce.MsgLost || m.Kind == netreduce.MsgFault || m.Kind == netreduce.MsgDied:
		return 0, t.linkCost(p.kind, nil), true
	case m.Kind == netreduce.MsgUser && up:
		return t.fwdCost(p.kind), t.linkCost(p.kind, nil), true
	case m.Kind == netreduce.MsgUser:
		return t.fwdCost(p.kind), t.linkCost(t.proc(int(m.To)).kind, nil), true
	}
	return 0, 0, false
}

// linkCost is the latency (and transfer time of pk, if any) of the link between a
// process of kind k and its parent, either way: Gigabit Ethernet from an I/O node, the
// comm nodes' network above.
func (t *toolTree) linkCost(k procKind, pk *netreduce.Packet) int64 {
	lat, per := ioLatency, ioPerByte
	if k == procComm {
		lat, per = commLatency, commPerByte
	}
	c := t.costs.ns(lat)
	if pk != nil {
		c += t.costs.bytes(per, packetBytes(pk))
	}
	return c
}

// handled counts the front-end's time per stream.
func (t *toolTree) handled(rank int, m *netreduce.Msg, start, done int64) {
	if rank == t.topo.Root() && m.Kind == netreduce.MsgData {
		t.feBusy[m.Stream] += done - start
	}
}

// toApp takes what the front-end hands the application at tree time at.
func (t *toolTree) toApp(m netreduce.Msg, at int64) {
	switch m.Kind {
	case netreduce.MsgData:
		m.Packet.Time = t.jobTime(at)
		m.Packet.Stream = m.Stream
		t.arrived = append(t.arrived, m.Packet)
	case netreduce.MsgFault:
		t.faults = append(t.faults, treeFault{Stream: m.Stream, Node: t.name(int(m.Origin)), Text: m.Text})
	case netreduce.MsgUser:
		t.answered(m, at)
	}
}

// Open creates a stream over backends (nil: all) with an upstream filter (nil: none).
func (t *toolTree) Open(backends *netreduce.RankSet, up *netreduce.FilterSpec, sync netreduce.SyncMode, timeout int64) uint32 {
	id := t.next
	t.next++
	if up != nil {
		t.filters[id] = true
	}
	spec := &netreduce.StreamSpec{ID: id, Backends: backends, Up: up, Sync: sync, Timeout: timeout}
	root := t.topo.Root()
	t.drv.Post(netreduce.Msg{Kind: netreduce.MsgOpen, From: -1, To: int32(root), Stream: id, Spec: spec}, t.drv.BusyUntil(root))
	return id
}

// Close removes a stream from every process.
func (t *toolTree) Close(id uint32) {
	root := t.topo.Root()
	t.drv.Post(netreduce.Msg{Kind: netreduce.MsgClose, From: -1, To: int32(root), Stream: id}, t.drv.BusyUntil(root))
	delete(t.filters, id)
}

// Tick moves every process's protocol clock to job time now, closing timeout waves
// that expired (leaves first, as netreduce's ping barrier does).
func (t *toolTree) Tick(now int64) {
	root := t.topo.Root()
	t.pings++
	t.drv.Post(netreduce.Msg{Kind: netreduce.MsgPing, From: -1, To: int32(root), Seq: t.pings, Time: now}, now+t.shift)
}

// Take returns the packets that reached the front-end by job time until, in arrival
// order, and the faults so far.
func (t *toolTree) Take(until int64) ([]*netreduce.Packet, []treeFault) {
	n := 0
	for n < len(t.arrived) && t.arrived[n].Time <= until {
		n++
	}
	out := t.arrived[:n:n]
	t.arrived = t.arrived[n:]
	f := t.faults
	t.faults = nil
	return out, f
}

// Ready reports whether a packet has reached the front-end by job time until.
func (t *toolTree) Ready(until int64) bool {
	return len(t.faults) > 0 || len(t.arrived) > 0 && t.arrived[0].Time <= until
}
