package runtime

import "github.com/dpclsh/dpclsh/probes"

// faultTable is the fault fixups in force on every node: a probe's access to program
// memory that may fault -> where its snippet recovers (probes.FaultFix). The machine's
// generic fault redirection (bgl.Debug.RedirectFault) applies them; bgl knows nothing of
// probes. Addresses are the same on every node, so every I/O node gets the same table.
type faultTable map[uint32]uint32

// redirectFaults replaces the fixups of the trampoline memory [base, base+size) with
// fixes on every I/O node, and drops those of pieces no rank holds any more: a piece of
// the region reused by other code must not keep the fixups of the code it held before.
func (a *App) redirectFaults(base, size uint32, fixes []probes.Fixup) error {
	if a.faults == nil {
		if len(fixes) == 0 {
			return nil
		}
		a.faults = faultTable{}
	}
	var drop []uint32
	for at := range a.faults {
		if at-base < size || !a.heldPiece(at) {
			drop = append(drop, at)
		}
	}
	if len(drop) == 0 && len(fixes) == 0 {
		return nil
	}
	for _, at := range drop {
		delete(a.faults, at)
	}
	for _, f := range fixes {
		a.faults[f.At] = f.Resume
	}
	return a.m.Exec(func(d ioDebug) error {
		for _, at := range drop {
			d.ClearFault(at)
		}
		for _, f := range fixes {
			if err := d.RedirectFault(f.At, f.Resume); err != nil {
				return err
			}
		}
		return nil
	})
}

// compileProbe compiles e for handle id. Code that touches program memory gets a fault
// counter (an int slot per process) that its fixups increment: Stats().Faults sums it. A sum
// whose count is out of range (probes.Sum) counts there too.
func (a *App) compileProbe(e *probes.Exp, id uint32) (*probes.Code, uint32, error) {
	t := &probes.Target{Tag: id, Resolve: a.Prog.Resolve}
	code, err := probes.Compile(e, t)
	if err != nil || (len(code.Faults) == 0 && !code.Bounded) {
		return code, 0, err
	}
	v, err := a.slots.Alloc("", probes.Int)
	if err != nil {
		return nil, 0, err
	}
	t.FaultCounter = v.Addr
	code, err = probes.Compile(e, t)
	return code, v.Addr, err
}

// faultCount sums the handle's fault counter over the ranks of its context.
func (h *Handle) faultCount() int {
	if h.faultAddr == 0 {
		return 0
	}
	n, _ := h.app.SumCounter(h.faultAddr, h.ctx.Contains)
	return int(n)
}

// notePoints remembers each point's index in the list the handle was installed on (the
// first, when a point is listed twice): probes.PointIndex yields it.
func (h *Handle) notePoints(points []probes.Point) {
	h.pointIndex = map[uint32]int{}
	for i, p := range points {
		if _, ok := h.pointIndex[p.Addr]; !ok {
			h.pointIndex[p.Addr] = i
		}
	}
}

// codeAt is the handle's snippet as placed at p: point() and func() filled in.
func (h *Handle) codeAt(p probes.Point) *probes.Code {
	idx, ok := h.pointIndex[p.Addr]
	if !ok {
		idx = -1
	}
	fn, _ := h.app.Prog.FuncIndex(p.Addr)
	return h.code.ForPoint(int32(idx), int32(fn))
}

// redirectExecute registers the fixups of a one-shot snippet at base: the daemons build
// its trampoline per rank around each rank's next instruction, but the snippet sits at
// the same offset in every one of them.
func (a *App) redirectExecute(code *probes.Code, base, size uint32) error {
	pt := probes.Point{Kind: probes.PointEntry, Addr: base, Word: 0x60000000}
	tr, err := probes.BuildTrampoline(pt, []*probes.Code{code}, []bool{true}, base, a.guard)
	if err != nil {
		return err
	}
	return a.redirectFaults(base, size, tr.Fixups)
}

// heldPiece reports whether addr lies in a piece of trampoline memory some rank holds.
func (a *App) heldPiece(addr uint32) bool {
	for b, u := range a.spans {
		if addr-b < u.size {
			return true
		}
	}
	return false
}
