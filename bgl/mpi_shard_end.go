package bgl

import (
	"encoding/json"
	"fmt"
	"slices"
)

// How the engine ends a sharded job: as one process does (mpi_end.go), every rank still
// alive exits with the end's status at its time and the report goes to stderr in its
// place among the output, and the run goes on until the last exit is delivered, so the
// streams, statuses and Summary are one process's.
//
//   - An end decided while delivering a message (MPI_Abort, a failed call, a fault found
//     at a call) is decided by one process: it ends its own ranks at once, as one
//     process would, and sends every other process the end (recMPIEnd). At the round's
//     end the first end in key order is the job's (decideEnd): its process sends process
//     0 the report as a console write keyed by its delivery, and the others end their
//     ranks by it. Ranks of another process that decided an end of its own in the same
//     round (every rank calling MPI_Init twice) keep that end's status and time.
//   - An end decided while dispatching a window's events (a rank killed by a signal or
//     exiting with a nonzero status while others run) is decided by every process alike,
//     since each dispatches every event in the same order: each ends its own ranks and
//     process 0 writes the report. Whether other ranks still run counts every process's
//     (the live counts travel with the window's events).
//   - A deadlock is found at a window's start by every process (shard_run.go): its time
//     is the start of the window in which a rank last blocked or exited (the moment one
//     process looks), process 0 puts the report together from every process's
//     blocked ranks, and the rank one process's finding call would end exits at its
//     own clock (deadlockTrace).

// recMPIEnd carries an end from the process that decided it: key, then the MPIEnd as JSON.
const recMPIEnd = 'X'

// streamNotice marks a shardOp holding a line for process 0's stderr as it is (the
// engine's report), not a rank's output.
const streamNotice = 4

// endSharded is end for a sharded job.
func (e *mpiEngine) endSharded(j *Job, cur *node, m *MPIEnd) {
	sh := e.sh
	if sh.dispatching {
		e.ended = m
		j.fe.notice(1, m.Report()) // only process 0's streams are kept, and it has every wait
		e.endOwnRanks(j, cur, m)
		return
	}
	if sh.endDecided {
		return // every rank of the job is ending already
	}
	e.ended = m
	key := sh.next()
	sh.ends = append(sh.ends, shardEnd{key: key, end: m, here: true})
	e.endOwnRanks(j, cur, m)
	js, err := json.Marshal(m)
	if err != nil {
		panic(fmt.Sprintf("bgl: an MPIEnd does not encode: %v", err)) // only plain fields
	}
	rec := append(appendKey([]byte{recMPIEnd}, key), js...)
	for p := range sh.ex.Size() {
		if p != sh.ex.Rank() {
			sh.send(p, rec)
		}
	}
}

// shardEnd is an end decided in this round by this process (here) or another.
type shardEnd struct {
	key  msgKey
	end  *MPIEnd
	here bool
}

// applyEnd takes an end another process decided in this round.
func (e *mpiEngine) applyEnd(key msgKey, b []byte) error {
	var m MPIEnd
	if err := json.Unmarshal(b, &m); err != nil {
		return fmt.Errorf("an end that does not decode: %v", err)
	}
	e.sh.ends = append(e.sh.ends, shardEnd{key: key, end: &m})
	return nil
}

// decideEnd settles, at a round's end, the ends of the round: the first in key order is
// the job's, as in one process, where it ends every rank before the others are reached.
// Its process writes the report; the others end their ranks by it unless they decided
// one of their own in the round (which ended their ranks already, a round's difference).
func (e *mpiEngine) decideEnd(j *Job) {
	sh := e.sh
	if len(sh.ends) == 0 {
		return
	}
	first := slices.MinFunc(sh.ends, func(a, b shardEnd) int { return compareKeys(a.key, b.key) })
	here := slices.ContainsFunc(sh.ends, func(d shardEnd) bool { return d.here })
	sh.ends, sh.endDecided = nil, true
	switch {
	case first.here:
		sh.writes = append(sh.writes, shardOp{key: first.key, rank: sh.ex.Rank(), stream: streamNotice, data: []byte(first.end.Report())})
	case !here:
		e.endOwnRanks(j, nil, first.end)
	}
	e.ended = first.end
}

// endOwnRanks ends every live rank of this process but cur (which gets its status from
// its call's result) with m's status at m's time.
func (e *mpiEngine) endOwnRanks(j *Job, cur *node, m *MPIEnd) {
	for _, k := range j.nodes {
		if k == nil || k == cur || k.state == nodeExited || k.state == nodeFaulted {
			continue
		}
		k.state, k.wait = nodeExited, nil
		k.exit = Event{Kind: EventExit, PC: k.cpu.PC, Status: m.Status, Note: "ended by the MPI engine: " + m.Msg}
		ev := k.exit
		ev.Rank, ev.Time = k.rank, m.TimeNS
		k.seq++
		j.queue.push(&message{at: m.TimeNS, src: k.rank, seq: k.seq, kind: msgEvent, rank: k.rank, event: ev})
	}
}

