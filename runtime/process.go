package runtime

import (
	"encoding/binary"
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
		return nil, fmt.Errorf("runtime: process: rank %d is not in 0..%d", rank, a.Size()-1)
	}
	return &Process{app: a, Rank: rank}, nil
}

func (p *Process) debug() *bgl.Debug { return p.app.Job.Debug(p.app.IONodeOf(p.Rank)) }

// Status is the node's state: "running", "blocked", "exited" or "faulted", and whether
// the debug interface holds it.
func (p *Process) Status() (bgl.NodeStatus, error) { return p.debug().Status(p.Rank) }

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
	return 0, fmt.Errorf("runtime: rank %d: no register %q (r0-r31, f0-f31, pc, lr, ctr, cr, xer, fpscr)", p.Rank, name)
}

// Backtrace walks the r1 back chain (SysV PPC32: the caller's frame keeps the return
// address at +4) and symbolises each address with the program's symbols and lines. A
// function that has not called anything yet may not have saved LR: when LR lies in
// another function than the PC, it is the second frame.
func (p *Process) Backtrace() ([]Frame, error) {
	r, err := p.Regs()
	if err != nil {
		return nil, err
	}
	addrs := []uint32{r.PC}
	fpc, _ := p.app.Prog.FuncAt(r.PC)
	// The current function's return address is in LR until it calls something; its
	// save slot in the caller's frame may be stale until then, so it is skipped.
	skip := false
	if flr, ok := p.app.Prog.FuncAt(r.LR); ok && flr.Name != fpc.Name {
		addrs, skip = append(addrs, r.LR), true
	}
	sp := r.GPR[1]
	for range 64 {
		b, err := p.Read(sp, 4)
		if err != nil {
			break
		}
		back := binary.BigEndian.Uint32(b)
		if back <= sp {
			break
		}
		b, err = p.Read(back+4, 4)
		if err != nil {
			break
		}
		ra := binary.BigEndian.Uint32(b)
		if _, ok := p.app.Prog.FuncAt(ra); !ok {
			break
		}
		if !skip && ra != addrs[len(addrs)-1] {
			addrs = append(addrs, ra)
		}
		skip = false
		sp = back
	}
	out := make([]Frame, len(addrs))
	for i, a := range addrs {
		out[i] = p.app.symbolise(a)
	}
	return out, nil
}

func (a *App) symbolise(addr uint32) Frame {
	fr := Frame{Addr: addr}
	if f, ok := a.Prog.FuncAt(addr); ok {
		fr.Func, fr.Offset = f.Name, addr-f.Addr
	}
	fr.File, fr.Line = a.Prog.LineOf(addr)
	return fr
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
