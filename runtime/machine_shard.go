package runtime

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/dpclsh/dpclsh/bgl"
	"github.com/dpclsh/dpclsh/bgl/shard"
)

// shardJob is this process's part of a sharded job (Options.Shard) as the tool drives
// it. Every process of the run holds the whole tool: the same session, App and tree,
// driven by the same calls in the same order, so each reaches the same decisions from
// the same inputs. What lives with the ranks is carried out by the process that owns
// them, and only its result crosses over:
//
//   - A daemon is a whole tool process in one place: the process owning its I/O node
//     carries out the commands that reach it, with the debug interface of its ranks, and
//     sends every process the answer (one exchange per daemon and command), which the
//     tree then carries as one process's would. The daemon's state (trampolines placed,
//     pending one-shot snippets) is kept there only; the other processes' twins never
//     act. Events reach every process (bgl's exchange); only the owner's daemon sees them.
//   - A packet a rank sends is taken by its daemon on the owning process as the machine
//     hands it over, and what the daemon makes of it (values to push up, or the reason it
//     was rejected) is kept; before anything else of the tool runs (an event's listener,
//     the end of RunUntil) every process's are exchanged and applied in the order one
//     process takes them: (arrival, rank), each rank's own in their order.
//   - Other debug calls (a Process's reads, fault fixups, watchpoints) are carried out by
//     the owner and the reply goes to every process, which goes on with it, the owner
//     included; the calls are collective, since every process makes them at one point.
//
// Sampling does not run across shards yet.
type shardJob struct {
	*bgl.Job
	ex    shard.Exchanger
	kept  []byte      // records of what this process's daemons made of their packets
	ready func(Ready) // applies a daemon's take of a packet (the App's)
	err   error       // an exchange failed: the run cannot go on
}

func newShardJob(j *bgl.Job, ex shard.Exchanger) *shardJob {
	return &shardJob{Job: j, ex: ex}
}

// failure is why the sharded run cannot go on, if it cannot.
func (s *shardJob) failure() error {
	if s.err != nil {
		return s.err
	}
	if err := s.Job.Err(); err != nil {
		return errorf("%w", err)
	}
	return nil
}

func (s *shardJob) RunUntil(limit uint64) bgl.StopReason {
	if s.err != nil {
		return bgl.StopError
	}
	r := s.Job.RunUntil(limit)
	s.flush()
	if s.err != nil {
		return bgl.StopError
	}
	return r
}

func (s *shardJob) Debug(io int) ioDebug { return remoteDebug{s, io} }

func (s *shardJob) Exec(fn func(d ioDebug) error) error {
	errs := make([]error, s.Partition().IONodes())
	for io := range errs {
		errs[io] = fn(s.Debug(io))
	}
	return errors.Join(errs...)
}

// call is one debug request: the owner of its I/O node carries it out and sends every
// process the reply.
func (s *shardJob) call(rq request) (reply, error) {
	if s.err != nil {
		return reply{}, s.err
	}
	owner := s.ShardOfIONode(rq.IO)
	out := make([][]byte, s.ex.Size())
	if owner == s.ex.Rank() {
		var rp reply
		rp.Err = toWire(applyDebug(s.Job.Debug(rq.IO), rq, &rp))
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).Encode(rp); err != nil {
			s.err = errorf("sharded debug %s on rank %d (I/O node %d): encoding the reply: %w", rq.Op, rq.Rank, rq.IO, err)
			return reply{}, s.err
		}
		for p := range out {
			out[p] = buf.Bytes()
		}
	}
	in, err := s.ex.Exchange(out)
	if err != nil {
		s.err = errorf("sharded debug %s on rank %d (I/O node %d): %w", rq.Op, rq.Rank, rq.IO, err)
		return reply{}, s.err
	}
	var rp reply
	if err := gob.NewDecoder(bytes.NewReader(in[owner])).Decode(&rp); err != nil {
		s.err = errorf("sharded debug %s on rank %d (I/O node %d): the reply of process %d does not decode: %w", rq.Op, rq.Rank, rq.IO, owner, err)
		return reply{}, s.err
	}
	return rp, rp.Err.err()
}

func (s *shardJob) SetSampling(period uint64, depth int, ranks func(int) bool) error {
	if period == 0 {
		return nil
	}
	return errorf("sampling does not run across shards yet (run without --shards)")
}

func (s *shardJob) TakeSamples() []bgl.Sample { return nil }

// owns reports whether this process holds I/O node io's ranks and daemon.
func (s *shardJob) owns(io int) bool { return s.ShardOfIONode(io) == s.ex.Rank() }

