package bgl

import (
	"fmt"
	"strings"

	"github.com/dpclsh/dpclsh/bgl/abi"
	"github.com/dpclsh/dpclsh/ppc"
)

// mpiOpFn starts or polls a call; done says it returns to the program now.
type mpiOpFn func(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error)

type mpiOpSpec struct {
	name        string
	start, poll mpiOpFn
}

var mpiOps map[abi.Sysno]mpiOpSpec

func init() {
	mpiOps = map[abi.Sysno]mpiOpSpec{
		abi.HcMPIInit:          {name: "MPI_Init"},
		abi.HcMPIFinalize:      {"MPI_Finalize", startColl, pollColl},
		abi.HcMPIAbort:         {"MPI_Abort", startAbort, nil},
		abi.HcMPISend:          {"MPI_Send", startSend, nil},
		abi.HcMPIIsend:         {"MPI_Isend", startSend, nil},
		abi.HcMPIRecv:          {"MPI_Recv", startRecv, pollRecv},
		abi.HcMPIIrecv:         {"MPI_Irecv", startRecv, nil},
		abi.HcMPIWait:          {"MPI_Wait", nil, pollWait},
		abi.HcMPIWaitall:       {"MPI_Waitall", nil, pollWaitall},
		abi.HcMPITest:          {"MPI_Test", pollTest, nil},
		abi.HcMPIProbe:         {"MPI_Probe", nil, pollProbe},
		abi.HcMPIBarrier:       {"MPI_Barrier", startColl, pollColl},
		abi.HcMPIBcast:         {"MPI_Bcast", startColl, pollColl},
		abi.HcMPIReduce:        {"MPI_Reduce", startColl, pollColl},
		abi.HcMPIAllreduce:     {"MPI_Allreduce", startColl, pollColl},
		abi.HcMPIGather:        {"MPI_Gather", startColl, pollColl},
		abi.HcMPIGatherv:       {"MPI_Gatherv", startColl, pollColl},
		abi.HcMPIAllgather:     {"MPI_Allgather", startColl, pollColl},
		abi.HcMPIScatter:       {"MPI_Scatter", startColl, pollColl},
		abi.HcMPICommInfo:      {"MPI_Comm_rank", startCommInfo, nil},
		abi.HcMPIIprobe:        {"MPI_Iprobe", startIprobe, nil},
		abi.HcMPITestall:       {"MPI_Testall", pollTestall, nil},
		abi.HcMPITestany:       {"MPI_Testany", pollTestany, nil},
		abi.HcMPIWaitany:       {"MPI_Waitany", nil, pollWaitany},
		abi.HcMPIWaitsome:      {"MPI_Waitsome", nil, pollWaitsome},
		abi.HcMPITestsome:      {"MPI_Testsome", pollWaitsome, nil},
		abi.HcMPIRequestFree:   {"MPI_Request_free", startRequestFree, nil},
		abi.HcMPIAlltoall:      {"MPI_Alltoall", startColl, pollColl},
		abi.HcMPIAlltoallv:     {"MPI_Alltoallv", startColl, pollColl},
		abi.HcMPIAllgatherv:    {"MPI_Allgatherv", startColl, pollColl},
		abi.HcMPIScatterv:      {"MPI_Scatterv", startColl, pollColl},
		abi.HcMPIReduceScatter: {"MPI_Reduce_scatter", startColl, pollColl},
		abi.HcMPIScan:          {"MPI_Scan", startColl, pollColl},
		abi.HcMPIExscan:        {"MPI_Exscan", startColl, pollColl},
		abi.HcMPICommSplit:     {"MPI_Comm_split", startColl, pollColl},
		abi.HcMPICommDup:       {"MPI_Comm_dup", startColl, pollColl},
		abi.HcMPICommCreate:    {"MPI_Comm_create", startColl, pollColl},
		abi.HcMPICommFree:      {"MPI_Comm_free", startCommFree, nil},
		abi.HcMPICommGroup:     {"MPI_Comm_group", startCommGroup, nil},
		abi.HcMPICommCompare:   {"MPI_Comm_compare", startCommCompare, nil},
	}
}

