package bgl

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"github.com/dpclsh/dpclsh/bgl/shard"
)

// A sharded job (JobConfig.Shard) runs in several processes, each owning a contiguous
// range of I/O nodes (psets) with their compute nodes; ranks outside it are not created
// and never stepped. Every window the processes agree on its start (the earliest clock or
// message of any shard), on the lone-node shortcut and on stopping, through reductions;
// at its end each process sends process 0 what its deliveries wrote to the console and
// every process the events they raised, keyed by the delivering message's (arrival,
// source, sequence). Process 0 applies the writes in that order and every process
// dispatches the events in that order, which is the order one process delivers them in,
// so the output is the same bytes for any number of processes. Only process 0's streams
// receive output.
//
// What crosses shards is output, events, end of job, pause and the MPI engine's records
// (mpi_shard.go), exchanged at the end of each round of a window's deliveries. Tool
// daemons and probes run across shards above the job (runtime/machine_shard.go): a
// daemon in a slot here sees only this process's ranks' packets, and the tool exchanges
// what it made of them itself.

// shardRun is one process's part of a sharded job.
type shardRun struct {
	ex     shard.Exchanger
	part   *Partition
	lo, hi int    // the I/O nodes owned: [lo, hi)
	ranks  [2]int // the ranks they serve: [first, end)

	mpi      atomic.Bool // a rank here has called MPI: windows end their rounds with the engine's records
	mpiState mpiShard

	key    msgKey // the message being delivered: the key of what its delivery does
	sub    uint32 // ops recorded for it so far
	writes []shardOp
	events []shardEvent

	mu      sync.Mutex // refusals happen on the worker goroutines
	refused *shardRefusal
	agreed  *shardRefusal // the lowest refusal every process knew at the last exchange

	dispatching    bool       // the window's events are being dispatched
	ends           []shardEnd // the engine's ends decided this round (mpi_shard_end.go)
	endDecided     bool       // the job's end is known to every process
	aliveElsewhere int        // ranks running or blocked on the other processes at the last exchange

	err     error // why the run cannot go on (StopError)
	windows uint64
	// before is the exchanger's counters when the job was launched: a session's
	// exchanger outlives its jobs, and each job's ShardStats are its own.
	before shard.Stats
}

// msgKey orders what deliveries do as one process would do it: the message's (arrival,
// source, sequence), then the order within its delivery.
type msgKey struct {
	at  uint64
	src int
	seq uint64
	sub uint32
}

func compareKeys(a, b msgKey) int {
	return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.src, b.src), cmp.Compare(a.seq, b.seq), cmp.Compare(a.sub, b.sub))
}

// shardOp is a console write (stream 1 or 2) or the end of a rank's unfinished lines
// (stream 0), made by a delivery on some shard and applied by process 0.
type shardOp struct {
	key    msgKey
	rank   int
	stream int
	t      uint64
	data   []byte
}

type shardEvent struct {
	key msgKey
	ev  Event
}

// shardRefusal ends a sharded run: a call it cannot serve yet, or the MPI engine ending
// the job; the lowest rank's message is the run's error.
type shardRefusal struct {
	rank int
	msg  string
}

// ShardStats is one process's account of a sharded run. Wait is host time and appears in
// --stats only; the rest depends on the inputs and the number of processes alone.
type ShardStats struct {
	Shard, Shards int
	IONodes       [2]int // [first, end) of the psets owned
	Ranks         int
	Instructions  uint64
	Windows       uint64
	BytesSent     uint64
	BytesReceived uint64
	Exchanges     uint64 // record exchanges (an all-to-all of lengths, then of records)
	Reductions    uint64 // reductions and barriers
	Wait          time.Duration
}

func (s ShardStats) String() string {
	psets := "no psets"
	if s.IONodes[0] < s.IONodes[1] {
		psets = fmt.Sprintf("psets %d-%d", s.IONodes[0], s.IONodes[1]-1)
	}
	return fmt.Sprintf("shard %d of %d: %s, %d ranks, %d instructions, %d windows, %d bytes sent, %d received, %.3f s waiting at window ends",
		s.Shard, s.Shards, psets, s.Ranks, s.Instructions, s.Windows, s.BytesSent, s.BytesReceived, s.Wait.Seconds())
}

// shardIONodes is the contiguous range of I/O nodes process rank of size owns.
func shardIONodes(ioNodes, size, rank int) (lo, hi int) {
	return rank * ioNodes / size, (rank + 1) * ioNodes / size
}

