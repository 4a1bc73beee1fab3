package netreduce

import (
	"container/heap"
	"math"
)

// MsgUser is a message of the driver's user, not of the tree protocol: a tool's command
// on its way down or an answer on its way up. Node ignores it; the Process it is for
// handles it. It travels only inside a Driver (never over TCP).
const MsgUser MsgKind = 254

// Process is one tool process a Driver steps: a Node, or a handler that owns a Node and
// also takes messages of its own (MsgUser). Step takes one message and returns what the
// process sends (as etcd raft's Ready): the driver delivers it, the process never does.
type Process interface {
	Step(m Msg) []Msg
}

// DriverCosts is the virtual-time model of a Driver's processes and links. A nil
// DriverCosts makes every message control (see Send).
type DriverCosts interface {
	// Recv is how long process rank is busy taking m, which arrived at virtual time at;
	// it may stamp m's packet with the process's clock.
	Recv(rank int, m *Msg, at int64) int64
	// Send is how long process rank is busy sending m (busy) and how long m then travels
	// on its link (transit). timed false: m is control, stepped at its destination at
	// once and at no cost, before anything else happens.
	Send(rank int, m *Msg) (busy, transit int64, timed bool)
}

// Event is a message on its way to a process, due at virtual time At.
type Event struct {
	At   int64
	Prio uint8 // at equal times the lower first
	seq  uint64
	To   int // topology rank
	Msg  Msg
	idx  int
}

type eventQueue []*Event

func (q eventQueue) Len() int { return len(q) }
func (q eventQueue) Less(i, j int) bool {
	a, b := q[i], q[j]
	if a.At != b.At {
		return a.At < b.At
	}
	if a.Prio != b.Prio {
		return a.Prio < b.Prio
	}
	return a.seq < b.seq
}
func (q eventQueue) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].idx, q[j].idx = i, j
}
func (q *eventQueue) Push(x any) {
	e := x.(*Event)
	e.idx = len(*q)
	*q = append(*q, e)
}
func (q *eventQueue) Pop() any {
	old := *q
	e := old[len(old)-1]
	old[len(old)-1] = nil
	*q = old[:len(old)-1]
	e.idx = -1
	return e
}

// Driver is the deterministic driver of a tree's processes: one goroutine (the
// caller's), no clock but virtual time, messages handled in the order (time, priority,
// sequence). A process busy with one message delays the next, and every link is FIFO,
// both ways. The front-end and the internal nodes are Processes; back-ends are a
// BackendSink run inline. The runtime steps a job's tool tree with it; an in-process
// Network steps its tree with it at no cost.
type Driver struct {
	topo      *Topology
	nb        int
	procs     []Process // by rank - nb
	busyUntil []int64   // by rank - nb
	busy      []int64   // by rank - nb: virtual ns spent handling messages
	linkUp    []int64   // by rank: nothing arrives over the link to the parent before this
	linkDown  []int64   // by rank: nor over the link from the parent
	q         eventQueue
	seq       uint64
	costs     DriverCosts
	backends  BackendSink
	app       func(m Msg, at int64)
	scratch   []Msg

	// Handled, if set, is told of every message a process handled and when (the
	// runtime's per-stream accounting of the front-end).
	Handled func(rank int, m *Msg, start, done int64)
}

// NewDriver builds a driver over topo: proc gives each internal node's and the
// front-end's Process, backends runs the back-ends (nil: they answer pings and nothing
// else), app takes what the front-end sends above it with its virtual time.
func NewDriver(topo *Topology, proc func(rank int) Process, costs DriverCosts, backends BackendSink, app func(Msg, int64)) *Driver {
	nb := topo.Backends()
	n := topo.Size() - nb
	d := &Driver{topo: topo, nb: nb, procs: make([]Process, n), busyUntil: make([]int64, n), busy: make([]int64, n),
		linkUp: make([]int64, topo.Size()), linkDown: make([]int64, topo.Size()), costs: costs, backends: backends, app: app}
	if d.backends == nil {
		d.backends = pongSink{}
	}
	if d.costs == nil {
		d.costs = noCosts{}
	}
	for r := nb; r < topo.Size(); r++ {
		d.procs[r-nb] = proc(r)
	}
	return d
}

// pongSink is back-ends that have nothing of the tree's to flush: a ping is answered at
// once, everything else is dropped.
type pongSink struct{}

func (pongSink) Deliver(m Msg, reply func(Msg)) {
	if m.Kind == MsgPing {
		reply(Msg{Kind: MsgPong, From: m.To, To: m.From, Seq: m.Seq})
	}
}

type noCosts struct{}

