package runtime

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dpclsh/dpclsh/bgl"
)

// Process is one rank of the application seen through its I/O node's debug interface.
type Process struct {
	app  *App
	Rank int
}

// Frame is one symbolised backtrace entry.
type Frame struct {
	Addr   uint32
	Func   string // "" when no symbol covers Addr
	Offset uint32
	File   string
	Line   int
}

// Process returns rank's process.
func (a *App) Process(rank int) (*Process, error) {
	if rank < 0 || rank >= a.Size() {
		return nil, errorf("process: rank %d is not in 0..%d", rank, a.Size()-1)
	}
	return &Process{app: a, Rank: rank}, nil
}

func (p *Process) debug() ioDebug { return p.app.m.Debug(p.app.IONodeOf(p.Rank)) }

// Status is the node's state: "created" (the job has not started; held at its entry),
// "running", "blocked", "exited" or "faulted", and whether the debug interface holds it.
// A rank the application has seen end (app:terminate kills every rank) is "exited" or
// "faulted" and not held, whatever its node has yet to report.
func (p *Process) Status() (bgl.NodeStatus, error) {
	st, err := p.debug().Status(p.Rank)
	if err != nil {
		return st, err
	}
	if ev, ok := p.app.ended[p.Rank]; ok {
		st.State, st.Held, st.Exit = "exited", false, ev
		if ev.Kind == bgl.EventFault {
			st.State = "faulted"
		}
	} else if !p.app.started {
		st.State = "created"
	}
	return st, nil
}

// Regs returns the registers.
func (p *Process) Regs() (bgl.Regs, error) { return p.debug().Regs(p.Rank) }

// Read reads n bytes at addr.
func (p *Process) Read(addr, n uint32) ([]byte, error) { return p.debug().ReadMem(p.Rank, addr, n) }

// Reg returns a register by name: r0..r31, f0..f31 (raw bits), pc, lr, ctr, cr, xer, fpscr.
func (p *Process) Reg(name string) (uint64, error) {
	r, err := p.Regs()
	if err != nil {
		return 0, err
	}
	special := map[string]uint32{"pc": r.PC, "lr": r.LR, "ctr": r.CTR, "cr": r.CR, "xer": r.XER, "fpscr": r.FPSCR}
	if v, ok := special[name]; ok {
		return uint64(v), nil
	}
	if len(name) > 1 && (name[0] == 'r' || name[0] == 'f') {
		if n, err := strconv.Atoi(name[1:]); err == nil && n >= 0 && n < 32 {
			if name[0] == 'r' {
				return uint64(r.GPR[n]), nil
			}
			return r.FPR[n], nil
		}
	}
	return 0, errorf("rank %d: no register %q (r0-r31, f0-f31, pc, lr, ctr, cr, xer, fpscr)", p.Rank, name)
}

// Backtrace walks the r1 back chain as bgl.Debug.Backtrace does (the innermost function
// may not have made its frame, may have popped it, or keep its return address in LR) and
// names each address as fault reports do: the program's symbols and lines, the tool's
// modules and trampolines.
func (p *Process) Backtrace() ([]Frame, error) {
	frames, err := p.debug().Backtrace(p.Rank)
	if err != nil {
		return nil, err
	}
	out := make([]Frame, len(frames))
	for i, f := range frames {
		out[i] = Frame{Addr: f.PC, Func: f.Loc.Func, File: f.Loc.File, Line: f.Loc.Line}
		at := f.PC
		if f.Loc.At != 0 { // a displaced instruction: where it came from
			at = f.Loc.At
		}
		if f.Loc.Start != 0 {
			out[i].Offset = at - f.Loc.Start
		}
	}
	return out, nil
}

func (f Frame) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "0x%08x", f.Addr)
	if f.Func != "" {
		fmt.Fprintf(&b, " %s+0x%x", f.Func, f.Offset)
	}
	if f.File != "" {
		fmt.Fprintf(&b, " (%s:%d)", f.File, f.Line)
	}
	return b.String()
}