func newShardRun(ex shard.Exchanger, part *Partition) *shardRun {
	lo, hi := shardIONodes(part.IONodes(), ex.Size(), ex.Rank())
	sh := &shardRun{ex: ex, part: part, lo: lo, hi: hi, before: ex.Stats()}
	if lo < hi {
		sh.ranks[0], _ = part.RanksOf(lo)
		_, sh.ranks[1] = part.RanksOf(hi - 1)
	}
	sh.initMPI()
	ex.Hold(sh.holding())
	return sh
}

// holding names what the process holds, for the report of its death.
func (sh *shardRun) holding() string {
	if sh.lo == sh.hi {
		return "no psets"
	}
	return fmt.Sprintf("psets %d-%d, ranks %d-%d", sh.lo, sh.hi-1, sh.ranks[0], sh.ranks[1]-1)
}

func (sh *shardRun) owns(part *Partition, rank int) bool {
	io := part.IONodeOfRank(rank)
	return io >= sh.lo && io < sh.hi
}

// shardConsole records the console writes of a shard's I/O nodes for process 0.
type shardConsole struct{ sh *shardRun }

func (c shardConsole) Write(rank, stream int, t uint64, b []byte) {
	sh := c.sh
	sh.writes = append(sh.writes, shardOp{key: sh.next(), rank: rank, stream: stream, t: t, data: append([]byte(nil), b...)})
}

// next is the key of the next thing the current delivery does.
func (sh *shardRun) next() msgKey {
	k := sh.key
	k.sub = sh.sub
	sh.sub++
	return k
}

// refuse blocks a node on a call the sharded run cannot serve; the run ends once every
// process knows it, with the lowest such rank's message.
func (j *Job) refuse(n *node, msg string) {
	n.state = nodeBlocked
	j.sh.stop(n.rank, msg)
}

// stop ends the run once every process knows it (the next exchange tells them), unless a
// lower rank's reason is known.
func (sh *shardRun) stop(rank int, msg string) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.refused == nil || rank < sh.refused.rank {
		sh.refused = &shardRefusal{rank: rank, msg: msg}
	}
}

// noStart stands for "no window to start" in the reductions.
const noStart = math.MaxInt64

// runSharded is RunUntil's loop for a sharded job.
func (j *Job) runSharded(limit uint64) StopReason {
	if j.sh.err != nil {
		return StopError
	}
	for {
		if r := j.stepSharded(limit); r != 0 {
			return r
		}
		j.sampleProgress(false)
	}
}