// machineOf is what I/O node io's daemon works through: its debug interface on the
// owning process; elsewhere nothing, since the twin never acts.
func (s *shardJob) machineOf(io int) Machine {
	if s.owns(io) {
		return s.Job.Debug(io)
	}
	return elsewhere{io, s.ShardOfIONode(io)}
}

// fromOwner runs fn on the process owning I/O node io and gives every process its
// result: the bytes fn made, or its error's text.
func (s *shardJob) fromOwner(io int, what string, fn func() ([]byte, error)) ([]byte, error) {
	if s.err != nil {
		return nil, s.err
	}
	owner := s.ShardOfIONode(io)
	out := make([][]byte, s.ex.Size())
	if owner == s.ex.Rank() {
		b, err := fn()
		rec := append([]byte{0}, b...)
		if err != nil {
			rec = append([]byte{1}, err.Error()...)
		}
		for p := range out {
			out[p] = rec
		}
	}
	in, err := s.ex.Exchange(out)
	if err != nil {
		s.err = errorf("sharded tool: %s of I/O node %d: %w", what, io, err)
		return nil, s.err
	}
	rec := in[owner]
	if len(rec) == 0 {
		s.err = errorf("sharded tool: %s of I/O node %d: process %d sent nothing", what, io, owner)
		return nil, s.err
	}
	if rec[0] == 1 {
		return nil, errors.New(string(rec[1:]))
	}
	return bytes.Clone(rec[1:]), nil
}

// handle is daemon d's Handle, carried out where its ranks are.
func (s *shardJob) handle(d *Daemon, c *Command, ranks []int) *Answer {
	b, err := s.fromOwner(d.IONode, "a command", func() ([]byte, error) {
		var buf bytes.Buffer
		err := gob.NewEncoder(&buf).Encode(d.Handle(c, ranks))
		return buf.Bytes(), err
	})
	ans := &Answer{}
	if err == nil {
		err = gob.NewDecoder(bytes.NewReader(b)).Decode(ans)
	}
	if err != nil {
		ans = &Answer{}
		for _, r := range ranks {
			ans.Merge(failed(r, err))
		}
	}
	return ans
}

// ran is daemon d's Ran, asked where its ranks are.
func (s *shardJob) ran(d *Daemon, ran map[uint32]bool) error {
	b, err := s.fromOwner(d.IONode, "which points ran", func() ([]byte, error) {
		mine := map[uint32]bool{}
		if err := d.Ran(mine); err != nil {
			return nil, err
		}
		var buf bytes.Buffer
		err := gob.NewEncoder(&buf).Encode(mine)
		return buf.Bytes(), err
	})
	if err != nil {
		return err
	}
	theirs := map[uint32]bool{}
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&theirs); err != nil {
		return err
	}
	for p, r := range theirs {
		ran[p] = ran[p] || r
	}
	return nil
}

// elsewhere is the debug interface of I/O node io on a process that does not hold it.
type elsewhere struct{ io, owner int }

func (e elsewhere) refuse(op string, rank int) error {
	return &bgl.DebugError{IONode: e.io, Rank: rank, Op: op, Reason: fmt.Sprintf("the I/O node's ranks are on process %d of the sharded run", e.owner)}
}

func (e elsewhere) Stop(rank int) error     { return e.refuse("stop", rank) }
func (e elsewhere) Continue(rank int) error { return e.refuse("continue", rank) }
func (e elsewhere) Status(rank int) (bgl.NodeStatus, error) {
	return bgl.NodeStatus{}, e.refuse("status", rank)
}
func (e elsewhere) ReadMem(rank int, addr, size uint32) ([]byte, error) {
	return nil, e.refuse("read", rank)
}
func (e elsewhere) WriteMem(rank int, addr uint32, b []byte) error { return e.refuse("write", rank) }
func (e elsewhere) Regs(rank int) (bgl.Regs, error)                { return bgl.Regs{}, e.refuse("regs", rank) }
func (e elsewhere) SetRegs(rank int, r bgl.Regs) error             { return e.refuse("setregs", rank) }
func (e elsewhere) SetBreakpoint(rank int, addr uint32) error      { return e.refuse("break", rank) }
func (e elsewhere) ClearBreakpoint(rank int, addr uint32) error    { return e.refuse("unbreak", rank) }
func (e elsewhere) MarkEntry(rank int, addr uint32) error          { return e.refuse("mark", rank) }
func (e elsewhere) ClearEntryMark(rank int, addr uint32) error     { return e.refuse("unmark", rank) }
func (e elsewhere) EntryReached(rank int, addr uint32) (bool, error) {
	return false, e.refuse("reached", rank)
}

// OnEvent registers fn behind what the daemons made of the packets handed over before
// the event: one process's daemons take a window's packets before its events.
func (s *shardJob) OnEvent(fn func(bgl.Event)) {
	s.Job.OnEvent(func(ev bgl.Event) {
		s.flush()
		fn(ev)
	})
}