func mpiCallName(num abi.Sysno) string { return mpiOps[num].name }

// MPIEndKind says why the MPI engine ended a job.
type MPIEndKind uint8

// Why a job was ended.
const (
	MPIEndAbort    MPIEndKind = iota + 1 // a rank called MPI_Abort
	MPIEndFault                          // a rank was killed by a signal
	MPIEndError                          // an MPI call failed (errors are fatal)
	MPIEndDeadlock                       // every live rank was blocked in MPI
	MPIEndExit                           // a rank exited with a nonzero status
)

var mpiEndNames = map[MPIEndKind]string{MPIEndAbort: "abort", MPIEndFault: "fault",
	MPIEndError: "error", MPIEndDeadlock: "deadlock", MPIEndExit: "exit"}

func (k MPIEndKind) String() string { return mpiEndNames[k] }

// MPIEnd is how the engine ended a job, the way mpiexec ends one: every rank still alive
// is ended with Status (its exit event carries Note), and the front-end's stderr gets a
// report. Status is the MPI_Abort error code, 128+signal for a fault, the rank's status
// when it exited with a nonzero one while others ran on, the error class for a failed call,
// MPIDeadlockStatus for a deadlock; so RunResult.ExitStatus is it.
type MPIEnd struct {
	Kind   MPIEndKind
	Rank   int // the rank that aborted, faulted or failed; -1 for a deadlock
	Status int
	TimeNS uint64
	Msg    string    // one line, without the "dpclsh: " prefix
	Waits  []MPIWait // deadlock: what each blocked rank waits for, by rank
}

// MPIWait is one blocked rank in a deadlock report.
type MPIWait struct {
	Rank int
	Call string // e.g. "MPI_Recv(source 1, tag 0)"
	For  []int  // the ranks it waits for; nil: any rank
}

// Report is the text written to stderr: Msg, then for a deadlock one line per group of
// consecutive ranks waiting alike.
func (m *MPIEnd) Report() string {
	var b strings.Builder
	fmt.Fprintf(&b, "dpclsh: %s\n", m.Msg)
	for i := 0; i < len(m.Waits); {
		w, k := m.Waits[i], i+1
		desc := waitDesc(w)
		for k < len(m.Waits) && m.Waits[k].Rank == m.Waits[k-1].Rank+1 && waitDesc(m.Waits[k]) == desc {
			k++
		}
		who := fmt.Sprintf("rank %d", w.Rank)
		if k-i > 1 {
			who = fmt.Sprintf("ranks %d-%d", w.Rank, m.Waits[k-1].Rank)
		}
		fmt.Fprintf(&b, "dpclsh:   %s: %s\n", who, desc)
		i = k
	}
	return b.String()
}

func waitDesc(w MPIWait) string {
	if w.For == nil {
		return w.Call + " waits for any rank"
	}
	return w.Call + " waits for " + rankList(w.For)
}

// rankList spells ranks as "rank 3" or "ranks 0-2, 5".
func rankList(rs []int) string {
	var parts []string
	for i := 0; i < len(rs); {
		k := i + 1
		for k < len(rs) && rs[k] == rs[k-1]+1 {
			k++
		}
		if k-i > 1 {
			parts = append(parts, fmt.Sprintf("%d-%d", rs[i], rs[k-1]))
		} else {
			parts = append(parts, fmt.Sprint(rs[i]))
		}
		i = k
	}
	if len(rs) == 1 {
		return "rank " + parts[0]
	}
	return "ranks " + strings.Join(parts, ", ")
}

// end ends the job: every live rank but cur (which gets its status from its call's
// result) exits with m.Status at virtual time m.TimeNS.
func (e *mpiEngine) end(j *Job, cur *node, m *MPIEnd) {
	if e.sh != nil {
		e.endSharded(j, cur, m)
		return
	}
	e.ended = m
	j.fe.notice(1, m.Report())
	e.endOwnRanks(j, cur, m)
}

