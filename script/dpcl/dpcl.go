package dpcl

import (
	"context"
	"errors"
	"fmt"
	"github.com/dpclsh/dpclsh/script"
	"github.com/dpclsh/dpclsh/script/packetvalue"
	"math"
	"slices"
	"time"

	"github.com/dpclsh/dpclsh/bgl"
	"github.com/dpclsh/dpclsh/probes"
	"github.com/dpclsh/dpclsh/runtime"
	lua "github.com/yuin/gopher-lua"
)

// dpclState is a session's applications, in launch order.
type dpclState struct {
	s    *script.Session
	apps []*luaApp
	idle bool // the REPL idler is registered
	// per probe handle: queued messages and callback errors (queue.go)
	extras map[*runtime.Handle]*handleExtra
	// handles are extras' keys in the order the session made them (leftovers print so)
	handles []*runtime.Handle
	// calls are the requests of served pages (serve.go); wake tells a running step one came.
	calls chan *pageCall
	wake  chan struct{}
}

// dpclKey holds a session's dpcl state, made by its first use.
var dpclKey = script.NewKey[*dpclState]("dpcl")

func dpclOf(L *lua.LState) *dpclState {
	s := script.SessionOf(L)
	return dpclKey.GetOrInit(s, func() *dpclState { return newDpclState(s) })
}

// newDpclState makes s's dpcl state: it closes the session's applications when the
// session ends and gives probe compilations the newest application's target.
func newDpclState(s *script.Session) *dpclState {
	st := &dpclState{s: s, calls: make(chan *pageCall, 64), wake: make(chan struct{}, 1)}
	SetProbeTarget(s, st.probeTarget)
	s.OnClose(script.CloserFunc(func() error {
		st.printLeftovers()
		var errs []error
		for _, a := range st.apps {
			errs = append(errs, a.close())
		}
		return errors.Join(errs...)
	}))
	return st
}

func init() {
	script.RegisterModule(script.Module{
		Name: "dpcl",
		Doc: `dpcl — dynamic instrumentation of MPI jobs on the simulated Blue Gene/L (DPCL on BG/L).
dpcl.launch starts a job stopped at its entry with a tool daemon on every I/O node and a
reduction tree (leaves = ranks, level 2 = daemons). The machine advances only while the
script waits: app:wait, dpcl.poll, dpcl.sleep (or while the REPL is idle); callbacks run
with it paused at their message's virtual time, so a batch script prints the same bytes
every run. dpcl.timebase_hz is the rate of probe.timebase() (700e6 on BG/L).
` + script.UnitsDoc,
		Init: dpclDataInit,
		Funcs: append([]script.Function{
			{Name: "launch", Doc: `dpcl.launch(exe, {nodes=, per_io=, partition=, mapping=, args={}, env={NAME="value"}, export={"NAME"}, topology="b:F", costs=, clocks=, workdir=, seed=, memory_mb=, disk_quota_mb=, quiet=}) -> Application
Launches exe on nodes ranks (default 1), per_io compute nodes per I/O node (default 64),
stopped at entry. partition = N makes the block N compute nodes (at least nodes) and
mapping places the ranks in it: "XYZT" or "TXYZ" (rank r on node r, X fastest) or an mpirun
map file (one "X Y Z T" line per rank; each I/O node's ranks consecutive), so 8 ranks can
sit under 1 to 8 I/O nodes. topology shapes the tree above the I/O-node daemons: "b:F" a balanced
fan-out F (default b:16); "k:K" the K-nomial tree over the daemons (MRNet's form); any
other netreduce spec ("b:4^2", "k:2@7", "g:...") or an MRNet topology file with one
back-end per I/O node. costs: "default", "ubgl", or a table of
parameters (app:costs() lists them; set = "ubgl" starts from that set). clocks = {seed =,
max_skew_ns =} puts a seeded offset on every tool process's clock (app:tree() shows them).
memory_mb is each compute node's memory (default 512, BG/L's; 16..4095): brk and mmap past
it get ENOMEM and the app reports a "memory" event. disk_quota_mb is how much the job may
grow its workdir's files (default 512): writes past it get EDQUOT. The job's output goes to
the session's output (quiet = true discards it). env sets variables of every rank's
environment (getenv): names are C identifiers, values strings or numbers; export passes the
host's value of each name it lists (an error when the host does not set it). Ranks see
those and no other variable (a name given twice is an error); app:env() reads them.`, Fn: dpclLaunch},
			{Name: "poll", Doc: `dpcl.poll([virtual_s]) -> n
Advances every running application by up to virtual_s (default 0.001) virtual seconds,
running the callbacks of what arrives; returns how many callbacks ran.`, Fn: dpclPoll},
			{Name: "sleep", Doc: `dpcl.sleep(virtual_s)
Advances every running application by virtual_s virtual seconds, running callbacks.
On a terminal, a sleep that takes more than a moment shows a progress line whose bar
fills as the span of virtual time passes.`, Fn: dpclSleep},
		}, slices.Concat(dpclModuleFuncs, dpclFileFuncs, dpclTraceFuncs, dpclAttachFuncs)...),
	})
}