// shardSlot is a daemon in its I/O node's slot on a sharded job's process: the owner's
// daemon takes its ranks' packets and events; what it makes of a packet waits for the
// next flush.
type shardSlot struct {
	s *shardJob
	d *Daemon
}

func (sl shardSlot) Packet(_ *bgl.Debug, p bgl.Packet) {
	sl.s.kept = shard.AppendRecord(sl.s.kept, encodeReady(p, sl.d.Packet(p)))
}

func (sl shardSlot) Event(_ *bgl.Debug, ev bgl.Event) {
	if sl.s.owns(sl.d.IONode) {
		sl.d.Event(ev)
	}
}

// keptReady is what a daemon made of one packet, with the packet's arrival and rank.
type keptReady struct {
	time uint64
	rank int
	rd   Ready
}

// flush exchanges what every process's daemons made of their packets and applies it in
// one process's order.
func (s *shardJob) flush() {
	if s.err != nil {
		return
	}
	out := make([][]byte, s.ex.Size())
	for p := range out {
		out[p] = s.kept
	}
	in, err := s.ex.Exchange(out)
	if err != nil {
		s.err = errorf("sharded tool: exchanging probe packets: %w", err)
		return
	}
	var all []keptReady
	for p, buf := range in {
		recs, err := shard.Records(buf, p)
		if err != nil {
			s.err = errorf("sharded tool: %w", err)
			return
		}
		for _, rec := range recs {
			k, err := decodeReady(rec)
			if err != nil {
				s.err = errorf("sharded tool: a probe packet's record from process %d: %w", p, err)
				return
			}
			all = append(all, k)
		}
	}
	s.kept = nil
	// Each process's are in delivery order, which is (arrival, rank, sequence); a rank
	// lives on one process, so a stable sort on (arrival, rank) is one process's order.
	slices.SortStableFunc(all, func(a, b keptReady) int {
		return cmp.Or(cmp.Compare(a.time, b.time), cmp.Compare(a.rank, b.rank))
	})
	for _, k := range all {
		s.ready(k.rd)
	}
}

// A kept Ready's record: the packet's arrival and rank, then the outgoing values and
// the rejections, each counted.
func encodeReady(p bgl.Packet, rd Ready) []byte {
	var b []byte
	put32 := func(v uint32) { b = binary.BigEndian.AppendUint32(b, v) }
	put64 := func(v uint64) { b = binary.BigEndian.AppendUint64(b, v) }
	put64(p.Time)
	put32(uint32(p.Rank))
	put32(uint32(len(rd.Up)))
	for _, o := range rd.Up {
		put32(uint32(o.Rank))
		put32(o.Stream)
		put32(o.Handle)
		put64(o.Time)
		put32(uint32(len(o.Values)))
		for _, v := range o.Values {
			switch v := v.(type) {
			case float64:
				b = append(b, 1)
				put64(math.Float64bits(v))
			default:
				b = append(b, 0)
				put64(uint64(v.(int64)))
			}
		}
	}
	put32(uint32(len(rd.Rejected)))
	for _, r := range rd.Rejected {
		put32(uint32(r.Rank))
		put32(r.PC)
		put64(r.Time)
		put32(uint32(len(r.Reason)))
		b = append(b, r.Reason...)
	}
	return b
}

func decodeReady(b []byte) (keptReady, error) {
	short := false
	take := func(n int) []byte {
		if short || len(b) < n {
			short = true
			return make([]byte, min(n, 8))
		}
		v := b[:n]
		b = b[n:]
		return v
	}
	get32 := func() uint32 { return binary.BigEndian.Uint32(take(4)) }
	get64 := func() uint64 { return binary.BigEndian.Uint64(take(8)) }
	var k keptReady
	k.time = get64()
	k.rank = int(get32())
	for n := get32(); n > 0 && !short; n-- {
		o := Outgoing{Rank: int(get32()), Stream: get32(), Handle: get32(), Time: get64()}
		for m := get32(); m > 0 && !short; m-- {
			if take(1)[0] == 1 {
				o.Values = append(o.Values, math.Float64frombits(get64()))
			} else {
				o.Values = append(o.Values, int64(get64()))
			}
		}
		if o.Values == nil {
			o.Values = []any{}
		}
		k.rd.Up = append(k.rd.Up, o)
	}
	for n := get32(); n > 0 && !short; n-- {
		r := Rejected{Rank: int(get32()), PC: get32(), Time: get64()}
		r.Reason = string(take(int(get32())))
		k.rd.Rejected = append(k.rd.Rejected, r)
	}
	if short || len(b) > 0 {
		return k, errorf("record cut short or overlong (%d bytes left)", len(b))
	}
	return k, nil
}
