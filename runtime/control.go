package runtime

import (
	"context"
	"fmt"
	"sort"

	"github.com/dpclsh/dpclsh/bgl"
	"github.com/dpclsh/dpclsh/netreduce"
)

// Message is one packet of a handle's stream delivered at the front-end.
type Message struct {
	Handle *Handle
	Values []any
	Rank   int    // the sending rank; -1 once aggregated
	Count  int    // ranks merged into it
	Time   uint64 // virtual ns at which the front-end got it (the machine is paused there)
}

// Batch is what one Step produced, in delivery order.
type Batch struct {
	Messages []Message
	Events   []bgl.Event
	Reason   bgl.StopReason
}

// Start releases every rank (the job was launched stopped at its entry).
func (a *App) Start() error {
	if a.started {
		return fmt.Errorf("runtime: start: the job has already started")
	}
	a.started = true
	a.Job.Start()
	return nil
}

// Suspend holds every live rank; Resume releases them.
func (a *App) Suspend() error { return a.holdAll(OpStop, true) }

// Resume releases the ranks Suspend held.
func (a *App) Resume() error { return a.holdAll(OpContinue, false) }

func (a *App) holdAll(op Op, hold bool) error {
	if !a.started {
		return fmt.Errorf("runtime: %s: the job has not started", op)
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
		if err := a.Job.Debug(io).Stop(r); err != nil {
			return fmt.Errorf("runtime: terminate: %w", err)
		}
		ev := bgl.Event{Kind: bgl.EventExit, Rank: r, Time: a.Job.Now(), Signal: 9, Status: 128 + 9}
		a.ended[r] = ev
		a.kills = append(a.kills, ev)
	}
	a.terminated = true
	return a.dropEnded(true)
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

// Counts says how many ranks exited, faulted, and are still running, with the exit
// status of every ended rank.
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
	return exited, faulted, a.Size() - len(a.ended), codes
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

// Step advances the machine until virtual time limit (ns), until something was sent or
// happened, or until ctx is done; then it forwards the daemons' packets up the tree and
// returns what reached the front-end, in a deterministic order.
func (a *App) Step(ctx context.Context, limit uint64) (*Batch, error) {
	if a.closed {
		return nil, fmt.Errorf("runtime: the application is closed")
	}
	b := &Batch{Reason: bgl.StopIdle}
	if a.started && !a.terminated {
		stop := context.AfterFunc(ctx, a.Job.Pause)
		b.Reason = a.Job.RunUntil(limit)
		stop()
	}
	if err := a.forward(); err != nil {
		return nil, err
	}
	if err := a.dropEnded(b.Reason == bgl.StopDone || a.Done()); err != nil {
		return nil, err
	}
	msgs, err := a.drain()
	if err != nil {
		return nil, err
	}
	b.Messages, b.Events, a.events = msgs, a.events, nil
	return b, nil
}

// chunk bounds the packets forwarded between two barriers, so that the front-end's
// stream queues can never fill up while nobody reads them.
const chunk = 1 << 14

// forward sends what the daemons collected up the tree, in I/O-node order.
func (a *App) forward() error {
	n := 0
	for _, d := range a.daemons {
		for _, o := range d.TakeOutgoing() {
			h := a.handles[o.Handle-1]
			p := &netreduce.Packet{Tag: netreduce.FirstAppTag, Time: int64(o.Time), Values: o.Values}
			if err := a.Net.BackendSend(o.Rank, o.Stream, p); err != nil {
				return fmt.Errorf("runtime: forward rank %d's packet: %w", o.Rank, err)
			}
			h.sent++
			if n++; n%chunk == 0 {
				if err := a.barrier(); err != nil {
					return err
				}
			}
		}
	}
	return a.barrier()
}

// barrier waits for the tree to process everything in flight, with its clock at the
// machine's, then moves what reached the front-end into the handles' queues.
func (a *App) barrier() error {
	if err := a.Net.AdvanceTo(int64(a.Job.Now())); err != nil {
		return fmt.Errorf("runtime: tree: %w", err)
	}
	for _, h := range a.handles {
		for {
			p, err := h.stream.TryRecv()
			if err != nil && h.err == nil {
				h.err = err
			}
			if p == nil {
				break
			}
			h.queue = append(h.queue, p)
		}
	}
	return nil
}

// dropEnded removes ended ranks from the tree once none of their packets can still be
// on the way (one tree latency after the end), so their waves close without them.
func (a *App) dropEnded(all bool) error {
	now := a.Job.Now()
	kept := a.kills[:0]
	dropped := false
	for _, ev := range a.kills {
		if !all && ev.Time+bgl.TreeLatencyNS > now {
			kept = append(kept, ev)
			continue
		}
		if err := a.Net.Kill(ev.Rank); err != nil {
			return fmt.Errorf("runtime: drop rank %d from the tree: %w", ev.Rank, err)
		}
		dropped = true
	}
	a.kills = kept
	if dropped {
		return a.barrier()
	}
	return nil
}

// drain turns the queued packets into messages: by virtual time, then handle, then rank,
// keeping each stream's own order.
func (a *App) drain() ([]Message, error) {
	var out []Message
	now := a.Job.Now()
	for _, h := range a.handles {
		for _, p := range h.queue {
			out = append(out, Message{Handle: h, Values: p.Values, Rank: int(p.Src), Count: int(p.Count), Time: uint64(p.Time)})
			h.delivered += int(p.Count)
		}
		h.queue = h.queue[:0]
	}
	sort.SliceStable(out, func(i, j int) bool {
		x, y := out[i], out[j]
		if x.Time != y.Time {
			return x.Time < y.Time
		}
		if x.Handle.ID != y.Handle.ID {
			return x.Handle.ID < y.Handle.ID
		}
		return x.Rank < y.Rank && x.Rank >= 0
	})
	for i := range out {
		out[i].Time = max(out[i].Time, now)
	}
	return out, nil
}

// command multicasts c to the daemons serving ranks, on a control stream over exactly
// those ranks (so only the covering subtree sees it), and returns the reduced answer.
func (a *App) command(c *Command, ranks []int) (*Answer, error) {
	if len(ranks) == 0 {
		return &Answer{}, nil
	}
	a.seq++
	c.Seq = a.seq
	c.Ranks = netreduce.RankSpec(ranks)
	text, err := c.Encode()
	if err != nil {
		return nil, err
	}
	comm, err := a.Net.Communicator(ranks)
	if err != nil {
		return nil, fmt.Errorf("runtime: %s: %w", c.Op, err)
	}
	s, err := a.Net.NewStream(comm, netreduce.StreamConfig{Up: &netreduce.FilterSpec{Name: AnswerFilter}, Sync: netreduce.WaitForAll})
	if err != nil {
		return nil, fmt.Errorf("runtime: %s: %w", c.Op, err)
	}
	defer s.Close()
	if err := s.SendPacket(&netreduce.Packet{Tag: netreduce.FirstAppTag, Values: []any{int64(c.Seq), text}}); err != nil {
		return nil, fmt.Errorf("runtime: %s: %w", c.Op, err)
	}
	p, err := s.Recv(context.Background())
	if err != nil {
		return nil, fmt.Errorf("runtime: %s: %w", c.Op, err)
	}
	return answerOf(p)
}
