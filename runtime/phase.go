package runtime

import (
	"time"

	"github.com/dpclsh/dpclsh/probes"
)

// PhaseOptions are a phase's install options plus the probes that run once per rank
// when the phase begins and when the rank exits.
type PhaseOptions struct {
	InstallOptions
	Begin *probes.Exp // run once on every rank when the phase begins (nil: none)
	End   *probes.Exp // run by every rank when it exits, at the entry of _exit (nil: none)
}

// Phase is DPCL's Phase: a snippet the tool runs on every rank of a context each period
// of virtual time while the job runs. Handle is the periodic snippet (its stream and
// filter carry the data); Begin and End are the one-shot and exit probes, nil when not
// asked for. Activate, Deactivate and Remove on Handle act on the whole phase.
type Phase struct {
	Handle     *Handle
	Begin, End *Handle
	Period     time.Duration

	next   uint64 // virtual ns of the next firing
	active bool
	fired  int // firings sent to the daemons
}

// MinPeriod is the shortest phase period: one delivery quantum by default (a firing is
// a command through the tree; shorter periods would be all the tree does).
func (a *App) MinPeriod() time.Duration { return time.Duration(a.quantum) }

// Phase starts a phase: exp runs on every live rank of o.Context at each multiple of
// period of virtual time after now, between scheduler windows (the machine stops at the
// boundary, each rank runs exp as one-shot code where it is, and the job resumes). A
// rank blocked in a call runs it when the call returns; a firing that finds the previous
// one still waiting on a rank is merged into it. The phase is active at once.
func (a *App) Phase(period time.Duration, e *probes.Exp, o PhaseOptions) (*Phase, error) {
	if period < a.MinPeriod() {
		return nil, errorf("phase: period %v is shorter than the minimum %v", period, a.MinPeriod())
	}
	exitPts, err := a.exitPoints(o.End)
	if err != nil {
		return nil, err
	}
	h, err := a.newHandle(e, o.InstallOptions)
	if err != nil {
		return nil, err
	}
	h.state, h.active = "active", true
	p := &Phase{Handle: h, Period: period, next: a.m.Now() + uint64(period), active: true}
	if o.End != nil {
		if p.End, err = a.Install(exitPts, o.End, o.InstallOptions); err != nil {
			return p, errorf("phase: on_end: %w", err)
		}
		if err := p.End.Activate(); err != nil {
			return p, errorf("phase: on_end: %w", err)
		}
	}
	if o.Begin != nil {
		if p.Begin, err = a.Execute(o.Begin, o.InstallOptions); err != nil {
			return p, errorf("phase: on_begin: %w", err)
		}
	}
	a.phases = append(a.phases, p)
	return p, nil
}

// exitPoints is where a phase's end probe goes: the entry of _exit, which exit() and a
// return from main reach after the atexit handlers and stdio flushing.
func (a *App) exitPoints(end *probes.Exp) ([]probes.Point, error) {
	if end == nil {
		return nil, nil
	}
	for _, name := range []string{"_exit", "_Exit"} {
		if fn, ok := a.Prog.Lookup(name); ok {
			return a.Prog.Points(fn, probes.PointEntry)
		}
	}
	return nil, errorf("phase: on_end: the program has no _exit function to probe")
}

// Fired is the number of times the phase has run its snippet (on every live rank).
func (p *Phase) Fired() int { return p.fired }

// phaseOf returns the phase whose periodic handle is h, if any.
func (a *App) phaseOf(h *Handle) *Phase {
	for _, p := range a.phases {
		if p.Handle == h {
			return p
		}
	}
	return nil
}

// setActive starts or stops the periodic firings and the end probe. Reactivated, the
// phase fires next one period after now.
func (p *Phase) setActive(on bool) error {
	h := p.Handle
	verb := map[bool]string{true: "activate", false: "deactivate"}[on]
	if h.state == "removed" || h.state == "failed" {
		return errorf("%s: phase %d is %s", verb, h.ID, h.state)
	}
	if on && !p.active {
		p.next = h.app.m.Now() + uint64(p.Period)
	}
	p.active, h.active = on, on
	h.state = map[bool]string{true: "active", false: "installed"}[on]
	if p.End != nil && p.End.state != "removed" {
		return p.End.setActive(on)
	}
	return nil
}

// remove stops the phase for good and removes its end probe.
func (p *Phase) remove() error {
	h := p.Handle
	if h.state == "removed" {
		return errorf("remove: phase %d is removed", h.ID)
	}
	p.active, h.active, h.state = false, false, "removed"
	h.ranks = 0
	if p.End != nil && p.End.state != "removed" {
		return p.End.Remove()
	}
	return nil
}

// phaseDue is the virtual time of the next firing of an active phase (the machine must
// stop there), or the largest time when none is due.
func (a *App) phaseDue() uint64 {
	due := ^uint64(0)
	for _, p := range a.phases {
		if p.active {
			due = min(due, p.next)
		}
	}
	return due
}

// firePhases runs every active phase that is due now, in creation order. A firing that
// fails on every rank fails the phase (the reasons are in its stats).
func (a *App) firePhases() {
	now := a.m.Now()
	for _, p := range a.phases {
		if !p.active || p.next > now {
			continue
		}
		for p.next <= now {
			p.next += uint64(p.Period)
		}
		live := a.liveRanks(p.Handle.ctx.Contains)
		if len(live) == 0 {
			p.active = false
			continue
		}
		p.fired++
		if err := a.executeOnce(p.Handle, live); err != nil {
			p.active, p.Handle.active, p.Handle.state = false, false, "failed"
			if p.Handle.err == nil {
				p.Handle.err = errorf("phase %d at %d ns: %w", p.Handle.ID, now, err)
			}
		}
	}
}
