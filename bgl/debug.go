package bgl

import (
	"errors"
	"fmt"

	"github.com/dpclsh/dpclsh/ppc"
)

// Packet is what a compute node sent its I/O-node daemon with the ais_send hypercall.
type Packet struct {
	Rank int
	Time uint64 // virtual ns of arrival at the I/O node
	Data []byte
	PC   uint32 // address of the sc instruction that sent it (a tool checks who sent)
}

// Daemon is a tool daemon in an I/O node's slot (the mutator of the BG/L paper). The
// machine calls it on the driving goroutine, at window ends, in delivery order; it may use
// the debug interface it is given.
type Daemon interface {
	Packet(d *Debug, p Packet)
	Event(d *Debug, ev Event)
}

// Regs is a node's user-visible register state.
type Regs struct {
	GPR                         [32]uint32
	FPR                         [32]uint64
	CR, XER, LR, CTR, FPSCR, PC uint32
}

// NodeStatus is what the debug interface reports about a node.
type NodeStatus struct {
	Rank   int
	State  string // "running", "blocked", "exited", "faulted"
	Held   bool
	PC     uint32
	TimeNS uint64
	Exit   Event // the exit or fault event, once there is one
}

// DebugError is a refused debug request.
type DebugError struct {
	IONode, Rank int
	Op, Reason   string
}

// Unprefixed is the error's text without "bgl: "; Error adds it.
func (e *DebugError) Unprefixed() string {
	return fmt.Sprintf("debug %s on rank %d (I/O node %d): %s", e.Op, e.Rank, e.IONode, e.Reason)
}

func (e *DebugError) Error() string { return "bgl: " + e.Unprefixed() }

// Package is the name the error's text starts with.
func (e *DebugError) Package() string { return "bgl" }

// ErrRunning is wrapped when the debug interface is used while a window is executing.
var ErrRunning = errors.New("machine is running a window")

// Debug is the proprietary debug interface of one I/O node: it controls the compute
// nodes that I/O node serves, and only those.
type Debug struct {
	j  *Job
	io *IONode
}

// Debug returns the debug interface of I/O node io.
func (j *Job) Debug(io int) *Debug {
	if io < 0 || io >= len(j.ionode) {
		panic(fmt.Sprintf("bgl: Debug(%d): the job has %d I/O nodes", io, len(j.ionode)))
	}
	return &Debug{j: j, io: j.ionode[io]}
}

// IONode returns the index of the I/O node.
func (d *Debug) IONode() int { return d.io.Index }

// Ranks returns the ranks this I/O node serves: [first, end).
func (d *Debug) Ranks() (first, end int) { return d.j.part.RanksOf(d.io.Index) }

func (d *Debug) node(op string, rank int) (*node, error) {
	first, end := d.Ranks()
	switch {
	case d.j.running.Load():
		return nil, &DebugError{d.io.Index, rank, op, ErrRunning.Error()}
	case rank < first || rank >= end:
		return nil, &DebugError{d.io.Index, rank, op, fmt.Sprintf("not served by this I/O node (ranks %d-%d)", first, end-1)}
	}
	return d.j.nodes[rank], nil
}

func (d *Debug) live(op string, rank int) (*node, error) {
	n, err := d.node(op, rank)
	if err == nil && (n.state == nodeExited || n.state == nodeFaulted) && op != "read" && op != "regs" {
		return nil, &DebugError{d.io.Index, rank, op, "process has " + n.state.String()}
	}
	return n, err
}

// Stop holds a node: it runs no further until Continue (a blocked node still receives
// its reply, and stays held).
func (d *Debug) Stop(rank int) error {
	n, err := d.live("stop", rank)
	if err == nil {
		n.held = true
	}
	return err
}

// Continue releases a held node. Its clock catches up with the machine's: time passed
// while it was held.
func (d *Debug) Continue(rank int) error {
	n, err := d.live("continue", rank)
	if err == nil {
		n.held = false
		n.advanceTo(nsToCycles(d.j.now))
		d.j.wake(n)
	}
	return err
}

// Status reports a node's state.
func (d *Debug) Status(rank int) (NodeStatus, error) {
	n, err := d.node("status", rank)
	if err != nil {
		return NodeStatus{}, err
	}
	return NodeStatus{Rank: rank, State: n.state.String(), Held: n.held, PC: n.cpu.PC,
		TimeNS: cyclesToNS(n.clock()), Exit: n.exit}, nil
}

// ReadMem reads size bytes of a node's memory (permissions ignored except mapping).
func (d *Debug) ReadMem(rank int, addr, size uint32) ([]byte, error) {
	n, err := d.node("read", rank)
	if err != nil {
		return nil, err
	}
	b := make([]byte, size)
	if err := n.cpu.Mem.Read(addr, b); err != nil {
		return nil, errorf("debug read on rank %d: %w", rank, err)
	}
	return b, nil
}

// WriteMem writes a node's memory as a debugger does: read-only text is patched too
// (copy-on-write keeps other nodes' pages untouched) and predecoded code is dropped.
func (d *Debug) WriteMem(rank int, addr uint32, b []byte) error {
	n, err := d.live("write", rank)
	if err != nil {
		return err
	}
	if err := n.cpu.Mem.Poke(addr, b); err != nil {
		return errorf("debug write on rank %d: %w", rank, err)
	}
	return nil
}

// WriteBatch writes a batch of patches to a node's memory as WriteMem writes each, in
// order. Nodes patched alike from the same shared text take the batch's result at once
// (ppc.PokeBatch), so a tool patching many nodes pays for its writes about once.
func (d *Debug) WriteBatch(rank int, b *ppc.PokeBatch) error {
	n, err := d.live("write", rank)
	if err != nil {
		return err
	}
	if err := n.cpu.Mem.PokeBatch(b); err != nil {
		return errorf("debug write on rank %d: %w", rank, err)
	}
	return nil
}

