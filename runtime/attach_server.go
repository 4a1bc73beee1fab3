package runtime

import (
	"context"
	"fmt"
	"net"
	"slices"

	"github.com/dpclsh/dpclsh/bgl"
)

// jobServer is the job's side of one attached tool: it carries out the tool's requests
// on the job and records what the machine hands the tool while it runs. It remembers
// what the tool holds (stopped ranks, breakpoints, watches, sampling) so that a tool
// that drops leaves the job free to run to its end.
type jobServer struct {
	p     *Publisher
	j     *bgl.Job
	w     *wire // nil while no tool is attached
	calls []slotCall

	held     map[int]bool
	breaks   map[[2]uint32]bool // rank, address
	watches  map[[2]uint32]bool // rank, address
	sampling bool
}

// slotRecorder sits in an I/O node's daemon slot while a tool is attached: it passes the
// packets on to the tool. Events reach the tool through the job's listener (onEvent).
type slotRecorder struct {
	s  *jobServer
	io int
}

func (r slotRecorder) Packet(_ *bgl.Debug, p bgl.Packet) {
	r.s.calls = append(r.s.calls, slotCall{IO: r.io, Packet: &p})
}

func (slotRecorder) Event(*bgl.Debug, bgl.Event) {}

// onEvent passes an event on to the attached tool and pauses the machine at the window's
// end, as a tool in this process does: what the tool does about the event takes effect
// there.
func (s *jobServer) onEvent(ev bgl.Event) {
	if s.w == nil {
		return
	}
	s.calls = append(s.calls, slotCall{IO: s.j.Partition().IONodeOfRank(ev.Rank), Event: &ev})
	s.j.Pause()
}

func (s *jobServer) serve(ctx context.Context, c net.Conn) {
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	defer c.Close()
	w := newWire(c)
	cfg := s.j.Config()
	hello := jobHello{Exe: cfg.Exe, Args: cfg.Args, Env: cfg.Env, Nodes: cfg.Nodes, PerIO: cfg.PerIO,
		Partition: cfg.Partition, Place: cfg.Place, Now: s.j.Now(), Proctable: s.j.Proctable()}
	if err := w.enc.Encode(hello); err != nil {
		return
	}
	s.w, s.held, s.breaks, s.watches, s.sampling = w, map[int]bool{}, map[[2]uint32]bool{}, map[[2]uint32]bool{}, false
	for io := range s.j.Partition().IONodes() {
		s.j.SetDaemon(io, slotRecorder{s, io})
	}
	fmt.Fprintf(s.p.log, "dpclsh: a tool from %s attached at virtual time %d ns\n", c.RemoteAddr(), s.j.Now())
	why := s.loop(ctx)
	s.release()
	fmt.Fprintf(s.p.log, "dpclsh: the tool %s at virtual time %d ns; the job runs on\n", why, s.j.Now())
}

// loop answers the tool's requests until it detaches or is gone.
func (s *jobServer) loop(ctx context.Context) string {
	for {
		var rq request
		if err := s.w.dec.Decode(&rq); err != nil {
			if ctx.Err() != nil {
				return "was cut off (the job was interrupted)"
			}
			return "dropped its connection"
		}
		if rq.Op == opDetach {
			w := s.w
			s.release()
			w.enc.Encode(reply{Now: s.j.Now()})
			return "detached"
		}
		rp := s.handle(rq)
		rp.Now = s.j.Now()
		if err := s.w.enc.Encode(rp); err != nil {
			return "dropped its connection"
		}
		if ctx.Err() != nil {
			return "was cut off (the job was interrupted)"
		}
	}
}

// release undoes what the tool holds and empties the daemon slots.
func (s *jobServer) release() {
	if s.w == nil {
		return
	}
	part := s.j.Partition()
	for _, k := range sortedKeys(s.breaks) {
		s.j.Debug(part.IONodeOfRank(int(k[0]))).ClearBreakpoint(int(k[0]), k[1])
	}
	for _, k := range sortedKeys(s.watches) {
		s.j.Debug(part.IONodeOfRank(int(k[0]))).Unwatch(int(k[0]), k[1])
	}
	held := make([]int, 0, len(s.held))
	for r := range s.held {
		held = append(held, r)
	}
	slices.Sort(held)
	for _, r := range held {
		s.j.Debug(part.IONodeOfRank(r)).Continue(r)
	}
	if s.sampling {
		s.j.SetSampling(0, 0, nil)
	}
	for io := range part.IONodes() {
		s.j.SetDaemon(io, nil)
	}
	s.w, s.calls = nil, nil
}

