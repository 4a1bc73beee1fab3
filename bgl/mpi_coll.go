package bgl

import (
	"github.com/dpclsh/dpclsh/bgl/abi"
)

// mpiColl is one collective operation of the job: the k-th collective every rank enters.
// Each rank brings its part when it enters; when the last one arrives the result is
// computed (reductions in rank order, so results do not depend on arrival order) and
// every rank is woken when the network would deliver it.
type mpiColl struct {
	key     collKey
	comm    *mpiComm
	seq     int
	num     abi.Sysno
	root    int
	entered int
	in      []bool   // which communicator ranks have entered (for the deadlock report)
	parts   [][]byte // each rank's contribution (gathers, reductions)
	rootBuf []byte   // the root's data (Bcast, Scatter)
	layout  []collSlot
	result  []byte
	typ     mpiType
	op      mpiOp
	last    uint64 // latest entry time
	doneAt  uint64
	done    bool
	chunk   uint32 // Scatter: bytes per rank of the root's buffer
	more    *collMore
}

// collKey identifies a collective: the k-th of a communicator context.
type collKey struct {
	ctx uint32
	seq int
}

// collSlot is where rank i's part lands in the root's receive buffer (Gatherv).
type collSlot struct{ off, cap uint32 }

// collSpec describes a collective's argument block.
type collSpec struct {
	comm, root int // word indexes; root -1: no root
	cost       func(k *mpiColl) uint64
	enter      func(e *mpiEngine, n *node, c *mpiCall, k *mpiColl) error
	complete   func(e *mpiEngine, k *mpiColl) error // once every member has entered
	leave      func(n *node, c *mpiCall, k *mpiColl) error
}

// treeCost is ways crossings of the collective network over the communicator, bytes
// carried once (mpi_cost.go).
func treeCost(k *mpiColl, bytes uint64, ways uint64) uint64 {
	return ways*(CollTreeBaseNS+treeDepth(k.comm.size)*CollTreeHopNS) + bytes*CollTreeNSPerByte
}

func partBytes(k *mpiColl) uint64 {
	var s uint64
	for _, p := range k.parts {
		s += uint64(len(p))
	}
	return s
}

var collSpecs = map[abi.Sysno]collSpec{
	abi.HcMPIFinalize: {comm: -1, root: -1, cost: func(*mpiColl) uint64 { return BarrierNS }},
	abi.HcMPIBarrier:  {comm: 0, root: -1, cost: func(*mpiColl) uint64 { return BarrierNS }},
	abi.HcMPIBcast: {comm: 4, root: 3, enter: enterBcast, leave: leaveBcast,
		cost: func(k *mpiColl) uint64 { return treeCost(k, uint64(len(k.rootBuf)), 1) }},
	abi.HcMPIReduce: {comm: 6, root: 5, enter: enterReduce, leave: leaveReduce,
		cost: func(k *mpiColl) uint64 { return treeCost(k, uint64(len(k.result)), 1) }},
	abi.HcMPIAllreduce: {comm: 5, root: -1, enter: enterReduce, leave: leaveReduce,
		cost: func(k *mpiColl) uint64 { return treeCost(k, uint64(len(k.result)), 2) }},
	abi.HcMPIGather: {comm: 7, root: 6, enter: enterGather, leave: leaveGather,
		cost: func(k *mpiColl) uint64 { return treeCost(k, partBytes(k), 1) }},
	abi.HcMPIGatherv: {comm: 8, root: 7, enter: enterGatherv, leave: leaveGather,
		cost: func(k *mpiColl) uint64 { return treeCost(k, partBytes(k), 1) }},
	abi.HcMPIAllgather: {comm: 6, root: -1, enter: enterGather, leave: leaveGather,
		cost: func(k *mpiColl) uint64 { return treeCost(k, partBytes(k), 2) }},
	abi.HcMPIScatter: {comm: 7, root: 6, enter: enterScatter, leave: leaveScatter,
		cost: func(k *mpiColl) uint64 { return treeCost(k, uint64(len(k.rootBuf)), 1) }},
}

// startColl enters the rank's next collective on the call's communicator.
func startColl(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	spec := collSpecs[c.num]
	handle := uint32(mpiCommWorld)
	if spec.comm >= 0 {
		handle = c.w[spec.comm]
	}
	comm, me, err := e.comm(n, handle)
	if err != nil {
		return false, err
	}
	if comm.peer != nil { // libmpi builds the intercommunicator collectives it has
		return false, mpiErrorf(mpiErrComm, "%s on %s: not available on an intercommunicator", mpiCallName(c.num), commName(comm))
	}
	root := -1
	if spec.root >= 0 {
		root = int(int32(c.w[spec.root]))
		if root < 0 || root >= comm.size {
			return false, mpiErrorf(mpiErrRoot, "invalid root %d: not in %s (size %d)", root, commName(comm), comm.size)
		}
	}
	r := &e.ranks[n.rank]
	if r.collSeq == nil {
		r.collSeq = map[uint32]int{}
	}
	key := collKey{comm.id, r.collSeq[comm.id]}
	r.collSeq[comm.id]++
	k := e.colls[key]
	if k == nil {
		k = &mpiColl{key: key, comm: comm, seq: key.seq, num: c.num, root: root, in: make([]bool, comm.size)}
		e.colls[key] = k
	}
	if k.num != c.num || k.root != root {
		return false, mpiErrorf(mpiErrOther, "collective #%d on %s: this rank calls %s (root %d) where others call %s (root %d)",
			k.seq+1, commName(comm), mpiCallName(c.num), root, mpiCallName(k.num), k.root)
	}
	c.coll, c.me = k, me
	k.in[me] = true
	k.entered++
	k.last = max(k.last, now)
	if spec.enter != nil {
		if err := spec.enter(e, n, c, k); err != nil {
			return false, err
		}
	}
	if e.sh != nil { // completed at the round's end, with the other shards' entries
		e.sh.entered(k, c, now)
		return false, nil
	}
	if k.entered == comm.size {
		if err := e.completeColl(j, k, spec); err != nil {
			return false, err
		}
	}
	return false, nil
}

