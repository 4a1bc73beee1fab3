package bgl

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/dpclsh/dpclsh/ppc"
)

// maxSoloNS bounds how far a lone runnable node runs in one step, so Pause stays prompt.
const maxSoloNS = 10_000_000

// workChunk is how many nodes a worker takes from the runnable list at a time.
const workChunk = 32

// StopReason says why Run or RunUntil returned.
type StopReason uint8

// Stop reasons.
const (
	StopDone   StopReason = iota + 1 // every rank has exited or faulted
	StopTime                         // RunUntil's virtual time was reached
	StopPaused                       // Pause was called
	StopIdle                         // nothing can move: the live nodes are all held
	StopError                        // a sharded run cannot go on (Job.Err says why)
)

var stopReasonNames = map[StopReason]string{StopDone: "done", StopTime: "time", StopPaused: "paused", StopIdle: "idle", StopError: "error"}

func (r StopReason) String() string { return stopReasonNames[r] }

// Run advances the machine until the job ends, nothing can move, or Pause is called.
func (j *Job) Run() StopReason { return j.RunUntil(^uint64(0)) }

// RunUntil advances the machine until virtual time limit (ns), or an earlier reason.
func (j *Job) RunUntil(limit uint64) StopReason {
	if j.closed {
		return StopDone
	}
	defer func() { j.sampleProgress(j.live == 0) }()
	if j.sh != nil {
		return j.runSharded(limit)
	}
	for {
		if j.pause.Swap(false) {
			select {
			case <-j.intr:
			default:
			}
			return StopPaused
		}
		if j.live == 0 {
			j.drainPackets()
			j.fe.flushAll()
			return StopDone
		}
		if r := j.step(limit); r != 0 {
			return r
		}
		j.sampleProgress(false)
	}
}

// Pause makes Run return at the next window end. Safe from any goroutine.
func (j *Job) Pause() {
	j.pause.Store(true)
	select {
	case j.intr <- struct{}{}:
	default:
	}
}

// maxDeliveriesPerStep bounds the messages one step delivers before RunUntil looks at
// Pause again.
const maxDeliveriesPerStep = 1 << 20

// step runs one window: deliver the messages due before its end, then advance every
// runnable node to it. It returns 0, or why nothing is left to do before limit.
func (j *Job) step(limit uint64) StopReason {
	runnable := j.runnable()
	start := ^uint64(0)
	limitCycles := nsToCycles(limit)
	for _, n := range runnable {
		// A node whose clock has reached the limit in cycles cannot move before it, even
		// when its time in whole nanoseconds is still below a limit that is not a
		// multiple of 10 ns (7 cycles); counting it as before the limit would spin.
		if c := n.clock(); c < limitCycles {
			start = min(start, cyclesToNS(c))
		} else {
			start = min(start, limit)
		}
	}
	if m := j.queue.peek(); m != nil {
		start = min(start, m.at)
	}
	if start == ^uint64(0) {
		return StopIdle
	}
	if start >= limit {
		j.now = max(j.now, limit)
		return StopTime
	}
	j.now = max(j.now, start)
	end := start + j.window
	var events []Event
	delivered := 0
	for m := j.queue.peek(); m != nil && m.at < end; m = j.queue.peek() {
		if delivered == maxDeliveriesPerStep {
			// Bounded work between pause checks: a window whose deliveries keep queueing
			// more at the same time (a rank woken again and again) must still let Pause
			// and cancellation in. The nodes do not advance until every message due
			// before the window's end is delivered, so splitting changes nothing else.
			j.dispatch(events)
			return 0
		}
		delivered++
		if ev, ok := j.deliver(j.queue.pop()); ok {
			events = append(events, ev)
		}
	}
	runnable = j.runnable()
	if len(runnable) == 1 && len(j.queue) == 0 {
		end = start + maxSoloNS
	}
	end = min(end, limit)
	j.advance(runnable, nsToCycles(end))
	for _, n := range runnable {
		for _, m := range n.outbox {
			j.queue.push(m)
		}
		n.outbox = n.outbox[:0]
	}
	j.dispatch(events)
	j.fe.flush()
	return 0
}

