package bgl

import (
	"container/heap"
	"fmt"
	"runtime"
	"sync"
	"weak"

	"github.com/dpclsh/dpclsh/bgl/abi"
)

// The MPI engine serves libmpi's hypercalls (bgl/abi/mpi.go, bgl/target/libmpi.c). What it
// does, and what was chosen where DESIGN.md is silent:
//
//   - Integration with the scheduler: an MPI call blocks its node and sends the node a
//     message at its current virtual time; the call runs in the engine when the scheduler
//     delivers that message, between windows, in (time, source, sequence) order. A call
//     that cannot finish leaves the node blocked (it is not run) until a wake message at
//     the virtual time something it waits for happens. So every engine decision is made in
//     one order fixed by virtual time, whatever GOMAXPROCS is.
//   - Point-to-point: sends are buffered (eager) at any size, so MPI_Send returns once the
//     data is copied. A message arrives after MPISendNS plus the torus latency (never below
//     the scheduler window: that makes "every message arriving by t was already sent when a
//     call at t runs" true), TorusHopNS per hop and TorusNSPerByte per byte; a channel is
//     FIFO. Arrivals are matched in (arrival, source, sequence) order against the posted
//     receives in posting order; a new receive takes the first unexpected message it
//     matches. So MPI_ANY_SOURCE takes the earliest message by that order, and messages
//     between two ranks never overtake.
//   - Collectives: the k-th collective call of each rank meets the k-th of every other
//     (kind and root must agree); when the last rank enters, the result is computed
//     (reductions in rank order) and all ranks resume at the last entry plus the network's
//     cost: BarrierNS on the global interrupt network, TreeLatencyNS per direction plus
//     TreeNSPerByte on the collective network. MPI_Finalize is a barrier.
//   - Every call pays MPICallNS when it returns; MPI_Wtime reads the node's virtual time.
//   - Memory (mpi_mem.go): live requests and unreceived messages count against their
//     rank's node memory, through the same commitment brk and mmap use; a call that would
//     exceed it fails with MPI_ERR_NO_MEM. Receiving a message and completing a request
//     give the memory back.
//   - Ending a job (MPIEnd), as mpiexec does: MPI_Abort(comm, code) ends every rank with
//     status code; a rank killed by a signal S ends every other with 128+S (mpiexec reports
//     S; DESIGN.md section 8 makes it 128+S here); a rank exiting with a nonzero status
//     while others run ends them with that status; a failed call (MPI_ERRORS_ARE_FATAL)
//     with its error class; a deadlock, every live rank blocked with nothing in flight,
//     with MPIDeadlockStatus, after a report of who waits for whom. Each writes one line
//     (plus the report) on the job's stderr. A job that never calls MPI is not affected:
//     its faults stop only the faulting node.
//
// Virtual-time cost parameters of the MPI engine (ns). Point-to-point messages cross the
// torus; collectives use the collective (tree) network and the global interrupt network.
const (
	// MPICallNS is the software overhead every MPI call pays when it returns.
	MPICallNS = 250
	// MPISendNS is the sender's overhead before a message's first byte leaves the node.
	MPISendNS = 1000
	// TorusLatencyNS is a torus message's base latency. The engine never uses less than
	// the scheduler's window, which keeps the conservative schedule exact.
	TorusLatencyNS = 2500
	// TorusHopNS is added per torus hop between sender and receiver.
	TorusHopNS = 100
	// TorusNSPerByte is the inverse bandwidth of one torus link (about 175 MB/s).
	TorusNSPerByte = 6
	// TreeNSPerByte is the inverse bandwidth of the collective network (about 350 MB/s).
	TreeNSPerByte = 3
	// BarrierNS is a barrier over the global interrupt network, after the last entry.
	BarrierNS = 1500
	// MPIDeadlockStatus is every blocked rank's status when the engine ends a deadlocked
	// job: 128+SIGKILL, as if the launcher had killed the hung job.
	MPIDeadlockStatus = 128 + 9
)