// endDeadlock ends a sharded job every rank of which is blocked in MPI with nothing in
// flight, found at a window's start by every process: process 0 gathers what each
// blocked rank waits for into one process's report, every process what decides which
// rank one process ends last-blocked (deadlockTrace), and each ends its ranks.
func (sh *shardRun) endDeadlock(j *Job) error {
	e := engineOf(j)
	own := e.waits(j)
	out := make([][]byte, sh.ex.Size())
	for p := range out {
		st := deadlockState{Blocked: len(own), Trace: sh.mpiState.deadlock}
		if p == 0 {
			st.Waits = own // process 0 alone writes the report
		}
		js, err := json.Marshal(st)
		if err != nil {
			return err
		}
		out[p] = js
	}
	in, err := sh.ex.Exchange(out)
	if err != nil {
		return err
	}
	var waits []MPIWait
	var trace deadlockTrace
	blocked := 0
	for p, b := range in {
		var st deadlockState
		if err := json.Unmarshal(b, &st); err != nil {
			return errorf("shard exchange: the blocked ranks of process %d do not decode: %v", p, err)
		}
		waits = append(waits, st.Waits...) // the processes' ranks ascend with the processes
		blocked += st.Blocked
		trace.merge(st.Trace)
	}
	// Every process's message counts every blocked rank: it ends its ranks' exits' notes.
	m := &MPIEnd{Kind: MPIEndDeadlock, Rank: -1, Status: MPIDeadlockStatus, TimeNS: j.now, Waits: waits,
		Msg: fmt.Sprintf("MPI deadlock at virtual time %.3f µs: all %d live ranks are blocked", float64(j.now)/1e3, blocked)}
	e.ended = m
	j.fe.notice(1, m.Report()) // only process 0's streams are kept, and it has every wait
	var cur *node
	if r, at, ok := trace.lastBlocked(); ok && sh.owns(sh.part, r) && e.ranks[r].blockedOn != nil {
		cur = j.nodes[r]
		e.exitLastBlocked(j, cur, at, m)
	}
	e.endOwnRanks(j, cur, m)
	return nil
}

// A deadlock's exits across shards are one process's. There the job ends at the step
// that finds every live rank blocked with nothing but the engine's own wakes in flight:
// that step's rank (cur) exits with its call's result at its own clock, every other at
// the window's start, and the exits are delivered in (time, rank, sequence) order, so
// cur's place among them depends on its clock. When something was still in flight at
// that step, one process looks again at a wake of cur at the latest such message's time,
// which becomes cur's clock; when the last change was a rank's exit, the event's
// dispatch finds the deadlock and no rank is cur. Across shards the deadlock is found at
// a window's start instead, so each process traces the keys that tell these apart (the
// last step leaving a rank blocked, the last exit delivered, the last message delivered
// that is not an engine's wake), the latest of each over every process decides, and the
// process owning cur ends it as that step would have.

// deadlockTrace is what a process delivered that decides a deadlock's exits.
type deadlockTrace struct {
	Block     traceKey // the last step that left a rank blocked in MPI
	BlockRank int
	Exit      traceKey // the last exit or fault event delivered
	Other     traceKey // the last message delivered other than an engine's wake
}

// traceKey is a delivery's (arrival, source, sequence), as it travels.
type traceKey struct {
	Set bool
	At  uint64
	Src int
	Seq uint64
}

func (k traceKey) after(o traceKey) bool {
	if !k.Set || !o.Set {
		return k.Set
	}
	return compareKeys(msgKey{at: k.At, src: k.Src, seq: k.Seq}, msgKey{at: o.At, src: o.Src, seq: o.Seq}) > 0
}

// deadlockState is one process's part of a deadlock's report.
type deadlockState struct {
	Waits   []MPIWait // for process 0
	Blocked int       // the process's blocked ranks
	Trace   deadlockTrace
}

// merge keeps the latest of each of t's and o's keys.
func (t *deadlockTrace) merge(o deadlockTrace) {
	if o.Block.after(t.Block) {
		t.Block, t.BlockRank = o.Block, o.BlockRank
	}
	if o.Exit.after(t.Exit) {
		t.Exit = o.Exit
	}
	if o.Other.after(t.Other) {
		t.Other = o.Other
	}
}

// lastBlocked is the rank one process ends with its call's result, and the virtual time
// its clock reaches first; ok is false when no rank is.
func (t deadlockTrace) lastBlocked() (rank int, at uint64, ok bool) {
	if !t.Block.Set || t.Exit.after(t.Block) {
		return 0, 0, false
	}
	if t.Other.after(t.Block) {
		at = t.Other.At
	}
	return t.BlockRank, at, true
}

// currentKey is the delivery being made, as a traceKey.
func (sh *shardRun) currentKey() traceKey {
	return traceKey{Set: true, At: sh.key.at, Src: sh.key.src, Seq: sh.key.seq}
}

// traceBlock notes that the delivery being made left rank n blocked in MPI.
func (sh *shardRun) traceBlock(n *node) {
	t := &sh.mpiState.deadlock
	t.Block, t.BlockRank = sh.currentKey(), n.rank
}

// traceDelivery notes message m delivered (ev, when ok, the event it raised).
func (sh *shardRun) traceDelivery(j *Job, m *message, ev Event, ok bool) {
	t := &sh.mpiState.deadlock
	if m.src != engineSrc(j) {
		t.Other = sh.currentKey()
	}
	if ok && (ev.Kind == EventExit || ev.Kind == EventFault) {
		t.Exit = sh.currentKey()
	}
}

// exitLastBlocked ends rank n, blocked in MPI, as the step that finds a deadlock in one
// process ends its rank: with its call's result, at its clock advanced to at.
func (e *mpiEngine) exitLastBlocked(j *Job, n *node, at uint64, m *MPIEnd) {
	r := &e.ranks[n.rank]
	if r.blockedOn != nil {
		r.blockedOn = nil
		e.blocked--
	}
	n.state, n.wait = nodeRunning, nil
	n.advanceTo(nsToCycles(at))
	n.apply(Result{Exit: true, Status: m.Status})
	n.flushOutbox(j)
}