// advance runs the nodes to horizon (cycles) on a pool of GOMAXPROCS workers. Each node
// touches only its own state, so the result does not depend on the number of workers.
func (j *Job) advance(nodes []*node, horizon uint64) {
	workers := min(runtime.GOMAXPROCS(0), (len(nodes)+workChunk-1)/workChunk)
	j.running.Store(true)
	defer j.running.Store(false)
	j.windowBegins(len(nodes))
	if workers <= 1 {
		for i := 0; i < len(nodes); i += workChunk {
			chunk := nodes[i:min(i+workChunk, len(nodes))]
			for _, n := range chunk {
				n.run(j, horizon)
			}
			j.advanced(len(chunk))
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(workChunk)) - workChunk
				if i >= len(nodes) {
					return
				}
				chunk := nodes[i:min(i+workChunk, len(nodes))]
				for _, n := range chunk {
					n.run(j, horizon)
				}
				j.advanced(len(chunk))
			}
		}()
	}
	wg.Wait()
}

// deliver hands one message to its destination. Events are returned for dispatch after
// the window, when callbacks may use the debug interface.
func (j *Job) deliver(m *message) (Event, bool) {
	n := j.nodes[m.rank]
	switch m.kind {
	case msgShip:
		rep, done := n.io.serve(n.rank, m.at, m.req)
		j.sendFromIO(n.io.Index, &message{at: done + TreeLatencyNS, kind: msgReply, rank: n.rank, rep: rep})
	case msgReply:
		if n.state == nodeBlocked {
			n.complete(m.at, m.rep)
			n.flushOutbox(j)
			j.wake(n)
		}
	case msgPacket:
		if d := n.io.daemon; d != nil {
			d.Packet(j.Debug(n.io.Index), Packet{Rank: n.rank, Time: m.at, Data: m.data, PC: m.pc})
		}
	case msgEvent:
		if m.event.Kind == EventExit || m.event.Kind == EventFault {
			if m.event.Signal != 0 {
				m.event.Frames = j.backtrace(n, ppc.ReportFrames)
			}
			j.live--
			n.io.detach(n.rank)
			if j.sh != nil {
				j.sh.rankEnded(n.rank)
			} else {
				j.fe.rankDone(n.rank)
			}
		}
		return m.event, true
	}
	return Event{}, false
}

// drainPackets hands the daemons the tool packets still on their way when the last rank
// ended: a probe that sent just before its rank exited or faulted is delivered. Nothing
// else in the queue can matter to a node that has ended.
func (j *Job) drainPackets() {
	for m := j.queue.peek(); m != nil; m = j.queue.peek() {
		j.queue.pop()
		if m.kind == msgPacket {
			j.now = max(j.now, m.at)
			j.deliver(m)
		}
	}
}

// flushOutbox moves what a node sent while completing a call (outside a window) to the
// queue.
func (n *node) flushOutbox(j *Job) {
	for _, m := range n.outbox {
		j.queue.push(m)
	}
	n.outbox = n.outbox[:0]
}

func (j *Job) sendFromIO(io int, m *message) {
	j.ioSeq[io]++
	m.src, m.seq = len(j.nodes)+io, j.ioSeq[io]
	j.queue.push(m)
}

// dispatch calls the front-end listeners and the daemons with the window's events.
func (j *Job) dispatch(events []Event) {
	for _, ev := range events {
		for _, fn := range j.onEvent {
			fn(ev)
		}
		io := j.ionode[j.part.IONodeOfRank(ev.Rank)]
		if io.daemon != nil {
			io.daemon.Event(j.Debug(io.Index), ev)
		}
	}
}
