package bgl

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

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
// What crosses shards in this first part is output, events, end of job and pause: the
// MPI engine, tool daemons and probes do not run across shards yet, so a rank's first MPI
// call ends a sharded run with an error naming the rank and the call, and a job cannot
// launch stopped for a tool.

// shardRun is one process's part of a sharded job.
type shardRun struct {
	ex     shard.Exchanger
	lo, hi int    // the I/O nodes owned: [lo, hi)
	ranks  [2]int // the ranks they serve: [first, end)

	key    msgKey // the message being delivered: the key of what its delivery does
	sub    uint32 // ops recorded for it so far
	writes []shardOp
	events []shardEvent

	mu      sync.Mutex // refusals happen on the worker goroutines
	refused *shardRefusal

	err     error // why the run cannot go on (StopError)
	windows uint64
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

// shardRefusal is a call a sharded run cannot serve yet: the lowest rank's ends the run.
type shardRefusal struct {
	rank int
	what string
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
	sh := &shardRun{ex: ex, lo: lo, hi: hi}
	if lo < hi {
		sh.ranks[0], _ = part.RanksOf(lo)
		_, sh.ranks[1] = part.RanksOf(hi - 1)
	}
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

// refuse blocks a node on a call the sharded run cannot serve; the run ends at the next
// window's start with the lowest such rank named.
func (j *Job) refuse(n *node, what string) {
	sh := j.sh
	n.state = nodeBlocked
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.refused == nil || n.rank < sh.refused.rank {
		sh.refused = &shardRefusal{rank: n.rank, what: what}
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
	if sh.refused != nil {
		refused = int64(sh.refused.rank)
	}
	var paused, live int64
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
	// One reduction (max) agrees on all four: minima as maxima of negatives.
	agreed := []int64{paused, live, -refused, -int64(start)}
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
		return sh.fail(sh.refusal(int(refused)))
	case start == noStart:
		return StopIdle
	}
	if start >= limit {
		j.now = max(j.now, limit)
		return StopTime
	}
	j.now = max(j.now, start)
	end := start + j.window
	for m := j.queue.peek(); m != nil && m.at < end; m = j.queue.peek() {
		m = j.queue.pop()
		sh.key, sh.sub = msgKey{at: m.at, src: m.src, seq: m.seq}, 0
		if ev, ok := j.deliver(m); ok {
			sh.events = append(sh.events, shardEvent{key: sh.next(), ev: ev})
		}
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
	writes, events, err := sh.exchange()
	if err != nil {
		return sh.fail(err)
	}
	for _, w := range writes {
		if w.stream == 0 {
			j.fe.rankDone(w.rank)
		} else {
			j.fe.Write(w.rank, w.stream, w.t, w.data)
		}
	}
	j.dispatch(events)
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

// refusal is the error of a run whose lowest refused rank is rank: the shard holding it
// told every process what the rank called in the last exchange.
func (sh *shardRun) refusal(rank int) error {
	what := "a call that does not run across shards yet"
	if sh.refused != nil && sh.refused.rank == rank {
		what = sh.refused.what
	}
	return fmt.Errorf("rank %d: %s: the MPI engine does not run across shards yet (run without --shards)", rank, what)
}

// exchange sends process 0 the window's console writes and every process its events and
// refusals,
// and returns the writes (process 0's only) and the events in one process's order.
func (sh *shardRun) exchange() ([]shardOp, []Event, error) {
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
	for p := range out {
		out[p] = evs
	}
	for _, w := range sh.writes {
		out[0] = shard.AppendRecord(out[0], encodeWrite(w))
	}
	sh.writes, sh.events = sh.writes[:0], sh.events[:0]
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
	ex := sh.ex.Stats()
	mine := ShardStats{Shard: sh.ex.Rank(), Shards: sh.ex.Size(), IONodes: [2]int{sh.lo, sh.hi},
		Ranks: sh.ranks[1] - sh.ranks[0], Instructions: own, Windows: sh.windows, BytesSent: ex.BytesSent, BytesReceived: ex.BytesReceived, Wait: ex.Wait}
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