// stepSharded is one turn of RunUntil's loop and one step for a sharded job: pause, the
// job's end and the window are agreed with the other shards, then the window runs as in
// step, its console writes and events exchanged at its end.
func (j *Job) stepSharded(limit uint64) StopReason {
	sh := j.sh
	runnable := j.runnable()
	start := uint64(noStart)
	limitCycles := nsToCycles(limit)
	for _, n := range runnable {
		if c := n.clock(); c < limitCycles {
			start = min(start, cyclesToNS(c))
		} else {
			start = min(start, limit)
		}
	}
	if m := j.queue.peek(); m != nil {
		start = min(start, m.at)
	}
	refused := int64(noStart)
	if sh.agreed != nil {
		refused = int64(sh.agreed.rank)
	}
	var paused, live, mpi, blocked, pending int64
	if j.pause.Swap(false) {
		paused = 1
		select {
		case <-j.intr:
		default:
		}
	}
	if j.live > 0 {
		live = 1
	}
	if sh.mpi.Load() {
		mpi = 1
		if e, ok := mpiEngines.Load(weak.Make(j)); ok && e.(*mpiEngine).blocked > 0 {
			blocked = 1
		}
	}
	sh.mu.Lock()
	if sh.refused != sh.agreed {
		pending = 1
	}
	sh.mu.Unlock()
	// What decides whether the window is quiet (no process has a message due in it, so
	// nothing crosses shards) and, for a quiet one, the lone-node shortcut: the earliest
	// message due, the most runnable nodes of a process, the highest and lowest
	// processes with any, the longest queue.
	due, hiRunner, loRunner := int64(noStart), int64(-1), int64(-noStart)
	if m := j.queue.peek(); m != nil {
		due = int64(m.at)
	}
	if len(runnable) > 0 {
		hiRunner, loRunner = int64(sh.ex.Rank()), -int64(sh.ex.Rank())
	}
	// One reduction (max) agrees on all twelve: minima as maxima of negatives.
	agreed := []int64{paused, live, -refused, -int64(start), mpi, blocked, pending,
		-due, int64(len(runnable)), hiRunner, loRunner, int64(len(j.queue))}
	if err := sh.ex.Allreduce(shard.Max, agreed); err != nil {
		return sh.fail(err)
	}
	refused, start = -agreed[2], uint64(-agreed[3])
	switch {
	case agreed[0] != 0:
		return StopPaused
	case agreed[1] == 0:
		j.drainPackets()
		j.fe.flushAll()
		return StopDone
	case refused != noStart:
		return sh.fail(errors.New(sh.agreed.msg))
	case start == noStart && agreed[6] != 0:
		// Nothing moves, but a process knows why the run ends (an event at the last
		// window's end): one more exchange tells the others, then the lowest reason ends it.
		if _, _, err := sh.exchange(j); err != nil {
			return sh.fail(err)
		}
		return sh.fail(errors.New(sh.agreed.msg))
	case start == noStart && agreed[5] != 0:
		if err := sh.endDeadlock(j); err != nil {
			return sh.fail(err)
		}
		return 0
	case start == noStart:
		return StopIdle
	}
	if start >= limit {
		j.now = max(j.now, limit)
		return StopTime
	}
	j.now = max(j.now, start)
	end := start + j.window
	if uint64(-agreed[7]) >= end && agreed[6] == 0 {
		return j.quietWindow(start, end, limit, agreed)
	}
	// With MPI, the window's deliveries go in rounds, each ended by the engine's
	// exchange (mpi_shard.go).
	for from := start; ; {
		to := end
		if agreed[4] != 0 {
			to = min(from+mpiRoundNS, end)
		}
		for m := j.queue.peek(); m != nil && m.at < to; m = j.queue.peek() {
			m = j.queue.pop()
			sh.key, sh.sub = msgKey{at: m.at, src: m.src, seq: m.seq}, 0
			ev, ok := j.deliver(m)
			if ok {
				sh.events = append(sh.events, shardEvent{key: sh.next(), ev: ev})
			}
			sh.traceDelivery(j, m, ev, ok)
		}
		if agreed[4] != 0 {
			again, err := sh.exchangeMPI(j)
			if err != nil {
				return sh.fail(err)
			}
			if again {
				// The engine ended the job this round (the other processes' ranks' exits,
				// at the end's time, are delivered in the round, as one process does), or
				// woke members whose MPI_Comm_create_group stage the round's end made.
				continue
			}
		}
		if to == end {
			break
		}
		from = to
	}
	runnable = j.runnable()
	counts := []int64{int64(len(runnable)), int64(len(j.queue))}
	if err := sh.ex.Allreduce(shard.Sum, counts); err != nil {
		return sh.fail(err)
	}
	if counts[0] == 1 && counts[1] == 0 {
		end = start + maxSoloNS
	}
	end = min(end, limit)
	j.advance(runnable, nsToCycles(end))
	for _, n := range runnable {
		for _, m := range n.outbox {
			j.queue.push(m)
		}
		n.outbox = n.outbox[:0]
	}
	sh.windows++
	writes, events, err := sh.exchange(j)
	if err != nil {
		return sh.fail(err)
	}
	for i := 0; i < len(writes); i++ {
		switch w := writes[i]; w.stream {
		case 0:
			j.fe.rankDone(w.rank)
		case streamNotice:
			j.fe.notice(1, string(w.data))
		case streamUnreceived:
			k := i + 1
			for k < len(writes) && writes[k].stream == streamUnreceived && writes[k].key == w.key {
				k++
			}
			j.fe.notice(1, mergeUnreceived(writes[i:k]))
			i = k - 1
		default:
			j.fe.Write(w.rank, w.stream, w.t, w.data)
		}
	}
	sh.dispatching = true // an end decided now is decided alike by every process
	j.dispatch(events)
	sh.dispatching = false
	j.fe.flush()
	return 0
}

// quietWindow runs a window in which no process has a message to deliver: its nodes only
// run, so nothing crosses shards and the window costs no exchange but the reduction that
// began it, which also told whether one node alone runs (the same lone-node shortcut as
// one process: a single runnable node of the whole job and no message queued).
func (j *Job) quietWindow(start, end, limit uint64, agreed []int64) StopReason {
	runnable := j.runnable()
	if agreed[8] == 1 && agreed[9] == -agreed[10] && agreed[11] == 0 {
		end = start + maxSoloNS
	}
	end = min(end, limit)
	j.advance(runnable, nsToCycles(end))
	for _, n := range runnable {
		for _, m := range n.outbox {
			j.queue.push(m)
		}
		n.outbox = n.outbox[:0]
	}
	j.sh.windows++
	j.fe.flush()
	return 0
}

