package runtime

import (
	"errors"

	"github.com/dpclsh/dpclsh/probes"
)

// pointState is one instrumented point: its handles in installation order and the
// trampoline currently patched in.
type pointState struct {
	pt      probes.Point
	handles []*Handle
	tramp   *probes.Trampoline
}

// Install compiles e once and splices it, inactive (DPCL semantics), into every point on
// the ranks of the context: one patch command to the daemons that serve them.
func (a *App) Install(points []probes.Point, e *probes.Exp, o InstallOptions) (*Handle, error) {
	hs, err := a.InstallAll([]InstallRequest{{Points: points, Exp: e, Options: o}})
	if len(hs) == 0 {
		return nil, err
	}
	return hs[0], err
}

// InstallRequest is one probe of InstallAll.
type InstallRequest struct {
	Points  []probes.Point
	Exp     *probes.Exp
	Options InstallOptions
	Active  bool // placed active (its toggles on), with no activation command after
}

// InstallAll installs several probes, in order (at a point shared by several, they run in
// the order given), with one patch command: each point's trampoline is placed once with
// all of them, rather than once per probe with every earlier one again, which made a tool
// installing many probes at one point (limpio at _exit) write the point's code a number of
// times growing with the probes, on every rank. Nothing is installed when a request does
// not compile; the handles made so far are then returned failed with the error.
func (a *App) InstallAll(reqs []InstallRequest) ([]*Handle, error) {
	for _, r := range reqs {
		if len(r.Points) == 0 {
			return nil, errorf("install: no points")
		}
		for _, p := range r.Points {
			if err := probes.CheckAt(r.Exp, p); err != nil {
				return nil, errorf("install: %w", err)
			}
		}
	}
	hs := make([]*Handle, 0, len(reqs))
	for _, r := range reqs {
		h, err := a.newHandle(r.Exp, r.Options)
		if err != nil {
			for _, made := range hs {
				made.state = "failed"
			}
			return hs, err
		}
		h.notePoints(r.Points)
		h.active = r.Active
		hs = append(hs, h)
	}
	var all []probes.Point
	seenAll := map[uint32]bool{}
	for i, h := range hs {
		seen := map[uint32]bool{}
		for _, p := range reqs[i].Points {
			if !seen[p.Addr] {
				seen[p.Addr] = true
				h.points = append(h.points, p)
			}
		}
		for _, p := range h.points {
			ps := a.points[p.Addr]
			if ps == nil {
				ps = &pointState{pt: p}
				a.points[p.Addr] = ps
			}
			ps.handles = append(ps.handles, h)
			if !seenAll[p.Addr] {
				seenAll[p.Addr] = true
				all = append(all, p)
			}
		}
	}
	ans, err := a.repatch(all)
	if err != nil {
		for _, h := range hs {
			h.state = "failed"
		}
		return hs, err
	}
	var first error
	for _, h := range hs {
		if err := h.record("install", ans); err != nil {
			h.state = "failed"
			if first == nil {
				first = err
			}
		} else if h.active {
			h.state = "active"
		}
	}
	return hs, first
}

// repatch builds a new trampoline for each point (or restores it when no handle is left)
// and sends one patch command to every live rank any handle there covers.
func (a *App) repatch(points []probes.Point) (*Answer, error) {
	c := &Command{Op: OpPatch}
	involved := map[uint32]*Handle{}
	for _, p := range points {
		plans, err := a.plan(a.points[p.Addr], p)
		if err != nil {
			return nil, err
		}
		c.Points = append(c.Points, plans...)
		if ps := a.points[p.Addr]; ps != nil {
			for _, h := range ps.handles {
				involved[h.ID] = h
			}
		}
	}
	for _, h := range a.handles {
		if involved[h.ID] != nil || h.hasPoint(points) {
			c.Handles = append(c.Handles, h.ranksOf())
			involved[h.ID] = h
		}
	}
	ranks := a.liveRanks(func(r int) bool {
		for _, h := range involved {
			if h.ctx.Contains(r) {
				return true
			}
		}
		return false
	})
	ans, err := a.command(c, ranks)
	if err != nil {
		return nil, err
	}
	for _, p := range c.Points {
		a.relink(p, ranks)
	}
	return ans, nil
}

