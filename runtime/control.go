package runtime

import (
	"context"
	"math"
	"sort"

	"github.com/dpclsh/dpclsh/bgl"
)

// Message is one packet of a handle's stream delivered at the front-end.
type Message struct {
	Handle *Handle
	Values []any
	Rank   int    // the sending rank; -1 once aggregated
	Count  int    // ranks merged into it
	Time   uint64 // virtual ns: when its (last) packet reached the I/O node
	// SentFirst and SentLast are when the earliest and the latest of the ranks' packets
	// merged into it were sent (virtual job ns): Time-SentLast is how long the newest
	// data spent in the tool's tree.
	SentFirst, SentLast uint64
}

// Batch is what one Step produced, in delivery order.
type Batch struct {
	Messages []Message
	Events   []bgl.Event
	Failures []Failure  // handles whose stream a filter failed, each reported once
	Rejected []Rejected // packets the daemons dropped (malformed, or not from a probe's code)
	Reason   bgl.StopReason
}

// Failure says that a filter at a tree node failed a handle's stream.
type Failure struct {
	Handle *Handle
	Node   string
	Reason string
}

// Rejected is how many packets the daemons have dropped so far.
func (a *App) Rejected() int { return a.rejectedTotal }

// Costs is the application's cost model.
func (a *App) Costs() *Costs { return a.opts.Costs }

// Start releases every rank (the job was launched stopped at its entry).
func (a *App) Start() error {
	if a.started {
		return errorf("start: the job has already started")
	}
	a.started = true
	a.m.Start()
	return nil
}

// Suspend holds every live rank; Resume releases them.
func (a *App) Suspend() error { return a.holdAll(OpStop, true) }

// Resume releases the ranks Suspend held.
func (a *App) Resume() error { return a.holdAll(OpContinue, false) }

func (a *App) holdAll(op Op, hold bool) error {
	if !a.started {
		return errorf("%s: the job has not started", op)
	}
	ans, err := a.command(&Command{Op: op}, a.liveRanks(nil))
	if err != nil {
		return err
	}
	a.suspended = hold
	return ans.Err(op.String())
}

// Terminate ends the job: live ranks are held for good and count as killed (status
// 128+9); the tool and the tree stay usable for what was already delivered.
func (a *App) Terminate() error {
	if a.terminated {
		return nil
	}
	live := a.liveRanks(nil)
	for _, r := range live {
		io := a.IONodeOf(r)
		if err := a.m.Debug(io).Stop(r); err != nil {
			return errorf("terminate: %w", err)
		}
		ev := bgl.Event{Kind: bgl.EventExit, Rank: r, Time: a.m.Now(), Signal: 9, Status: 128 + 9}
		a.ended[r] = ev
		a.kills = append(a.kills, ev)
		a.tree.Kill(r, int64(ev.Time))
	}
	a.terminated = true
	a.dropEnded()
	return nil
}

// Status is "created", "running", "suspended", "exited" or "faulted".
func (a *App) Status() string {
	switch {
	case len(a.ended) == a.Size():
		for _, ev := range a.ended {
			if ev.Kind == bgl.EventFault {
				return "faulted"
			}
		}
		return "exited"
	case !a.started:
		return "created"
	case a.suspended:
		return "suspended"
	}
	return "running"
}

// Counts says how many ranks exited, faulted, and are running (none before the job
// starts), with the exit status of every ended rank.
func (a *App) Counts() (exited, faulted, running int, codes map[int]int) {
	codes = map[int]int{}
	for r, ev := range a.ended {
		codes[r] = ev.Status
		if ev.Kind == bgl.EventFault {
			faulted++
		} else {
			exited++
		}
	}
	if !a.started {
		return exited, faulted, 0, codes
	}
	return exited, faulted, a.Size() - len(a.ended), codes
}

// FaultReports is one line per faulted rank, in rank order: the signal, the pc, the
// code that holds it and its callers (bgl.Event.FaultReport).
func (a *App) FaultReports() []string {
	var out []string
	for r := range a.Size() {
		if ev, ok := a.ended[r]; ok && ev.Kind == bgl.EventFault {
			out = append(out, ev.FaultReport())
		}
	}
	return out
}

// Done reports whether every rank has ended.
func (a *App) Done() bool { return len(a.ended) == a.Size() }

// liveRanks lists the ranks of set (nil: all) that have not ended.
func (a *App) liveRanks(set func(int) bool) []int {
	var out []int
	for r := range a.Size() {
		if _, gone := a.ended[r]; !gone && (set == nil || set(r)) {
			out = append(out, r)
		}
	}
	return out
}