func startAbort(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	code := int(int32(c.w[1])) & 0xff
	e.end(j, n, &MPIEnd{Kind: MPIEndAbort, Rank: n.rank, Status: code, TimeNS: now,
		Msg: fmt.Sprintf("rank %d: MPI_Abort(MPI_COMM_WORLD, %d): ending the job", n.rank, int32(c.w[1]))})
	return false, nil
}

// fail ends the job for a failed call, as MPI_ERRORS_ARE_FATAL does.
func (e *mpiEngine) fail(j *Job, n *node, c *mpiCall, err error) Result {
	class := mpiErrOther
	if me, ok := err.(*MPIError); ok {
		class = me.Class
	}
	if e.errorsReturn(n, c) {
		return Result{R3: uint32(class), Sleep: MPICallNS + c.extraNS}
	}
	e.end(j, n, &MPIEnd{Kind: MPIEndError, Rank: n.rank, Status: class, TimeNS: cyclesToNS(n.clock()),
		Msg: fmt.Sprintf("rank %d: %s at pc 0x%08x: %v: ending the job", n.rank, mpiCallName(c.num), n.proc.pc, err)})
	return Result{Exit: true, Status: class}
}

// onEvent ends the job when a rank is killed by a signal or exits with a nonzero status
// while others still run, as mpiexec does, and looks for a deadlock when a rank exits (the
// others may all be waiting for it).
func (e *mpiEngine) onEvent(j *Job, ev Event) {
	if e.ended != nil || (ev.Kind != EventFault && ev.Kind != EventExit) {
		return
	}
	switch {
	case ev.Signal != 0:
		e.endForFault(j, nil, ev.Rank, ev.Signal, ev.Status, ev.Frames)
	case ev.Status != 0 && (anyAlive(j) || e.sh != nil && e.sh.aliveElsewhere > 0):
		e.end(j, nil, &MPIEnd{Kind: MPIEndExit, Rank: ev.Rank, Status: ev.Status, TimeNS: j.now,
			Msg: fmt.Sprintf("rank %d: exited with status %d: ending the job", ev.Rank, ev.Status)})
	default:
		e.checkDeadlock(j, nil)
	}
}

func anyAlive(j *Job) bool {
	for _, n := range j.nodes {
		if n != nil && (n.state == nodeRunning || n.state == nodeBlocked) {
			return true
		}
	}
	return false
}

// endForFault ends the job for a rank killed by signal sig; the message names where
// (the innermost frame of its backtrace: the whole walk is the rank's own report).
func (e *mpiEngine) endForFault(j *Job, cur *node, rank, sig, status int, frames []ppc.Frame) {
	where := ""
	if len(frames) > 0 && frames[0].Loc.Func != "" {
		where = " in " + frames[0].String()
	}
	e.end(j, cur, &MPIEnd{Kind: MPIEndFault, Rank: rank, Status: status, TimeNS: j.now,
		Msg: fmt.Sprintf("rank %d: killed by signal %d (%s)%s: ending the job", rank, sig, SignalName(sig), where)})
}

// endForEarlierFault ends the job for a rank killed by a signal before the first MPI call
// made the engine (and its event listener).
func (e *mpiEngine) endForEarlierFault(j *Job, cur *node) (Result, bool) {
	if k := signalled(j); k != nil {
		e.endForFault(j, cur, k.rank, k.exit.Signal, k.exit.Status, j.backtrace(k, ppc.ReportFrames))
		return Result{Exit: true, Status: k.exit.Status}, true
	}
	return Result{}, false
}

// signalled returns a rank killed by a signal, or nil.
func signalled(j *Job) *node {
	for _, k := range j.nodes {
		if k != nil && (k.state == nodeFaulted || k.state == nodeExited) && k.exit.Signal != 0 {
			return k
		}
	}
	return nil
}