// probeTarget is the compilation target of the newest application, nil before any.
func (st *dpclState) probeTarget() *probes.Target {
	if len(st.apps) == 0 {
		return nil
	}
	return st.apps[len(st.apps)-1].app.Target()
}

// advance runs one step of app up to limit and dispatches what it produced.
// Requests of a served page run after the batch's callbacks, the machine still paused.
func (st *dpclState) advance(ctx context.Context, a *luaApp, limit uint64) (*runtime.Batch, int, error) {
	sctx, cancel := st.stepContext(ctx)
	b, err := a.app.Step(sctx, limit)
	cancel()
	if err != nil {
		return nil, 0, err
	}
	n, err := st.dispatch(a, b)
	st.runCalls()
	return b, n, err
}

// dispatch runs the callbacks of a batch on the session goroutine: messages to their
// handle's callback, exit and fault events to app:on handlers. A callback that raises an
// error is reported with its location and the rest go on; a stop (Ctrl-C, os.exit) ends
// the dispatch.
func (st *dpclState) dispatch(a *luaApp, b *runtime.Batch) (int, error) {
	n := 0
	L := st.s.L
	for _, f := range b.Failures {
		// A filter failed this handle's stream: said once, as it happens; the job and
		// every other probe go on.
		fmt.Fprintf(st.s.Stderr(), "dpcl: probe %d failed at the %s: %s\n", f.Handle.ID, f.Node, f.Reason)
	}
	for i, r := range b.Rejected {
		if i == 3 {
			fmt.Fprintf(st.s.Stderr(), "dpcl: and %d more packets dropped\n", len(b.Rejected)-3)
			break
		}
		fmt.Fprintf(st.s.Stderr(), "dpcl: rank %d: dropped a packet from pc 0x%08x: %s\n", r.Rank, r.PC, r.Reason)
	}
	for _, m := range b.Messages {
		if sink := a.sinks[m.Handle.ID]; sink != nil {
			// Decoded in Go: no Lua table is made of the message.
			if err := sink.receive(m); err != nil {
				fmt.Fprintf(st.s.Stderr(), "dpcl: probe %d: %v\n", m.Handle.ID, err)
			}
			n++
			continue
		}
		fn := a.callbacks[m.Handle.ID]
		if err := st.deliver(m.Handle, fn, messageTable(L, m)); err != nil {
			return n, err
		}
		if fn != nil {
			n++
		}
	}
	for _, ev := range b.Events {
		name := ev.Kind.String()
		if !slices.Contains(appEventNames[:], name) {
			continue
		}
		if len(a.on[name]) == 0 && (ev.Kind == bgl.EventUnsupported || ev.Kind == bgl.EventNoMemory) {
			fmt.Fprintf(st.s.Stderr(), "dpcl: %s\n", ev)
		}
		for _, fn := range a.on[name] {
			if err := st.call(name+" handler", fn, eventTable(L, ev)); err != nil {
				return n, err
			}
			n++
		}
	}
	st.warnNeverRan(a)
	return n, nil
}

// appEventNames are the machine events app:on accepts (bgl.EventKind names).
var appEventNames = [...]string{"exit", "fault", "unsupported", "memory", "watch"}

// protect calls fn(arg) on the session; the error is the callback's or a stop.
func (st *dpclState) protect(fn *lua.LFunction, arg lua.LValue) error {
	_, err := st.s.Call(fn, arg)
	return err
}

// isStop reports whether err ends the dispatch: os.exit or Ctrl-C, not a callback error.
func isStop(err error) bool {
	var exit *script.ExitError
	return errors.As(err, &exit) || errors.Is(err, script.ErrInterrupted)
}

func (st *dpclState) call(what string, fn *lua.LFunction, arg lua.LValue) error {
	err := st.protect(fn, arg)
	if err == nil || isStop(err) {
		return err
	}
	fmt.Fprintf(st.s.Stderr(), "dpcl: %s: %s", what, script.FormatError(err, st.s.Verbose()))
	return nil
}

func messageTable(L *lua.LState, m runtime.Message) *lua.LTable {
	t := L.NewTable()
	vals := L.NewTable()
	for _, v := range m.Values {
		vals.Append(packetvalue.ToLua(L, v))
	}
	t.RawSetString("values", vals)
	if len(m.Values) > 0 {
		t.RawSetString("value", vals.RawGetInt(1))
	}
	if m.Rank >= 0 {
		t.RawSetString("rank", lua.LNumber(m.Rank))
	}
	t.RawSetString("count", lua.LNumber(m.Count))
	setMessageTime(t, m.Time)
	if m.SentLast > 0 {
		t.RawSetString("sent", sentTable(L, m))
	}
	t.RawSetString("probe", lua.LNumber(m.Handle.ID))
	return t
}