// relink records where a patched address now branches and which ranks hold the piece.
func (a *App) relink(p PointPlan, ranks []int) {
	if old, ok := a.linked[p.Addr]; ok && old != p.Base {
		delete(a.linked, p.Addr)
		a.unlinked(old)
	}
	if p.Base == 0 {
		return
	}
	cover := append([]uint32(nil), p.Cover...)
	for _, t := range p.Toggles {
		cover = append(cover, t.Handle)
	}
	var holders []int
	for _, r := range ranks {
		for _, id := range cover {
			if a.handles[id-1].ctx.Contains(r) {
				holders = append(holders, r)
				break
			}
		}
	}
	a.placed(p.Base, uint32(4*len(p.Words)), true, holders)
	a.linked[p.Addr] = p.Base
}

func (h *Handle) hasPoint(points []probes.Point) bool {
	for _, p := range h.points {
		for _, q := range points {
			if p.Addr == q.Addr {
				return true
			}
		}
	}
	return false
}

// plan lays out the point's new trampoline at a fresh address (Base 0 restores the
// point). An entry that is also a loop head gets its loop branches redirected to the
// trampoline's Resume, so the probes fire once per call, not once per iteration.
func (a *App) plan(ps *pointState, p probes.Point) ([]PointPlan, error) {
	if ps == nil || len(ps.handles) == 0 {
		delete(a.points, p.Addr)
		plans := []PointPlan{{Addr: p.Addr, Orig: p.Word}}
		loops, err := a.loopBranches(p)
		for _, src := range loops {
			plans = append(plans, PointPlan{Addr: src.Addr, Orig: src.Word})
		}
		return plans, err
	}
	codes := make([]*probes.Code, len(ps.handles))
	cover := make([]uint32, len(ps.handles))
	for i, h := range ps.handles {
		codes[i], cover[i] = h.codeAt(p), h.ID
	}
	size, err := probes.TrampolineSize(ps.pt, codes)
	if err != nil {
		return nil, err
	}
	base, err := a.alloc(size)
	if err != nil {
		return nil, err
	}
	tr, err := probes.BuildTrampoline(ps.pt, codes, make([]bool, len(codes)), base, a.guard)
	if err != nil {
		return nil, err
	}
	ps.tramp = tr
	if err := a.redirectFaults(base, tr.Size(), tr.Fixups); err != nil {
		return nil, err
	}
	plan := PointPlan{Addr: p.Addr, Orig: p.Word, Patch: tr.Patch, Base: base, Words: tr.Words}
	for i, t := range tr.Toggles {
		plan.Toggles = append(plan.Toggles, ToggleWord{Handle: ps.handles[i].ID, Addr: t.Addr, On: t.On, Off: t.Off})
	}
	plans := []PointPlan{plan}
	loops, err := a.loopBranches(p)
	for _, src := range loops {
		rd, err := a.redirect(src, tr.Resume)
		if err != nil {
			return nil, err
		}
		plans = append(plans, PointPlan{Addr: src.Addr, Orig: src.Word, Patch: rd.Patch, Base: rd.Base,
			Words: rd.Words, Cover: cover})
	}
	return plans, err
}

// redirect reserves memory for src's redirect and builds it there. Its size does not
// depend on where it goes, so a build at the region's start measures it; the real one is
// made at the address alloc returns, which may be a reused piece, not fresh memory.
func (a *App) redirect(src probes.Point, target uint32) (*probes.Trampoline, error) {
	probe, err := probes.BuildRedirect(src, target, a.region.Start)
	if err != nil {
		return nil, err
	}
	base, err := a.alloc(probe.Size())
	if err != nil {
		return nil, err
	}
	return probes.BuildRedirect(src, target, base)
}

// loopBranches lists the branches inside p's function back to p when p is an entry
// that is also a loop head.
func (a *App) loopBranches(p probes.Point) ([]probes.Point, error) {
	if p.Kind != probes.PointEntry || !p.BranchTarget {
		return nil, nil
	}
	fn, ok := a.Prog.FuncAt(p.Addr)
	if !ok {
		return nil, errorf("no function at 0x%x", p.Addr)
	}
	return a.Prog.BranchesTo(fn, p.Addr)
}

// Activate turns the handle's snippets on at every point (a toggle word each).
func (h *Handle) Activate() error { return h.setActive(true) }