// rankEnded records that a rank ended, for process 0 to finish its unfinished lines in
// order with the writes.
func (sh *shardRun) rankEnded(rank int) {
	sh.writes = append(sh.writes, shardOp{key: sh.next(), rank: rank})
}

// Err says why a sharded run stopped with StopError; nil otherwise.
func (j *Job) Err() error {
	if j.sh == nil {
		return nil
	}
	return j.sh.err
}

func (sh *shardRun) fail(err error) StopReason {
	sh.err = err
	return StopError
}

// exchange sends process 0 the window's console writes and every process its events and
// refusals,
// and returns the writes (process 0's only) and the events in one process's order.
func (sh *shardRun) exchange(j *Job) ([]shardOp, []Event, error) {
	out := make([][]byte, sh.ex.Size())
	var evs []byte
	for _, e := range sh.events {
		evs = shard.AppendRecord(evs, encodeEvent(e))
	}
	sh.mu.Lock()
	if r := sh.refused; r != nil {
		evs = shard.AppendRecord(evs, encodeRefusal(r))
	}
	sh.mu.Unlock()
	alive := 0
	for _, n := range j.nodes {
		if n != nil && (n.state == nodeRunning || n.state == nodeBlocked) {
			alive++
		}
	}
	evs = shard.AppendRecord(evs, be.AppendUint32([]byte{recAlive}, uint32(alive)))
	for p := range out {
		out[p] = evs
	}
	for _, w := range sh.writes {
		out[0] = shard.AppendRecord(out[0], encodeWrite(w))
	}
	sh.writes, sh.events = sh.writes[:0], sh.events[:0]
	sh.aliveElsewhere = 0
	in, err := sh.ex.Exchange(out)
	if err != nil {
		return nil, nil, err
	}
	var writes []shardOp
	var events []shardEvent
	for p, buf := range in {
		recs, err := shard.Records(buf, p)
		if err != nil {
			return nil, nil, err
		}
		for _, rec := range recs {
			if err := sh.decode(rec, p, &writes, &events); err != nil {
				return nil, nil, err
			}
		}
	}
	sh.mu.Lock()
	sh.agreed = sh.refused
	sh.mu.Unlock()
	slices.SortFunc(writes, func(a, b shardOp) int { return compareKeys(a.key, b.key) })
	slices.SortFunc(events, func(a, b shardEvent) int { return compareKeys(a.key, b.key) })
	evOut := make([]Event, len(events))
	for i, e := range events {
		evOut[i] = e.ev
	}
	return writes, evOut, nil
}

// totals makes res the whole job's on every process (instruction and memory sums) and
// gives process 0 every process's ShardStats.
func (sh *shardRun) totals(res *RunResult) error {
	own := res.Instructions
	sums := []int64{int64(res.Instructions), int64(res.Translated), int64(res.PrivateBytes)}
	if err := sh.ex.Allreduce(shard.Sum, sums); err != nil {
		return err
	}
	res.Instructions, res.Translated, res.PrivateBytes = uint64(sums[0]), uint64(sums[1]), uint64(sums[2])
	ex := sh.ex.Stats().Since(sh.before)
	mine := ShardStats{Shard: sh.ex.Rank(), Shards: sh.ex.Size(), IONodes: [2]int{sh.lo, sh.hi},
		Ranks: sh.ranks[1] - sh.ranks[0], Instructions: own, Windows: sh.windows, BytesSent: ex.BytesSent, BytesReceived: ex.BytesReceived,
		Exchanges: ex.Exchanges, Reductions: ex.Reductions, Wait: ex.Wait}
	out := make([][]byte, sh.ex.Size())
	js, err := json.Marshal(mine)
	if err != nil {
		return err
	}
	out[0] = js
	in, err := sh.ex.Exchange(out)
	if err != nil {
		return err
	}
	if sh.ex.Rank() != 0 {
		return nil
	}
	res.Shards = make([]ShardStats, len(in))
	for p, b := range in {
		if err := json.Unmarshal(b, &res.Shards[p]); err != nil {
			return errorf("shard exchange: the stats of process %d do not decode: %v", p, err)
		}
	}
	return nil
}