// setMessageTime is the one place a delivered message's virtual arrival time at the
// front-end (ns) becomes Lua fields.
func setMessageTime(t *lua.LTable, ns uint64) { script.SetTime(t, ns) }

// sentTable is m.sent: when the earliest and the latest packet merged into m left their
// ranks, in virtual seconds (first, last) with the exact ns beside them (first_ns,
// last_ns). m.time - m.sent.last is how long the newest data spent in the tree.
func sentTable(L *lua.LState, m runtime.Message) *lua.LTable {
	t := L.NewTable()
	t.RawSetString("first", lua.LNumber(float64(m.SentFirst)/1e9))
	t.RawSetString("last", lua.LNumber(float64(m.SentLast)/1e9))
	t.RawSetString("first_ns", lua.LNumber(m.SentFirst))
	t.RawSetString("last_ns", lua.LNumber(m.SentLast))
	return t
}

func eventTable(L *lua.LState, ev bgl.Event) *lua.LTable {
	t := L.NewTable()
	t.RawSetString("kind", lua.LString(ev.Kind.String()))
	t.RawSetString("rank", lua.LNumber(ev.Rank))
	t.RawSetString("pc", script.PushAddress(L, ev.PC))
	t.RawSetString("signal", lua.LNumber(ev.Signal))
	t.RawSetString("status", lua.LNumber(ev.Status))
	script.SetTime(t, ev.Time)
	t.RawSetString("message", lua.LString(ev.String()))
	if ev.Kind == bgl.EventFault {
		t.RawSetString("report", lua.LString(ev.FaultReport()))
	}
	if ev.Kind == bgl.EventWatch {
		watchEventFields(t, ev)
	}
	return t
}

// dpclPoll advances every application a little, running callbacks.
func dpclPoll(L *lua.LState) int {
	secs := float64(L.OptNumber(1, 0.001))
	if !(secs >= 0) || math.IsInf(secs, 1) {
		L.ArgError(1, "virtual_s must be a non-negative number of virtual seconds")
	}
	st := dpclOf(L)
	total := 0
	for _, a := range st.apps {
		if a.closed() {
			continue
		}
		_, n, err := st.advance(st.s.Context(), a, a.app.Now()+uint64(secs*1e9))
		if err != nil {
			return script.Raise(L, err)
		}
		total += n
	}
	L.Push(lua.LNumber(total))
	return 1
}

// dpclSleep advances every application by a span of virtual time.
func dpclSleep(L *lua.LState) int {
	secs := float64(L.CheckNumber(1))
	if !(secs >= 0) {
		L.ArgError(1, "virtual_s must be a non-negative number")
	}
	st := dpclOf(L)
	for _, a := range st.apps {
		if a.closed() {
			continue
		}
		if err := st.sleepApp(a, secs); err != nil {
			return script.Raise(L, err)
		}
	}
	return 0
}

// sleepApp runs a for secs of virtual time, with a progress line that fills as the span
// passes.
func (st *dpclState) sleepApp(a *luaApp, secs float64) error {
	from := a.app.Now()
	limit := from + uint64(secs*1e9)
	defer showProgressUntil(st.s, a.counters, "sleep", from, limit)()
	for {
		b, _, err := st.advance(st.s.Context(), a, limit)
		if err != nil {
			return err
		}
		if st.s.Context().Err() != nil {
			return st.s.StopError()
		}
		if b.Reason != bgl.StopPaused {
			return nil
		}
	}
}

// startIdle lets the REPL's idle time advance the applications: the machine runs on the
// idler's goroutine and each batch's callbacks run on the session goroutine while it
// waits, so the machine is paused during them.
func (st *dpclState) startIdle() {
	if st.idle {
		return
	}
	st.idle = true
	st.s.OnIdle(func(ctx context.Context) {
		for ctx.Err() == nil {
			st.postCalls()
			moved := false
			for _, a := range st.apps {
				if a.closed() || a.app.Done() || !a.app.Started() {
					continue
				}
				sctx, cancel := st.stepContext(ctx)
				b, err := a.app.Step(sctx, a.app.Now()+1_000_000)
				cancel()
				if err != nil {
					return
				}
				moved = moved || b.Reason == bgl.StopTime || b.Reason == bgl.StopPaused
				done := make(chan struct{})
				st.s.Post(func() {
					defer close(done)
					st.dispatch(a, b)
				})
				<-done
			}
			if !moved {
				select {
				case <-ctx.Done():
				case <-st.wake:
				case <-time.After(20 * time.Millisecond):
				}
			}
		}
	})
}

// postCalls hands the queued page calls to the session goroutine and waits until they
// ran: the idler's machine stays paused meanwhile.
func (st *dpclState) postCalls() {
	if len(st.calls) == 0 {
		return
	}
	done := make(chan struct{})
	st.s.Post(func() {
		defer close(done)
		st.runCalls()
	})
	<-done
}