// completeColl computes the result and wakes every rank when the network delivers it.
func (e *mpiEngine) completeColl(j *Job, k *mpiColl, spec collSpec) error {
	if k.num == abi.HcMPIReduce || k.num == abi.HcMPIAllreduce || k.num == abi.HcMPIReduceScatter ||
		k.num == abi.HcMPIReduceScatterBlock {
		k.result = append([]byte(nil), k.parts[0]...)
		for _, p := range k.parts[1:] {
			reduceInto(k.result, p, k.typ, k.op)
		}
	}
	if spec.complete != nil {
		if err := spec.complete(e, k); err != nil {
			return err
		}
	}
	k.done = true
	k.doneAt = k.last + spec.cost(k)
	delete(e.colls, k.key)
	if k.num == abi.HcMPIFinalize {
		e.warnUnreceived(j)
	}
	for r := range k.comm.size {
		e.wakeAt(j, k.comm.worldOf(r), k.doneAt)
	}
	return nil
}

// pollColl finishes the rank's part once the collective is complete.
func pollColl(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	k := c.coll
	if !k.done || now < k.doneAt {
		return false, nil
	}
	if leave := collSpecs[c.num].leave; leave != nil {
		return true, leave(n, c, k)
	}
	return true, nil
}

func readBuf(n *node, addr, bytes uint32, what string) ([]byte, error) {
	b, errno := n.proc.copyIn(addr, bytes)
	if errno != 0 {
		return nil, mpiErrorf(mpiErrBuffer, "%s at 0x%08x (%d bytes): %v", what, addr, bytes, errno)
	}
	return b, nil
}

func writeBuf(n *node, addr uint32, b []byte, what string) error {
	if errno := n.proc.copyOut(addr, b); errno != 0 {
		return mpiErrorf(mpiErrBuffer, "%s at 0x%08x (%d bytes): %v", what, addr, len(b), errno)
	}
	return nil
}

// Bcast {buf, count, type, root, comm}.
func enterBcast(e *mpiEngine, n *node, c *mpiCall, k *mpiColl) error {
	bytes, err := bufBytes(c.w[1], c.w[2])
	if err != nil || c.me != k.root {
		return err
	}
	k.rootBuf, err = readBuf(n, c.w[0], bytes, "broadcast buffer")
	return err
}

func leaveBcast(n *node, c *mpiCall, k *mpiColl) error {
	bytes, _ := bufBytes(c.w[1], c.w[2])
	if c.me == k.root {
		return nil
	}
	if bytes != uint32(len(k.rootBuf)) {
		return mpiErrorf(mpiErrTruncate, "count mismatch: broadcast of %d bytes from root %d into a %d-byte buffer", len(k.rootBuf), k.root, bytes)
	}
	return writeBuf(n, c.w[0], k.rootBuf, "broadcast buffer")
}

// Reduce {sendbuf, recvbuf, count, type, op, root, comm}; Allreduce lacks root.
func enterReduce(e *mpiEngine, n *node, c *mpiCall, k *mpiColl) error {
	t, err := typeOf(c.w[3])
	if err != nil {
		return err
	}
	if err := checkOp(c.w[4], t); err != nil {
		return err
	}
	bytes, err := bufBytes(c.w[2], c.w[3])
	if err != nil {
		return err
	}
	if k.parts == nil {
		k.parts, k.typ, k.op = make([][]byte, len(k.in)), t, mpiOp(c.w[4])
	} else if k.typ != t || k.op != mpiOp(c.w[4]) || bytes != uint32(len(firstPart(k))) {
		what := "count mismatch"
		if k.typ != t || k.op != mpiOp(c.w[4]) {
			what = "type or operation mismatch"
		}
		other := firstRank(k)
		return mpiErrorf(mpiErrOther, "%s: collective #%d on %s: this rank reduces %d of %s with %s, rank %d %d of %s with %s",
			what, k.seq+1, commName(k.comm), int32(c.w[2]), t.name, opName(mpiOp(c.w[4])),
			other, len(k.parts[other])/max(k.typ.size, 1), k.typ.name, opName(k.op))
	}
	src := c.w[0]
	if src == mpiInPlace {
		if c.num == abi.HcMPIReduce && c.me != k.root {
			return mpiErrorf(mpiErrBuffer, "invalid buffer: MPI_IN_PLACE as the send buffer of a non-root rank")
		}
		src = c.w[1]
	}
	k.parts[c.me], err = readBuf(n, src, bytes, "send buffer")
	return err
}

func firstPart(k *mpiColl) []byte {
	if i := firstRank(k); i >= 0 {
		return k.parts[i]
	}
	return nil
}

// firstRank is the lowest communicator rank that has brought its part, or -1.
func firstRank(k *mpiColl) int {
	for i, p := range k.parts {
		if p != nil {
			return i
		}
	}
	return -1
}

func leaveReduce(n *node, c *mpiCall, k *mpiColl) error {
	if c.num == abi.HcMPIReduce && c.me != k.root {
		return nil
	}
	return writeBuf(n, c.w[1], k.result, "receive buffer")
}