// mpiEngine is one job's MPI state. It is touched only between windows, from the done
// functions of blocked nodes (run in (time, source, sequence) order by the scheduler) and
// from the front-end event listener, so it needs no locks and its decisions depend on
// virtual time alone. It holds no pointer to its Job (see engineOf).
type mpiEngine struct {
	ranks    []mpiRank
	colls    map[collKey]*mpiColl
	world    *mpiComm
	comms    map[uint32]*mpiComm // by handle; MPI_COMM_SELF is per rank (mpiRank.self)
	nextComm uint32
	pending  map[string][]pendingComm // half-made intercommunicators and merges (mpi_inter.go)
	stages   map[string]uint32        // MPI_Comm_create_group's hidden communicators
	seq      uint64                   // sequence of the engine's wake messages
	blocked  int                      // ranks blocked in an MPI call
	scanned  bool                     // faults from before the engine existed were looked for
	ended    *MPIEnd
	wins     map[uint32]*mpiWin // one-sided windows, by handle (mpi_win.go)
	filePtrs map[uint32]int64   // shared file pointers, by file handle (mpi_io.go)
	sh       *shardRun          // a sharded job's process (mpi_shard.go); nil: every rank is here
	acks     []mpiAck           // matches of synchronous sends to report (mpi_ssend.go)
}

// mpiEngines maps a job, weakly, to its engine: the engine comes into being with the first
// MPI call and goes when the job is collected.
var mpiEngines sync.Map // weak.Pointer[Job] -> *mpiEngine

func engineOf(j *Job) *mpiEngine {
	key := weak.Make(j)
	if e, ok := mpiEngines.Load(key); ok {
		return e.(*mpiEngine)
	}
	e := &mpiEngine{ranks: make([]mpiRank, len(j.nodes)), colls: map[collKey]*mpiColl{}, sh: j.sh}
	mpiEngines.Store(key, e)
	runtime.AddCleanup(j, func(k weak.Pointer[Job]) { mpiEngines.Delete(k) }, key)
	j.OnEvent(func(ev Event) { e.onEvent(j, ev) })
	return e
}

// MPIEnd says how the MPI engine ended the job, or nil when it did not (no MPI call was
// made, or every rank finished by itself).
func (j *Job) MPIEnd() *MPIEnd {
	if e, ok := mpiEngines.Load(weak.Make(j)); ok {
		return e.(*mpiEngine).ended
	}
	return nil
}

// mpiCall is one MPI call in progress on a rank: its argument block and what the engine
// has done for it so far.
type mpiCall struct {
	num     abi.Sysno
	addr    uint32   // the argument block
	w       []uint32 // its words
	started bool
	req     *mpiReq  // the receive of MPI_Recv
	coll    *mpiColl // the collective entered
	me      int      // the caller's rank in the collective's communicator
	extraNS uint64   // cost beyond MPICallNS, paid on return
}

func init() {
	for num := range abi.MPIBlockWords {
		hypercalls[num] = func(n *node, j *Job, a Args) Result { return mpiEnter(n, j, num, a) }
	}
	hypercalls[abi.HcMPIWtime] = func(n *node, j *Job, a Args) Result {
		t := cyclesToNS(n.clock())
		return Result{R3: uint32(t >> 32), R4: uint32(t), Wide: true}
	}
}

// mpiEnter runs inside a window, on the calling node only: it blocks the node and sends
// itself a message at its current time. Delivering it, between windows, runs the call in
// the engine; until the call completes the node stays blocked and is not run.
func mpiEnter(n *node, j *Job, num abi.Sysno, a Args) Result {
	if j.sh != nil {
		if !shardedMPICalls[num] {
			j.refuse(n, fmt.Sprintf("rank %d: %s at pc 0x%08x: does not run across shards yet (run without --shards)",
				n.rank, mpiCallName(num), n.proc.pc))
			return Result{}
		}
		j.sh.mpi.Store(true)
	}
	c := &mpiCall{num: num, addr: a[0]}
	req := &shipReq{num: num}
	req.done = func(p *Proc, _ shipReply) Result { return engineOf(j).step(j, n, c, req) }
	n.state, n.wait = nodeBlocked, req
	n.send(&message{at: cyclesToNS(n.clock()), kind: msgReply})
	return Result{}
}

