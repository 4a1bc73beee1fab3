package runtime

import (
	"fmt"
	"time"

	"github.com/dpclsh/dpclsh/contexts"
	"github.com/dpclsh/dpclsh/netreduce"
	"github.com/dpclsh/dpclsh/probes"
)

// Handle is an installed probe (DPCL's ProbeHandle): one expression at some points on
// the ranks of a context, with its own stream up the tree.
type Handle struct {
	ID      uint32
	app     *App
	ctx     *contexts.Set
	points  []probes.Point
	code    *probes.Code
	stream  *netreduce.Stream
	state   string
	active  bool
	oneShot bool

	queue     []*netreduce.Packet
	err       error
	sent      int
	delivered int
	ranks     int
	failed    map[int]string

	faultAddr  uint32         // the per-process fault counter of code that touches program memory
	pointIndex map[uint32]int // point address -> index in the list installed on
}

// InstallOptions say where a probe goes and how its data is aggregated.
type InstallOptions struct {
	Context *contexts.Set         // nil: every rank
	Filter  *netreduce.FilterSpec // nil: one message per rank per firing
	Sync    string                // with a filter: "waitforall" (default), "timeout", "dontwait"
	Timeout time.Duration         // virtual, with sync timeout
}

// Stats is a handle's accounting: packets sent into the tree and ranks' packets
// delivered (aggregated messages count every rank merged in), ranks done, failures, and
// faulting accesses to program memory its snippet recovered from (over its ranks).
type Stats struct {
	Sent, Delivered, Ranks int
	Failed                 map[int]string
	Faults                 int
}

// State is "installed", "active", "removed" or "failed".
func (h *Handle) State() string { return h.state }

// Stats returns the handle's accounting.
func (h *Handle) Stats() Stats {
	return Stats{Sent: h.sent, Delivered: h.delivered, Ranks: h.ranks, Failed: h.failed, Faults: h.faultCount()}
}

// Err is the stream's failure (a filter error), if any.
func (h *Handle) Err() error { return h.err }

// Code is the compiled snippet.
func (h *Handle) Code() *probes.Code { return h.code }

// Context is the handle's copy of its context.
func (h *Handle) Context() *contexts.Set { return h.ctx }

// newHandle compiles e once for every node and opens the handle's stream over set.
func (a *App) newHandle(e *probes.Exp, o InstallOptions) (*Handle, error) {
	set := o.Context
	if set == nil {
		set = contexts.All(a.Size())
	}
	if set.Size() != a.Size() {
		return nil, fmt.Errorf("runtime: install: context of %d ranks for an application of %d", set.Size(), a.Size())
	}
	if set.Empty() {
		return nil, fmt.Errorf("runtime: install: the context is empty")
	}
	if _, err := probes.Check(e); err != nil {
		return nil, err
	}
	id := uint32(len(a.handles) + 1)
	code, faultAddr, err := a.compileProbe(e, id)
	if err != nil {
		return nil, err
	}
	comm, err := a.Net.Communicator(set.List())
	if err != nil {
		return nil, fmt.Errorf("runtime: install: %w", err)
	}
	cfg := netreduce.StreamConfig{Up: o.Filter, Sync: netreduce.DontWait}
	if o.Filter != nil {
		cfg.Sync, cfg.Timeout = netreduce.WaitForAll, int64(o.Timeout)
		if o.Sync != "" {
			if cfg.Sync, err = netreduce.ParseSync(o.Sync); err != nil {
				return nil, fmt.Errorf("runtime: install: %w", err)
			}
		}
	}
	s, err := a.Net.NewStream(comm, cfg)
	if err != nil {
		return nil, fmt.Errorf("runtime: install: %w", err)
	}
	if cfg.Sync == netreduce.Timeout {
		a.timeouts++
	}
	h := &Handle{ID: id, app: a, ctx: set.Copy(), code: code, stream: s, state: "installed", failed: map[int]string{},
		faultAddr: faultAddr}
	a.handles = append(a.handles, h)
	return h, nil
}

func (h *Handle) ranksOf() HandleRanks {
	return HandleRanks{Handle: h.ID, Stream: h.stream.ID(), Ranks: h.ctx.String(), Active: h.active}
}

// record notes an answer's outcome on h: its failures, and how many live ranks of its
// context now carry it. Every rank failing is an error.
func (h *Handle) record(op string, ans *Answer) error {
	for r, why := range ans.Failed {
		if h.ctx.Contains(r) {
			h.failed[r] = why
		}
	}
	h.ranks = 0
	for _, r := range h.app.liveRanks(h.ctx.Contains) {
		if _, bad := h.failed[r]; !bad {
			h.ranks++
		}
	}
	if ans.Done == 0 && len(ans.Failed) > 0 {
		return ans.Err(op)
	}
	return nil
}