// DepartureStamper, when a DriverCosts implements it, is told the virtual time each timed
// message leaves its sender (after the sender's busy time, before the link), as a real
// process reads its clock when it writes: protocols that timestamp messages (MRNet's
// clock-skew probes) stamp there, and the receive side in Recv.
type DepartureStamper interface {
	Departs(rank int, m *Msg, at int64)
}

func (noCosts) Recv(int, *Msg, int64) int64         { return 0 }
func (noCosts) Send(int, *Msg) (int64, int64, bool) { return 0, 0, false }

// Busy is the virtual time process rank has spent handling messages.
func (d *Driver) Busy(rank int) int64 { return d.busy[rank-d.nb] }

// BusyUntil is when process rank is free.
func (d *Driver) BusyUntil(rank int) int64 { return d.busyUntil[rank-d.nb] }

// Push schedules msg for process to at virtual time at.
func (d *Driver) Push(to int, at int64, prio uint8, msg Msg) *Event {
	d.seq++
	e := &Event{At: at, Prio: prio, seq: d.seq, To: to, Msg: msg}
	heap.Push(&d.q, e)
	return e
}

// Delay moves a queued event to virtual time at, if that is later.
func (d *Driver) Delay(e *Event, at int64) {
	if e.idx < 0 || at <= e.At {
		return
	}
	e.At = at
	heap.Fix(&d.q, e.idx)
}

// Advance handles every event due before virtual time until.
func (d *Driver) Advance(until int64) {
	for len(d.q) > 0 && d.q[0].At < until {
		d.stepOne()
	}
}

// AdvanceWhile handles events in order while more() holds and some are queued; it
// reports whether more() still holds.
func (d *Driver) AdvanceWhile(more func() bool) bool {
	for more() {
		if len(d.q) == 0 {
			return true
		}
		d.stepOne()
	}
	return false
}

// Quiesce handles every event there is.
func (d *Driver) Quiesce() { d.Advance(math.MaxInt64) }

// stepOne handles the next event: its process starts when both the message and the
// process are there, spends its receive cost, steps, then sends what it produced.
func (d *Driver) stepOne() {
	e := heap.Pop(&d.q).(*Event)
	i := e.To - d.nb
	start := max(e.At, d.busyUntil[i])
	done := start + d.costs.Recv(e.To, &e.Msg, e.At)
	done = d.emit(e.To, d.procs[i].Step(e.Msg), done)
	if d.Handled != nil {
		d.Handled(e.To, &e.Msg, start, done)
	}
	d.busy[i] += done - start
	d.busyUntil[i] = done
}

// Post steps m in process m.To at once (control from outside the tree: a stream's
// creation, a clock tick) and sends what follows from virtual time at, or when the
// process is free.
func (d *Driver) Post(m Msg, at int64) {
	d.scratch = append(d.scratch, m)
	d.drain(at)
}

// emit sends what process rank produced, starting at virtual time at; it returns when
// the process is done sending.
func (d *Driver) emit(rank int, out []Msg, at int64) int64 {
	for k := range out {
		m := out[k]
		switch to := int(m.To); {
		case to < 0:
			d.app(m, at)
		case d.topo.IsBackend(to):
			d.backends.Deliver(m, d.reply)
		default:
			busy, transit, timed := d.costs.Send(rank, &m)
			if !timed {
				d.scratch = append(d.scratch, m)
				continue
			}
			at += busy
			if st, ok := d.costs.(DepartureStamper); ok {
				st.Departs(rank, &m, at)
			}
			d.send(rank, to, at+transit, m)
		}
	}
	d.drain(at)
	return at
}

func (d *Driver) reply(m Msg) { d.scratch = append(d.scratch, m) }

// drain steps the control messages produced so far, in order, each at once.
func (d *Driver) drain(at int64) {
	for len(d.scratch) > 0 {
		m := d.scratch[0]
		d.scratch = d.scratch[1:]
		to := int(m.To)
		if to < 0 {
			d.app(m, at)
			continue
		}
		i := to - d.nb
		d.busyUntil[i] = max(d.busyUntil[i], d.emit(to, d.procs[i].Step(m), max(at, d.busyUntil[i])))
	}
	// A broadcast's replies can fill it with one message per back-end: let that go.
	d.scratch = nil
}

// send puts m on the link from rank to to, due at virtual time at or, the link being
// FIFO, when what went that way before has arrived.
func (d *Driver) send(rank, to int, at int64, m Msg) {
	link := &d.linkDown[to]
	if to == d.topo.Parent(rank) {
		link = &d.linkUp[rank]
	}
	at = max(at, *link)
	*link = at
	d.Push(to, at, 0, m)
}
