package bgl

import (
	"github.com/dpclsh/dpclsh/bgl/abi"
	"github.com/dpclsh/dpclsh/ppc"
)

// nodeState is where a compute node's process is in its life.
type nodeState uint8

const (
	nodeRunning nodeState = iota // runnable unless held
	nodeBlocked                  // waiting for the I/O node's reply to a shipped call
	nodeExited
	nodeFaulted // stopped by a fault; the job goes on
)

var nodeStateNames = [...]string{"running", "blocked", "exited", "faulted"}

func (s nodeState) String() string { return nodeStateNames[s] }

// cr0SO is CR0's summary-overflow bit: set on a failed system call.
const cr0SO = 0x10000000

// node is one compute node: its core, the CNK's process state and its mailbox.
type node struct {
	rank   int
	cpu    *ppc.CPU
	proc   Proc
	io     *IONode
	state  nodeState
	held   bool // stopped by the debugger (or not yet started)
	listed bool // in the job's runSet: the scheduler looks at it
	seq    uint64
	outbox []*message
	wait   *shipReq
	exit   Event  // the exit or fault event, once there is one
	sent   uint64 // ais_send packets handed to the I/O node
	watch  *watchSet
	sample *sampler // the profiling timer; nil: never sampled
}

// clock is the node's virtual time in cycles: busy cycles plus the time it spent blocked.
func (n *node) clock() uint64 { return n.cpu.TBBase + n.cpu.Count.Cycles }

// advanceTo moves the node's clock forward to t cycles (time passes while it waits).
func (n *node) advanceTo(t uint64) {
	if c := n.clock(); t > c {
		n.cpu.TBBase += t - c
	}
}

func (n *node) runnable() bool { return n.state == nodeRunning && !n.held }

func (n *node) send(m *message) {
	n.seq++
	m.src, m.seq, m.rank = n.rank, n.seq, n.rank
	n.outbox = append(n.outbox, m)
}

func (n *node) emit(ev Event) {
	ev.Rank = n.rank
	ev.Time = cyclesToNS(n.clock())
	n.send(&message{at: ev.Time, kind: msgEvent, event: ev})
}

// run advances the node until its clock reaches horizon (cycles) or it stops running.
func (n *node) run(j *Job, horizon uint64) {
	for n.runnable() {
		now := n.clock()
		if now >= horizon {
			return
		}
		stop := n.cpu.Run(n.sampleBudget(horizon - now))
		n.handle(j, stop)
		n.takeSample()
	}
}

// handle acts on why the core stopped.
func (n *node) handle(j *Job, stop ppc.Stop) {
	switch stop.Kind {
	case ppc.StopSyscall:
		n.syscall(j)
	case ppc.StopFault:
		if n.watched(j, stop.Fault) {
			return
		}
		if target, ok := n.io.faults[stop.Fault.PC]; ok && stop.Fault.Kind == ppc.FaultAccess {
			n.cpu.PC = target
			return
		}
		n.fault(stop.Fault)
	case ppc.StopTrap:
		if target, ok := n.io.traps[stop.Fault.PC]; ok {
			n.cpu.PC = target
			return
		}
		n.fault(stop.Fault)
	case ppc.StopBreakpoint:
		n.held = true
		n.emit(Event{Kind: EventBreakpoint, PC: n.cpu.PC})
	}
}

func (n *node) fault(f *ppc.Fault) {
	n.state = nodeFaulted
	n.proc.release()
	sig := f.Signal()
	n.exit = Event{Kind: EventFault, PC: f.PC, Word: f.Word, Addr: f.Addr, Signal: sig, Status: 128 + sig}
	n.emit(n.exit)
}

// syscall serves the sc the core just executed (PC is past it).
func (n *node) syscall(j *Job) {
	c := n.cpu
	num := abi.Sysno(c.GPR[0])
	a := Args{c.GPR[3], c.GPR[4], c.GPR[5], c.GPR[6], c.GPR[7], c.GPR[8]}
	n.proc.pc = c.PC - 4
	var r Result
	if num.IsHypercall() {
		r = n.hypercall(j, num, a)
	} else {
		r = n.proc.syscall(num, a)
	}
	for _, ev := range n.proc.events {
		n.emit(ev)
	}
	n.proc.events = n.proc.events[:0]
	n.apply(r)
}

// apply makes a handler's Result visible to the program.
func (n *node) apply(r Result) {
	c := n.cpu
	switch {
	case r.Ship != nil:
		n.state, n.wait = nodeBlocked, r.Ship
		n.send(&message{at: cyclesToNS(n.clock()) + TreeLatencyNS, kind: msgShip, req: r.Ship})
		return
	case r.Exit:
		n.state = nodeExited
		n.proc.release()
		n.exit = Event{Kind: EventExit, PC: n.proc.pc, Status: r.Status, Signal: r.Signal}
		n.emit(n.exit)
		return
	case r.Sleep != 0:
		c.TBBase += nsToCycles(r.Sleep)
	}
	if r.Err != 0 {
		c.GPR[3] = uint32(r.Err)
		c.CR |= cr0SO
		return
	}
	c.GPR[3] = r.R3
	if r.Wide {
		c.GPR[4] = r.R4
	}
	c.CR &^= cr0SO
}

// complete finishes a shipped call when the reply arrives at virtual time at (ns).
func (n *node) complete(at uint64, rep shipReply) {
	req := n.wait
	n.wait = nil
	n.state = nodeRunning
	n.advanceTo(nsToCycles(at))
	n.apply(req.done(&n.proc, rep))
}