// step evaluates call c of node n at the node's clock: the first time it starts it, later
// (after a wake) it looks whether it can finish. It returns the result for the node, or
// leaves the node blocked.
func (e *mpiEngine) step(j *Job, n *node, c *mpiCall, req *shipReq) Result {
	r := &e.ranks[n.rank]
	defer e.flushAcks(j)
	now := cyclesToNS(n.clock())
	if r.wake != nil {
		// The clock holds whole cycles: the wake's time may round down.
		now = max(now, r.wake.at)
		r.wake = nil
	}
	if r.blockedOn != nil {
		r.blockedOn = nil
		e.blocked--
	}
	if !e.scanned {
		e.scanned = true
		if res, ended := e.endForEarlierFault(j, n); ended {
			return res
		}
	}
	done, err := e.eval(j, n, c, now)
	switch {
	case err != nil:
		return e.fail(j, n, c, err)
	case e.ended != nil:
		return Result{Exit: true, Status: e.ended.Status}
	case done:
		return Result{Sleep: MPICallNS + c.extraNS}
	}
	n.state, n.wait = nodeBlocked, req
	r.blockedOn = c
	e.blocked++
	// Messages that have arrived meet the posted receives (or wait as unexpected) now,
	// whatever the rank is blocked in: left in the future list, an arrival in the past
	// would wake the rank at the same virtual time forever (a rank in MPI_Finalize with a
	// message nobody receives).
	if err := e.progress(n, now); err != nil {
		r.blockedOn = nil
		e.blocked--
		return e.fail(j, n, c, err)
	}
	if t, ok := e.nextChange(n.rank); ok {
		e.wakeAt(j, n.rank, t)
	}
	if e.checkDeadlock(j, n) {
		r.blockedOn = nil
		e.blocked--
		n.state, n.wait = nodeRunning, nil
		return Result{Exit: true, Status: e.ended.Status}
	}
	return Result{}
}

// eval runs the call's operation.
func (e *mpiEngine) eval(j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	op := mpiOps[c.num]
	if !c.started {
		c.started = true
		if err := e.ranks[n.rank].life.enter(c.num); err != nil {
			return false, err
		}
		if err := e.readBlock(n, c); err != nil {
			return false, err
		}
		if op.start != nil {
			if done, err := op.start(e, j, n, c, now); done || err != nil {
				return done, err
			}
		}
	}
	if op.poll == nil {
		return true, nil
	}
	return op.poll(e, j, n, c, now)
}

func (e *mpiEngine) readBlock(n *node, c *mpiCall) error {
	words := abi.MPIBlockWords[c.num]
	if words == 0 {
		return nil
	}
	b, errno := n.proc.copyIn(c.addr, uint32(4*words))
	if errno != 0 {
		return mpiErrorf(mpiErrArg, "argument block at 0x%08x unreadable (%v)", c.addr, errno)
	}
	c.w = make([]uint32, words)
	for i := range c.w {
		c.w[i] = be.Uint32(b[4*i:])
	}
	return nil
}

// nextChange is the next virtual time at which something the blocked rank may be waiting
// for happens: a message reaching it, or its collective completing.
func (e *mpiEngine) nextChange(rank int) (uint64, bool) {
	r := &e.ranks[rank]
	t, ok := uint64(0), false
	if len(r.future) > 0 {
		t, ok = r.future[0].arrival, true
	}
	if s, ok2 := r.nextSync(); ok2 && (!ok || s < t) {
		t, ok = s, true
	}
	if k := r.blockedOn.coll; k != nil && k.done && (!ok || k.doneAt < t) {
		t, ok = k.doneAt, true
	}
	// A nonblocking collective's results are delivered when it completes (mpi_icoll.go).
	for _, q := range r.icolls {
		if k := q.icoll.coll; k.done && (!ok || k.doneAt < t) {
			t, ok = k.doneAt, true
		}
	}
	return t, ok
}

// engineSrc is the source the engine's own messages carry: after every rank and I/O node.
func engineSrc(j *Job) int { return len(j.nodes) + len(j.ionode) }

// wakeAt makes the blocked rank look at its call again at virtual time t. A rank has at
// most one wake in flight: an earlier one moves it, a later one is dropped, since a rank
// that is still blocked after a wake schedules its next change again (step).
func (e *mpiEngine) wakeAt(j *Job, rank int, t uint64) {
	r := &e.ranks[rank]
	if r.blockedOn == nil {
		return
	}
	t = max(t, j.now)
	if w := r.wake; w != nil {
		if w.at <= t {
			return
		}
		for i, m := range j.queue {
			if m == w {
				w.at = t
				heap.Fix(&j.queue, i)
				return
			}
		}
	}
	e.seq++
	w := &message{at: t, src: engineSrc(j), seq: e.seq, kind: msgReply, rank: rank}
	r.wake = w
	j.queue.push(w)
}
