package runtime

import (
	"fmt"

	"github.com/dpclsh/dpclsh/bgl"
	"github.com/dpclsh/dpclsh/probes"
)

// execute runs a one-shot snippet on rank: a trampoline for the instruction the rank is
// stopped at runs the snippet, then that instruction relocated, then branches back. A
// rank blocked in a call gets a breakpoint at its resume address instead, and runs the
// snippet when the call completes (see Event).
func (d *Daemon) execute(m Machine, c *Command, rank int) error {
	if c.Exec == nil || c.Exec.Code == nil {
		return fmt.Errorf("execute command without code")
	}
	st, err := m.Status(rank)
	if err != nil {
		return err
	}
	if old := d.pending[rank]; old != nil {
		for _, p := range old.plans {
			if p.Handle == c.Exec.Handle {
				// A phase fired again while its last firing still waits for this blocked
				// rank: merge the two. Nothing is written; the piece is free at once.
				d.unlinked[rank] = append(d.unlinked[rank], span{c.Exec.Base, 4})
				return nil
			}
		}
		// Another probe's snippet waits for the same return: both run then.
		old.plans = append(old.plans, c.Exec)
		return nil
	}
	if st.State == "blocked" {
		return d.defer1(m, c.Exec, rank, st.PC)
	}
	return d.redirect(m, c.Exec, rank)
}

// defer1 arms breakpoints on every instruction that can run right after the one at pc
// (a node resuming at a breakpoint runs past it, so pc itself cannot hold one).
func (d *Daemon) defer1(m Machine, x *ExecutePlan, rank int, pc uint32) error {
	r, err := m.Regs(rank)
	if err != nil {
		return err
	}
	w, err := m.ReadMem(rank, pc, 4)
	if err != nil {
		return err
	}
	next := successors(beWord(w), pc, r.LR, r.CTR)
	for _, a := range next {
		if err := m.SetBreakpoint(rank, a); err != nil {
			return err
		}
	}
	d.pending[rank] = &pendingExec{plans: []*ExecutePlan{x}, bps: next}
	return nil
}

// pendingExec is the one-shot snippets (of different probes) waiting for their blocked
// rank, in the order they came.
type pendingExec struct {
	plans []*ExecutePlan
	bps   []uint32
}

// successors lists where control can go after the instruction w at pc: the next word,
// and a branch's targets (b, bc, bclr through LR, bcctr through CTR).
func successors(w, pc, lr, ctr uint32) []uint32 {
	bo := w >> 21 & 31
	always := bo&0x14 == 0x14
	var out []uint32
	switch w >> 26 {
	case 18:
		off := uint32(int32(w<<6)>>6) &^ 3
		return []uint32{branchTo(w, pc, off)}
	case 16:
		off := uint32(int32(int16(w))) &^ 3
		out = append(out, branchTo(w, pc, off))
	case 19:
		switch w >> 1 & 0x3ff {
		case 16:
			out = append(out, lr&^3)
		case 528:
			out = append(out, ctr&^3)
		default:
			return []uint32{pc + 4}
		}
	default:
		return []uint32{pc + 4}
	}
	if !always {
		out = append(out, pc+4)
	}
	return out
}

func branchTo(w, pc, off uint32) uint32 {
	if w&2 != 0 {
		return off
	}
	return pc + off
}

