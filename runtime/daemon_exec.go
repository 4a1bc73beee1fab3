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
	if st.State == "blocked" {
		d.pending[rank] = c.Exec
		return m.SetBreakpoint(rank, st.PC)
	}
	return d.redirect(m, c.Exec, rank)
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
	return m.SetRegs(rank, r)
}

func beWord(b []byte) uint32 { return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3]) }

// Packet takes what a probe on one of the daemon's nodes sent (an ais_send packet) and
// queues it for the tree on its handle's stream.
func (d *Daemon) Packet(_ *bgl.Debug, p bgl.Packet) {
	d.mu.Lock()
	defer d.mu.Unlock()
	tag, vals, err := probes.DecodeSend(p.Data)
	stream, ok := d.streams[tag]
	if err != nil || !ok {
		d.stray++
		return
	}
	values := make([]any, len(vals))
	for i, v := range vals {
		if v.T == probes.Double {
			values[i] = v.F
		} else {
			values[i] = v.I
		}
	}
	d.out = append(d.out, Outgoing{Rank: p.Rank, Stream: stream, Handle: tag, Time: p.Time, Values: values})
}

// Event runs a pending one-shot snippet on a rank that reached its breakpoint.
func (d *Daemon) Event(dbg *bgl.Debug, ev bgl.Event) {
	d.eventOn(dbg, ev)
}

func (d *Daemon) eventOn(m Machine, ev bgl.Event) {
	d.mu.Lock()
	defer d.mu.Unlock()
	x := d.pending[ev.Rank]
	if x == nil || ev.Kind != bgl.EventBreakpoint {
		if ev.Kind == bgl.EventExit || ev.Kind == bgl.EventFault {
			delete(d.pending, ev.Rank)
		}
		return
	}
	delete(d.pending, ev.Rank)
	m.ClearBreakpoint(ev.Rank, ev.PC)
	if d.redirect(m, x, ev.Rank) == nil {
		m.Continue(ev.Rank)
	}
}

// TakeOutgoing returns and clears the packets queued for the tree.
func (d *Daemon) TakeOutgoing() []Outgoing {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := d.out
	d.out = nil
	return out
}

// Stray is the number of packets that named no known handle.
func (d *Daemon) Stray() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.stray
}