// Deactivate turns them off without removing anything.
func (h *Handle) Deactivate() error { return h.setActive(false) }

func (h *Handle) setActive(on bool) error {
	if p := h.app.phaseOf(h); p != nil {
		return p.setActive(on)
	}
	verb := map[bool]string{true: "activate", false: "deactivate"}[on]
	if h.state == "removed" || h.state == "failed" || h.oneShot {
		return errorf("%s: probe %d is %s", verb, h.ID, h.describeState())
	}
	h.active = on
	c := &Command{Op: OpToggle, Handle: h.ID, Active: on, Handles: []HandleRanks{h.ranksOf()}}
	for _, p := range h.points {
		ps := h.app.points[p.Addr]
		for i, o := range ps.handles {
			if o == h {
				t := ps.tramp.Toggles[i]
				c.Toggles = append(c.Toggles, ToggleWord{Handle: h.ID, Addr: t.Addr, On: t.On, Off: t.Off})
			}
		}
	}
	ans, err := h.app.command(c, h.app.liveRanks(h.ctx.Contains))
	if err != nil {
		return err
	}
	if err := h.record(verb, ans); err != nil {
		return err
	}
	h.state = map[bool]string{true: "active", false: "installed"}[on]
	return nil
}

func (h *Handle) describeState() string {
	if h.oneShot {
		return "a one-shot probe"
	}
	return h.state
}

// Remove takes the probe out of every point: points left without probes get their
// original word back; the old trampolines are freed by each daemon once no PC or return
// address of the node lies in them. Packets already sent are still delivered.
func (h *Handle) Remove() error {
	if p := h.app.phaseOf(h); p != nil {
		return p.remove()
	}
	if h.state == "removed" || h.oneShot {
		return errorf("remove: probe %d is %s", h.ID, h.describeState())
	}
	for _, p := range h.points {
		ps := h.app.points[p.Addr]
		kept := ps.handles[:0]
		for _, o := range ps.handles {
			if o != h {
				kept = append(kept, o)
			}
		}
		ps.handles = kept
	}
	h.active = false
	ans, err := h.app.repatch(h.points)
	if err != nil {
		return err
	}
	h.state = "removed"
	err = h.record("remove", ans)
	h.ranks = 0
	return err
}

// ErrNoLiveRank is Execute's error when every rank of the context has ended (the job is
// over, or that part of it): there is nowhere left to run a snippet.
var ErrNoLiveRank = errors.New("no live rank in the context")

// Execute runs e once on every live rank of the context (DPCL's one-shot probe): a
// stopped or running rank runs it where it is when it next runs; a rank blocked in a
// call runs it as soon as the call returns.
func (a *App) Execute(e *probes.Exp, o InstallOptions) (*Handle, error) {
	h, err := a.newHandle(e, o)
	if err != nil {
		return nil, err
	}
	h.oneShot, h.state, h.active = true, "active", true
	live := a.liveRanks(h.ctx.Contains)
	if len(live) == 0 {
		h.state = "failed"
		return h, errorf("execute: %w", ErrNoLiveRank)
	}
	h.expect = live
	return h, a.executeOnce(h, live)
}

// executeOnce runs h's snippet once on the live ranks: one trampoline address for all,
// freed by each daemon once its node has left it. Execute and every firing of a phase
// use it.
func (a *App) executeOnce(h *Handle, live []int) error {
	// The displaced instruction's relocation is at most a few words; the frame and the
	// saves are what TrampolineSize measures.
	size, err := probes.TrampolineSize(probes.Point{Kind: probes.PointEntry, Addr: a.region.Start, Word: 0x60000000}, []*probes.Code{h.code})
	if err != nil {
		return err
	}
	base, err := a.alloc(size + 64)
	if err != nil {
		return err
	}
	if err := a.redirectExecute(h.code, base, size+64); err != nil {
		return err
	}
	code := *h.code
	code.Exp = nil
	c := &Command{Op: OpExecute, Handles: []HandleRanks{h.ranksOf()},
		Exec: &ExecutePlan{Handle: h.ID, Stream: h.stream, Base: base, Guard: a.guard, Code: &code}}
	ans, err := a.command(c, live)
	if err != nil {
		return err
	}
	a.placed(base, size+64, false, live)
	return h.record("execute", ans)
}
