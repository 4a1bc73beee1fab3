package runtime

import (
	"container/heap"
	"fmt"
	"math"

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

// toolProc is one simulated tool process: netreduce's pure Node (the protocol) and a
// virtual clock. A process busy with one message delays the next (busyUntil).
type toolProc struct {
	node      *netreduce.Node
	kind      procKind
	index     int   // I/O node for a daemon, comm index for a comm node
	busyUntil int64 // virtual ns
	busy      int64 // virtual ns spent handling messages
	linkFree  int64 // the link to the parent is FIFO: nothing arrives before this
	offset    int64 // its clock reads virtual time + offset
}

// treeEvent is a message on its way to a tool process, due at virtual time at.
type treeEvent struct {
	at   int64
	prio uint8 // at equal times data (0) before a child's death (1)
	seq  uint64
	to   int // topology rank
	msg  netreduce.Msg
}

type eventQueue []*treeEvent

func (q eventQueue) Len() int { return len(q) }
func (q eventQueue) Less(i, j int) bool {
	a, b := q[i], q[j]
	if a.at != b.at {
		return a.at < b.at
	}
	if a.prio != b.prio {
		return a.prio < b.prio
	}
	return a.seq < b.seq
}
func (q eventQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *eventQueue) Push(x any)   { *q = append(*q, x.(*treeEvent)) }
func (q *eventQueue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}

// treeFault is a stream failure that reached the front-end: which tree node's filter
// failed, and why.
type treeFault struct {
	Stream uint32
	Node   string
	Text   string
}

// toolTree is the tool's tree inside the simulation: every process above the compute
// nodes steps its Node synchronously, in virtual-time order (time, priority, sequence),
// with the costs of the model; what reaches the front-end waits there with its arrival
// time until the machine's clock has passed it. It has no goroutines and is used from
// the goroutine that drives the machine.
type toolTree struct {
	topo    *netreduce.Topology
	costs   *Costs
	procs   []*toolProc // by topology rank - Backends()
	q       eventQueue
	seq     uint64
	filters map[uint32]bool // streams with a transformation filter
	next    uint32          // next stream id

	arrived   []*netreduce.Packet // at the front-end, in arrival order
	faults    []treeFault
	lastAt    []int64            // per rank: arrival of its latest packet at its daemon
	died      map[int]*treeEvent // per rank: its end notice, while still queued
	feBusy    map[uint32]int64
	scratch   []netreduce.Msg
	delivered int // packets handed to the front-end so far
}

// newToolTree builds the processes of topo (level 2 = the parents of the back-ends).
func newToolTree(topo *netreduce.Topology, costs *Costs) *toolTree {
	nb := topo.Backends()
	t := &toolTree{topo: topo, costs: costs, procs: make([]*toolProc, topo.Size()-nb),
		filters: map[uint32]bool{}, lastAt: make([]int64, nb), died: map[int]*treeEvent{}, feBusy: map[uint32]int64{}, next: 1}
	comm := 0
	for r := nb; r < topo.Size(); r++ {
		p := &toolProc{node: netreduce.NewNode(topo, r)}
		switch {
		case r == topo.Root():
			p.kind = procFrontEnd
		case topo.IsBackend(topo.Children(r)[0]):
			p.kind = procDaemon
		default:
			p.kind, p.index = procComm, comm
			comm++
		}
		t.procs[r-nb] = p
	}
	// Daemons are numbered as the I/O nodes are: in the order of their ranks (back-ends
	// are numbered depth-first), whatever their depth in the tree.
	io := 0
	for b := range nb {
		if d := t.proc(topo.Parent(b)); b == 0 || topo.Parent(b) != topo.Parent(b-1) {
			d.index = io
			io++
		}
	}
	return t
}

func (t *toolTree) proc(rank int) *toolProc { return t.procs[rank-t.topo.Backends()] }

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

// push schedules msg for process to at virtual time at.
func (t *toolTree) push(to int, at int64, prio uint8, msg netreduce.Msg) *treeEvent {
	t.seq++
	e := &treeEvent{at: at, prio: prio, seq: t.seq, to: to, msg: msg}
	heap.Push(&t.q, e)
	return e
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

// Inject hands the tree a probe packet of rank that reached its I/O node at virtual
// time at (the machine's collective-network latency included): it enters the rank's
// daemon, which pushes it up.
func (t *toolTree) Inject(rank int, stream uint32, at int64, values []any) {
	p := &netreduce.Packet{Stream: stream, Tag: netreduce.FirstAppTag, Src: int32(rank), Count: 1, Values: values}
	extra := max(0, t.costs.ns(cnLatency)-cnMachineLatency) + t.costs.bytes(cnPerByte, packetBytes(p))
	at += extra
	t.lastAt[rank] = max(t.lastAt[rank], at)
	p.Time = at + t.proc(t.daemonOf(rank)).offset
	d := t.daemonOf(rank)
	t.push(d, at, 0, netreduce.Msg{Kind: netreduce.MsgData, From: int32(rank), To: int32(d), Stream: stream, Packet: p})
	t.behind(rank, at)
}

// behind keeps rank's end notice behind a packet the machine handed over after the rank
// ended (a probe sending at _exit): the link is FIFO, so a notice queued for an earlier
// time waits for the packet, and the waves it is in close with it.
func (t *toolTree) behind(rank int, at int64) {
	e := t.died[rank]
	if e == nil || e.at >= at {
		return
	}
	e.at = at
	for i, q := range t.q {
		if q == e {
			heap.Fix(&t.q, i)
			return
		}
	}
}

// Kill tells rank's daemon that rank ended at virtual time at: after everything the rank
// sent before (its packets are ahead of the notice on the same link).
func (t *toolTree) Kill(rank int, at int64) {
	at = max(at+t.costs.ns(cnLatency), t.lastAt[rank])
	d := t.daemonOf(rank)
	t.died[rank] = t.push(d, at, 1, netreduce.Msg{Kind: netreduce.MsgDied, From: int32(rank), To: int32(d)})
}

// Advance handles every message due before virtual time until.
func (t *toolTree) Advance(until int64) {
	for len(t.q) > 0 && t.q[0].at < until {
		e := heap.Pop(&t.q).(*treeEvent)
		t.handle(e)
	}
}

// Quiesce handles every message there is.
func (t *toolTree) Quiesce() { t.Advance(math.MaxInt64) }

// handle steps the process e is for: it starts when both the message and the process
// are there, spends the model's receive (and filter) cost, then forwards what the Node
// produced, one send cost each.
func (t *toolTree) handle(e *treeEvent) {
	if e.msg.Kind == netreduce.MsgDied && t.died[int(e.msg.From)] == e {
		delete(t.died, int(e.msg.From))
	}
	p := t.proc(e.to)
	start := max(e.at, p.busyUntil)
	done := start
	if e.msg.Kind == netreduce.MsgData && e.msg.Packet != nil {
		done += t.recvCost(p, e.msg.Stream, e.msg.Packet)
		// The packet is stamped on arrival with the receiving process's own clock.
		e.msg.Packet.Time = e.at + p.offset
	}
	p.node.Step(e.msg)
	done = t.emit(e.to, p, done)
	if p.kind == procFrontEnd && e.msg.Kind == netreduce.MsgData {
		t.feBusy[e.msg.Stream] += done - start
	}
	p.busy += done - start
	p.busyUntil = done
}

// recvCost is what receiving (and filtering) one packet costs process p.
func (t *toolTree) recvCost(p *toolProc, stream uint32, pk *netreduce.Packet) int64 {
	keys := [3][4]costKey{
		procDaemon:   {daemonRecv, daemonPerByte, daemonFilter, daemonFilterValue},
		procComm:     {commRecv, commPerByte2, commFilter, commFilterValue},
		procFrontEnd: {feRecv, fePerByte, feFilter, feFilterValue},
	}[p.kind]
	c := t.costs.ns(keys[0]) + t.costs.bytes(keys[1], packetBytes(pk))
	if t.filters[stream] {
		c += t.costs.ns(keys[2]) + t.costs.bytes(keys[3], len(pk.Values))
	}
	return c
}

// emit sends what process rank's Node produced, starting at virtual time at; it
// returns when the process is done sending.
func (t *toolTree) emit(rank int, p *toolProc, at int64) int64 {
	out := p.node.Take()
	for _, m := range out {
		switch {
		case m.To < 0:
			t.toApp(m, at)
		case t.topo.IsBackend(int(m.To)):
			if m.Kind == netreduce.MsgPing {
				// A compute node has nothing of the tree's to flush: it answers at once.
				t.scratch = append(t.scratch, netreduce.Msg{Kind: netreduce.MsgPong, From: m.To, To: int32(rank), Seq: m.Seq})
			}
		case m.Kind == netreduce.MsgData && int(m.To) == t.topo.Parent(rank):
			at += t.sendCost(p, m.Packet)
			t.up(p, at+t.linkCost(p, m.Packet), m)
		case m.Kind == netreduce.MsgLost || m.Kind == netreduce.MsgFault || m.Kind == netreduce.MsgDied:
			t.up(p, at+t.linkCost(p, nil), m)
		default:
			// Stream setup and the clock ping are control, not data: they take no modeled
			// time (streams open while the session acts, with the machine paused; the
			// ping only moves protocol clocks so that timeout waves close).
			t.scratch = append(t.scratch, m)
		}
	}
	for len(t.scratch) > 0 {
		m := t.scratch[0]
		t.scratch = t.scratch[1:]
		q := t.proc(int(m.To))
		q.node.Step(m)
		q.busyUntil = max(q.busyUntil, t.emit(int(m.To), q, max(at, q.busyUntil)))
	}
	return at
}

// up puts m on p's link to its parent, due at virtual time at or, the link being FIFO,
// when what p sent before has arrived.
func (t *toolTree) up(p *toolProc, at int64, m netreduce.Msg) {
	at = max(at, p.linkFree)
	p.linkFree = at
	t.push(int(m.To), at, 0, m)
}

// sendCost is what forwarding one packet costs process p.
func (t *toolTree) sendCost(p *toolProc, pk *netreduce.Packet) int64 {
	switch p.kind {
	case procDaemon:
		return t.costs.ns(daemonFwd) + t.costs.bytes(daemonPerByte, packetBytes(pk))
	case procComm:
		return t.costs.ns(commFwd) + t.costs.bytes(commPerByte2, packetBytes(pk))
	}
	return 0
}

// linkCost is the latency (and transfer time of pk, if any) of p's link to its parent:
// Gigabit Ethernet from an I/O node, the comm nodes' network above.
func (t *toolTree) linkCost(p *toolProc, pk *netreduce.Packet) int64 {
	lat, per := ioLatency, ioPerByte
	if p.kind == procComm {
		lat, per = commLatency, commPerByte
	}
	c := t.costs.ns(lat)
	if pk != nil {
		c += t.costs.bytes(per, packetBytes(pk))
	}
	return c
}

// toApp takes what the front-end hands the application.
func (t *toolTree) toApp(m netreduce.Msg, at int64) {
	switch m.Kind {
	case netreduce.MsgData:
		m.Packet.Time = at
		m.Packet.Stream = m.Stream
		t.arrived = append(t.arrived, m.Packet)
	case netreduce.MsgFault:
		t.faults = append(t.faults, treeFault{Stream: m.Stream, Node: t.name(int(m.Origin)), Text: m.Text})
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
	t.scratch = append(t.scratch, netreduce.Msg{Kind: netreduce.MsgOpen, From: -1, To: int32(root), Stream: id, Spec: spec})
	t.emit(root, t.proc(root), t.proc(root).busyUntil)
	return id
}

// Close removes a stream from every process.
func (t *toolTree) Close(id uint32) {
	root := t.topo.Root()
	t.scratch = append(t.scratch, netreduce.Msg{Kind: netreduce.MsgClose, From: -1, To: int32(root), Stream: id})
	t.emit(root, t.proc(root), t.proc(root).busyUntil)
	delete(t.filters, id)
}

// Tick moves every process's protocol clock to virtual time now, closing timeout waves
// that expired (leaves first, as netreduce's ping barrier does).
func (t *toolTree) Tick(now int64) {
	root := t.topo.Root()
	t.seq++
	t.scratch = append(t.scratch, netreduce.Msg{Kind: netreduce.MsgPing, From: -1, To: int32(root), Seq: t.seq, Time: now})
	t.emit(root, t.proc(root), max(now, t.proc(root).busyUntil))
}

// Take returns the packets that reached the front-end by virtual time until, in
// arrival order, and the faults so far.
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

// Ready reports whether a packet has reached the front-end by virtual time until.
func (t *toolTree) Ready(until int64) bool {
	return len(t.faults) > 0 || len(t.arrived) > 0 && t.arrived[0].Time <= until
}
