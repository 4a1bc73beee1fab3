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
//     process looks), and process 0 puts the report together from every process's
//     blocked ranks.

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
		j.fe.notice(1, m.Report()) // only process 0's streams are kept
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
// blocked rank waits for into one process's report, and every process ends its ranks.
func (sh *shardRun) endDeadlock(j *Job) error {
	e := engineOf(j)
	js, err := json.Marshal(e.waits(j))
	if err != nil {
		return err
	}
	out := make([][]byte, sh.ex.Size())
	out[0] = js
	in, err := sh.ex.Exchange(out)
	if err != nil {
		return err
	}
	var waits []MPIWait
	for p, b := range in {
		if len(b) == 0 {
			continue
		}
		var ws []MPIWait
		if err := json.Unmarshal(b, &ws); err != nil {
			return errorf("shard exchange: the blocked ranks of process %d do not decode: %v", p, err)
		}
		waits = append(waits, ws...) // the processes' ranks ascend with the processes
	}
	m := &MPIEnd{Kind: MPIEndDeadlock, Rank: -1, Status: MPIDeadlockStatus, TimeNS: j.now, Waits: waits,
		Msg: fmt.Sprintf("MPI deadlock at virtual time %.3f µs: all %d live ranks are blocked", float64(j.now)/1e3, len(waits))}
	e.ended = m
	j.fe.notice(1, m.Report()) // process 0 alone has every rank's waits, and the streams
	e.endOwnRanks(j, nil, m)
	return nil
}