// Step advances the machine until virtual time limit (ns), until something reached the
// front-end or happened, or until ctx is done; it returns what reached the front-end by
// then, in arrival order. Once the machine cannot move any more (the job ended, or every
// live rank is held) the tool's tree runs until it is quiet, so the batch holds the
// last messages too, at their virtual arrival times.
func (a *App) Step(ctx context.Context, limit uint64) (*Batch, error) {
	if a.closed {
		return nil, errorf("the application is closed")
	}
	b := &Batch{Reason: bgl.StopIdle}
	if err := a.lostErr(); err != nil {
		return nil, err
	}
	if a.started && !a.terminated {
		b.Reason = a.run(ctx, limit)
		for i := 0; a.Done() && b.Reason == bgl.StopPaused && i < 2; i++ {
			// The last exit paused the machine: let it hand over what is still on the
			// way from the ranks (it does so once no rank is left).
			b.Reason = a.m.RunUntil(^uint64(0))
		}
	}
	if err := a.lostErr(); err != nil {
		return nil, err
	}
	a.dropEnded()
	until := int64(a.m.Now())
	if b.Reason == bgl.StopDone || b.Reason == bgl.StopIdle {
		a.tree.Quiesce()
		until = math.MaxInt64
	} else {
		a.advanceTree()
	}
	b.Messages, b.Failures = a.drain(until)
	b.Events, a.events = a.events, nil
	b.Rejected, a.rejected = a.rejected, nil
	return b, nil
}

// run advances the machine in quanta of virtual time until limit, stopping early (at a
// quantum's end, StopPaused) when a message reached the front-end, an exit or fault
// event came, or ctx is done. The tool's tree advances with the machine, a quantum at a
// time: a quantum, not every window, bounds how late a callback runs after its message
// reached the front-end.
func (a *App) run(ctx context.Context, limit uint64) bgl.StopReason {
	stop := context.AfterFunc(ctx, a.m.Pause)
	defer stop()
	for {
		end := min(limit, a.m.Now()+a.quantum, a.phaseDue())
		r := a.m.RunUntil(end)
		if r == bgl.StopTime || r == bgl.StopPaused {
			a.advanceTree()
		}
		if r == bgl.StopTime {
			a.firePhases()
		}
		switch {
		case r != bgl.StopTime:
			return r
		case end == limit:
			return bgl.StopTime
		case ctx.Err() != nil || a.tree.Ready(int64(a.m.Now())):
			return bgl.StopPaused
		}
	}
}

// advanceTree runs the tool's tree up to the machine's clock: every message due before
// it is handled, and timeout waves that expired close.
func (a *App) advanceTree() {
	now := int64(a.m.Now())
	a.tree.Advance(now)
	if a.timeouts > 0 {
		a.tree.Tick(now)
	}
}

// inject pushes a packet a daemon took from one of its ranks up the tree, counting it
// as sent by its handle.
func (a *App) inject(o Outgoing) {
	h := a.handles[o.Handle-1]
	h.sent++
	a.tree.Inject(o.Rank, h.stream, int64(o.Time), o.Values)
}

// dropEnded forgets, in the region's bookkeeping, the ranks that ended since the last
// step (the tree heard of them when they ended, behind their last packets).
func (a *App) dropEnded() {
	if len(a.kills) == 0 {
		return
	}
	ranks := make([]int, 0, len(a.kills))
	for _, ev := range a.kills {
		ranks = append(ranks, ev.Rank)
	}
	a.kills = a.kills[:0]
	a.forget(ranks)
}

// drain turns what reached the front-end by virtual time until into messages (by
// arrival time, then handle, then rank, keeping each stream's own order) and stream
// failures into failed handles.
func (a *App) drain(until int64) ([]Message, []Failure) {
	pkts, faults := a.tree.Take(until)
	var out []Message
	for _, p := range pkts {
		h := a.byStream[p.Stream]
		if h == nil {
			continue
		}
		out = append(out, Message{Handle: h, Values: p.Values, Rank: int(p.Src), Count: int(p.Count), Time: uint64(p.Time),
			SentFirst: uint64(p.SentFirst), SentLast: uint64(p.SentLast)})
		h.delivered += int(p.Count)
		h.messages++
		if h.delivered == int(p.Count) {
			h.first = uint64(p.Time)
		}
		h.last = uint64(p.Time)
	}
	sort.SliceStable(out, func(i, j int) bool {
		x, y := out[i], out[j]
		if x.Time != y.Time {
			return x.Time < y.Time
		}
		if x.Handle.ID != y.Handle.ID {
			return x.Handle.ID < y.Handle.ID
		}
		return x.Rank < y.Rank
	})
	var fails []Failure
	for _, f := range faults {
		h := a.byStream[f.Stream]
		if h == nil || h.state == "failed" {
			continue
		}
		h.fail(f.Node, f.Text)
		fails = append(fails, Failure{Handle: h, Node: f.Node, Reason: f.Text})
	}
	return out, fails
}