// Regs returns a node's registers.
func (d *Debug) Regs(rank int) (Regs, error) {
	n, err := d.node("regs", rank)
	if err != nil {
		return Regs{}, err
	}
	c := n.cpu
	return Regs{GPR: c.GPR, FPR: c.FPR, CR: c.CR, XER: c.XER, LR: c.LR, CTR: c.CTR, FPSCR: c.FPSCR, PC: c.PC}, nil
}

// SetRegs replaces a held node's registers.
func (d *Debug) SetRegs(rank int, r Regs) error {
	n, err := d.live("setregs", rank)
	if err != nil {
		return err
	}
	if !n.held || n.state != nodeRunning {
		return &DebugError{d.io.Index, rank, "setregs", "node must be held and not in a system call"}
	}
	c := n.cpu
	c.GPR, c.FPR, c.CR, c.XER, c.LR, c.CTR, c.FPSCR, c.PC = r.GPR, r.FPR, r.CR, r.XER, r.LR, r.CTR, r.FPSCR, r.PC
	return nil
}

// Step executes one instruction of a held node (a system call is served as usual; a
// shipped one leaves the node blocked until its reply). Like Continue, it first brings the
// node's clock up to the machine's.
func (d *Debug) Step(rank int) error {
	n, err := d.live("step", rank)
	if err != nil {
		return err
	}
	if !n.held || n.state != nodeRunning {
		return &DebugError{d.io.Index, rank, "step", "node must be held and not in a system call"}
	}
	n.advanceTo(nsToCycles(d.j.now))
	n.handle(d.j, n.cpu.Step())
	n.held = n.held || n.state == nodeRunning
	n.flushOutbox(d.j)
	return nil
}

// Counters returns a node's hardware counters.
func (d *Debug) Counters(rank int) (ppc.Counters, error) {
	n, err := d.node("counters", rank)
	if err != nil {
		return ppc.Counters{}, err
	}
	return n.cpu.Count, nil
}

// MemStats returns a node's memory footprint (private and shared pages).
func (d *Debug) MemStats(rank int) (ppc.MemStats, error) {
	n, err := d.node("memstats", rank)
	if err != nil {
		return ppc.MemStats{}, err
	}
	return n.cpu.Mem.Stats(), nil
}

// SetBreakpoint makes the node stop (held, EventBreakpoint) before executing addr.
func (d *Debug) SetBreakpoint(rank int, addr uint32) error {
	n, err := d.live("breakpoint", rank)
	if err == nil {
		n.cpu.SetBreakpoint(addr)
	}
	return err
}

// ClearBreakpoint removes a breakpoint.
func (d *Debug) ClearBreakpoint(rank int, addr uint32) error {
	n, err := d.node("breakpoint", rank)
	if err == nil {
		n.cpu.ClearBreakpoint(addr)
	}
	return err
}

// RedirectTrap makes a trap instruction (tw/twi) at addr on this I/O node's nodes jump to
// target instead of raising SIGTRAP: the trap-based instrumentation of DynInst.
func (d *Debug) RedirectTrap(addr, target uint32) error {
	if d.j.running.Load() {
		return &DebugError{d.io.Index, -1, "redirect", ErrRunning.Error()}
	}
	d.io.traps[addr] = target
	return nil
}

// ClearTrap removes a trap redirection.
func (d *Debug) ClearTrap(addr uint32) {
	delete(d.io.traps, addr)
}

// RedirectFault makes an access fault (unmapped or protected memory) of the instruction at
// addr on this I/O node's nodes continue at target instead of stopping the node with
// SIGSEGV: a fixup table, as a kernel keeps for the instructions that touch user memory.
// A tool uses it for instrumentation that reads memory it cannot vouch for.
func (d *Debug) RedirectFault(addr, target uint32) error {
	if d.j.running.Load() {
		return &DebugError{d.io.Index, -1, "redirect fault", ErrRunning.Error()}
	}
	d.io.faults[addr] = target
	return nil
}

// ClearFault removes an access-fault redirection.
func (d *Debug) ClearFault(addr uint32) {
	delete(d.io.faults, addr)
}

// SetTool records that a tool in this process has attached to the job and drives it
// (who names the tool; "" when it detached): whoever launched the job must not run it
// meanwhile. A second tool is refused.
func (j *Job) SetTool(who string) error {
	if who != "" && j.tool != "" {
		return errorf("the job already has a tool attached (%s)", j.tool)
	}
	j.tool = who
	return nil
}

// Tool names the tool attached to the job in this process, "" when there is none.
func (j *Job) Tool() string { return j.tool }

// SetDaemon puts a tool daemon in I/O node io's slot (nil empties it).
func (j *Job) SetDaemon(io int, dm Daemon) { j.ionode[io].daemon = dm }

// Exec runs fn in every I/O node's daemon slot with that node's debug interface, in
// I/O-node order, while the machine stands still. The errors are joined in that order.
func (j *Job) Exec(fn func(d *Debug) error) error {
	errs := make([]error, len(j.ionode))
	for i := range j.ionode {
		errs[i] = fn(j.Debug(i))
	}
	return errors.Join(errs...)
}

// Start releases every held node (a job launched Stopped begins running).
func (j *Job) Start() {
	for _, n := range j.nodes {
		if n != nil && (n.state == nodeRunning || n.state == nodeBlocked) {
			n.held = false
			j.wake(n)
		}
	}
}

// PacketsSent is how many ais_send packets rank has sent, counted at the source as the
// hypercall succeeds: a tool compares it with what its daemons received. Call it
// between windows, like the debug interface.
func (j *Job) PacketsSent(rank int) uint64 { return j.nodes[rank].sent }