func sortedKeys(m map[[2]uint32]bool) [][2]uint32 {
	out := make([][2]uint32, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.SortFunc(out, func(a, b [2]uint32) int {
		if a[0] != b[0] {
			return int(a[0]) - int(b[0])
		}
		return int(int64(a[1]) - int64(b[1]))
	})
	return out
}

// handle carries out one request.
func (s *jobServer) handle(rq request) reply {
	var rp reply
	switch rq.Op {
	case opRun:
		s.calls = nil
		rp.Reason = s.j.RunUntil(rq.Limit)
		rp.Calls, s.calls = s.calls, nil
		return rp
	case opSetSampling:
		var ranks func(int) bool
		if rq.Period > 0 {
			set := map[int]bool{}
			for _, r := range rq.Ranks {
				set[r] = true
			}
			ranks = func(r int) bool { return set[r] }
		}
		rp.Err = toWire(s.j.SetSampling(rq.Period, rq.Depth, ranks))
		s.sampling = s.sampling || rq.Period > 0
		return rp
	case opTakeSamples:
		rp.Samples = s.j.TakeSamples()
		return rp
	}
	if rq.IO < 0 || rq.IO >= s.j.Partition().IONodes() {
		rp.Err = &wireError{Text: fmt.Sprintf("runtime: attach: %s on I/O node %d: the job has %d", rq.Op, rq.IO, s.j.Partition().IONodes())}
		return rp
	}
	rp.Err = toWire(s.debugOp(s.j.Debug(rq.IO), rq, &rp))
	return rp
}

// debugOp carries out a request on an I/O node's debug interface, remembering what the
// tool comes to hold.
func (s *jobServer) debugOp(d *bgl.Debug, rq request, rp *reply) error {
	err := applyDebug(d, rq, rp)
	if err != nil && rq.Op != opClearBreak && rq.Op != opUnwatch {
		return err
	}
	key := [2]uint32{uint32(rq.Rank), rq.Addr}
	switch rq.Op {
	case opStop:
		s.held[rq.Rank] = true
	case opContinue:
		delete(s.held, rq.Rank)
	case opSetBreak:
		s.breaks[key] = true
	case opClearBreak:
		delete(s.breaks, key)
	case opWatch:
		s.watches[[2]uint32{uint32(rq.Rank), rq.Watch.Addr}] = true
	case opUnwatch:
		delete(s.watches, key)
	}
	return err
}

// applyDebug carries out a debug request on an I/O node's debug interface, its answer
// in rp: for an attached tool (jobServer) and for a sharded job's owner of the I/O node
// (shardJob).
func applyDebug(d *bgl.Debug, rq request, rp *reply) error {
	var err error
	switch rq.Op {
	case opStop:
		err = d.Stop(rq.Rank)
	case opContinue:
		err = d.Continue(rq.Rank)
	case opStatus:
		rp.Status, err = d.Status(rq.Rank)
	case opReadMem:
		rp.Data, err = d.ReadMem(rq.Rank, rq.Addr, rq.Size)
	case opWriteMem:
		err = d.WriteMem(rq.Rank, rq.Addr, rq.Data)
	case opRegs:
		rp.Regs, err = d.Regs(rq.Rank)
	case opSetRegs:
		err = d.SetRegs(rq.Rank, rq.Regs)
	case opSetBreak:
		err = d.SetBreakpoint(rq.Rank, rq.Addr)
	case opClearBreak:
		err = d.ClearBreakpoint(rq.Rank, rq.Addr)
	case opMark:
		err = d.MarkEntry(rq.Rank, rq.Addr)
	case opUnmark:
		err = d.ClearEntryMark(rq.Rank, rq.Addr)
	case opReached:
		rp.Reached, err = d.EntryReached(rq.Rank, rq.Addr)
	case opBacktrace:
		rp.Frames, err = d.Backtrace(rq.Rank)
	case opRedirectFault:
		err = d.RedirectFault(rq.Addr, rq.Size)
	case opClearFault:
		d.ClearFault(rq.Addr)
	case opWatch:
		err = d.Watch(rq.Rank, rq.Watch)
	case opUnwatch:
		err = d.Unwatch(rq.Rank, rq.Addr)
	default:
		err = fmt.Errorf("runtime: attach: unknown request %q", rq.Op)
	}
	return err
}