// redirect points a runnable rank's PC at a one-shot trampoline.
func (d *Daemon) redirect(m Machine, x *ExecutePlan, rank int) error {
	st, err := m.Status(rank)
	if err != nil {
		return err
	}
	if !st.Held {
		if err := m.Stop(rank); err != nil {
			return err
		}
		defer m.Continue(rank)
	}
	r, err := m.Regs(rank)
	if err != nil {
		return err
	}
	w, err := m.ReadMem(rank, r.PC, 4)
	if err != nil {
		return err
	}
	pt := probes.Point{Kind: probes.PointEntry, Addr: r.PC, Word: beWord(w)}
	tr, err := probes.BuildTrampoline(pt, []*probes.Code{x.Code}, []bool{true}, x.Base, x.Guard)
	if err != nil {
		return err
	}
	if err := m.WriteMem(rank, x.Base, tr.Bytes()); err != nil {
		return err
	}
	r.PC = x.Base
	if err := m.SetRegs(rank, r); err != nil {
		return err
	}
	// Nothing branches to a one-shot trampoline: it is free once the node has left it,
	// and the trampoline it was stopped in, if any, once it has left this one too.
	if d.inReg(pt.Addr) {
		if d.resumes[rank] == nil {
			d.resumes[rank] = map[uint32]uint32{}
		}
		d.resumes[rank][x.Base] = pt.Addr
	}
	d.unlinked[rank] = append(d.unlinked[rank], span{x.Base, tr.Size()})
	d.own(rank, span{x.Base, tr.Size()}, x.Handle)
	return nil
}

func beWord(b []byte) uint32 {
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
}

// Ready is what one step of a daemon asks its driver to do (as etcd raft's Ready): push
// packets up the tree, report packets it rejected.
type Ready struct {
	Up       []Outgoing
	Rejected []Rejected
}

// Packet takes what a probe on one of the daemon's nodes sent (an ais_send packet), as
// the machine hands it over: a packet for a handle's stream goes up (Ready.Up). Only the
// handle's own code may send on its stream: a packet whose sc lies outside every
// trampoline holding that handle's snippet (the program calling the hypercall itself),
// or that does not decode, is dropped and reported (Ready.Rejected), never forwarded.
// Packets are checked against the daemon's state when the machine hands them over,
// which is the state the sending rank ran with (commands reach daemons only while the
// job stands still).
func (d *Daemon) Packet(p bgl.Packet) Ready {
	tag, vals, err := probes.DecodeSend(p.Data)
	stream, ok := d.streams[tag]
	switch {
	case err != nil:
		return reject(p, fmt.Sprintf("malformed packet: %v", err))
	case !ok:
		return reject(p, fmt.Sprintf("packet for probe %d, which this daemon does not know", tag))
	case !d.owns(p.Rank, p.PC, tag):
		return reject(p, fmt.Sprintf("packet for probe %d sent from outside its code", tag))
	}
	values := make([]any, len(vals))
	for i, v := range vals {
		if v.T == probes.Double {
			values[i] = v.F
		} else {
			values[i] = v.I
		}
	}
	return Ready{Up: []Outgoing{{Rank: p.Rank, Stream: stream, Handle: tag, Time: p.Time, Values: values}}}
}

// Event runs a pending one-shot snippet on a rank that reached its breakpoint.
func (d *Daemon) Event(ev bgl.Event) {
	m := d.m
	x := d.pending[ev.Rank]
	if x == nil || ev.Kind != bgl.EventBreakpoint {
		if ev.Kind == bgl.EventExit || ev.Kind == bgl.EventFault {
			delete(d.pending, ev.Rank)
		}
		return
	}
	delete(d.pending, ev.Rank)
	for _, a := range x.bps {
		m.ClearBreakpoint(ev.Rank, a)
	}
	// Each redirect builds its trampoline where the rank stands, the last one's: the
	// snippets run in the reverse order, each going back into the one before.
	ok := true
	for _, p := range x.plans {
		ok = d.redirect(m, p, ev.Rank) == nil && ok
	}
	if ok {
		m.Continue(ev.Rank)
	}
}

// Rejected is a packet a daemon dropped: malformed, for an unknown probe, or not sent
// by the probe's own code.
type Rejected struct {
	Rank   int
	PC     uint32
	Time   uint64
	Reason string
}

func reject(p bgl.Packet, why string) Ready {
	return Ready{Rejected: []Rejected{{Rank: p.Rank, PC: p.PC, Time: p.Time, Reason: why}}}
}
