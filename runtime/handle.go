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
	stream  uint32 // its stream in the tool's tree
	state   string
	active  bool
	oneShot bool
	expect  []int // a one-shot probe's ranks: it is done once each has sent or ended

	err         error
	sent        int
	delivered   int
	messages    int // what the front-end received: an aggregated message counts once
	ranks       int
	failed      map[int]string
	failedAt    map[string]string // tree node -> why its filter failed the stream
	first, last uint64            // virtual arrival of the first and last message

	faultAddr  uint32         // the per-process fault counter of code that touches program memory
	pointIndex map[uint32]int // point address -> index in the list installed on
}

// InstallOptions say where a probe goes and how its data is aggregated.
type InstallOptions struct {
	Context *contexts.Set         // nil: every rank
	Filter  *netreduce.FilterSpec // nil: one message per rank per firing
	Sync    contexts.Sync         // with a filter: waitforall (the default, ""), timeout, dontwait
	Timeout time.Duration         // virtual, with sync timeout
}

// Stats is a handle's accounting: packets its ranks sent (counted as their daemons took
// them), ranks' packets delivered (aggregated messages count every rank merged in) and
// the messages the front-end received (an aggregated message counts once),
// ranks done, failures by rank (install) and by tree node (filters), the virtual
// arrival times of the first and last message at the front-end, the front-end's
// virtual time spent on the handle's stream, and faulting accesses to program memory
// its snippet recovered from (over its ranks).
type Stats struct {
	Sent, Delivered, Ranks int
	Messages               int
	Failed                 map[int]string
	FailedAt               map[string]string
	First, Last, Busy      uint64
	Faults                 int
}

// State is "installed", "active", "removed" or "failed"; a one-shot probe (Execute) is
// "active" until every rank it ran on has sent its data or ended, then "done".
func (h *Handle) State() string {
	if h.oneShot && h.state == "active" && h.oneShotDone() {
		return "done"
	}
	return h.state
}

func (h *Handle) oneShotDone() bool {
	if h.delivered >= len(h.expect)-len(h.failed) {
		return true
	}
	for _, r := range h.expect {
		if _, ended := h.app.ended[r]; !ended {
			if _, bad := h.failed[r]; !bad {
				return false
			}
		}
	}
	return true
}

// Stats returns the handle's accounting.
func (h *Handle) Stats() Stats {
	return Stats{Sent: h.sent, Delivered: h.delivered, Messages: h.messages, Ranks: h.ranks, Failed: h.failed, FailedAt: h.failedAt,
		First: h.first, Last: h.last, Busy: uint64(h.app.tree.feBusy[h.stream]), Faults: h.faultCount()}
}

// fail marks the handle failed: a filter at tree node failed its stream.
func (h *Handle) fail(node, why string) {
	h.state = "failed"
	h.failedAt[node] = why
	h.err = &FilterFailure{Handle: h.ID, Node: node, Reason: why}
}

// FilterFailure is a handle's stream failed by a filter at a tree node.
type FilterFailure struct {
	Handle uint32
	Node   string
	Reason string
}

// Unprefixed is the error's text without "runtime: "; Error adds it.
func (e *FilterFailure) Unprefixed() string {
	return fmt.Sprintf("probe %d failed at the %s: %s", e.Handle, e.Node, e.Reason)
}

func (e *FilterFailure) Error() string { return "runtime: " + e.Unprefixed() }

// Package is the name the error's text starts with.
func (e *FilterFailure) Package() string { return "runtime" }

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
		return nil, errorf("install: context of %d ranks for an application of %d", set.Size(), a.Size())
	}
	if set.Empty() {
		return nil, errorf("install: the context is empty")
	}
	if _, err := probes.Check(e); err != nil {
		return nil, err
	}
	id := uint32(len(a.handles) + 1)
	code, faultAddr, err := a.compileProbe(e, id)
	if err != nil {
		return nil, err
	}
	sync, timeout := netreduce.DontWait, int64(0)
	if o.Filter != nil {
		sync, timeout = netreduce.WaitForAll, int64(o.Timeout)
		if o.Sync != "" {
			// The one place a context's sync mode becomes the tree's.
			if sync, err = netreduce.ParseSync(string(o.Sync)); err != nil {
				return nil, errorf("install: %w", err)
			}
		}
		// The filter must build (a Lua filter compiles, parameters check) before the
		// stream exists anywhere.
		tr, err := netreduce.NewTransform(o.Filter, netreduce.NodeInfo{Rank: -1, FrontEnd: true})
		if err != nil {
			return nil, errorf("install: %w", err)
		}
		tr.Close()
	}
	backends, err := netreduce.RankSetOf(set.Size(), set.List())
	if err != nil {
		return nil, errorf("install: %w", err)
	}
	s := a.tree.Open(backends, o.Filter, sync, timeout)
	if sync == netreduce.Timeout {
		a.timeouts++
	}
	h := &Handle{ID: id, app: a, ctx: set.Copy(), code: code, stream: s, state: "installed",
		failed: map[int]string{}, failedAt: map[string]string{}, faultAddr: faultAddr}
	a.handles = append(a.handles, h)
	a.byStream[s] = h
	return h, nil
}

func (h *Handle) ranksOf() HandleRanks {
	return HandleRanks{Handle: h.ID, Stream: h.stream, Ranks: h.ctx, Active: h.active}
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
