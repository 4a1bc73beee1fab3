package bgl

import (
	"github.com/dpclsh/dpclsh/bgl/abi"
)

// The communicator calls. Split, Dup and Create are collectives of the parent
// communicator: every member brings its part, the last to enter makes the new
// communicators (mpi_comm.go) and every member leaves with its handle.

func init() {
	commCost := func(k *mpiColl) uint64 { return treeCost(k, uint64(8*k.comm.size), 2) }
	collSpecs[abi.HcMPICommSplit] = collSpec{comm: 0, root: -1, enter: enterSplit, complete: completeSplit,
		leave: leaveNewComm(3), cost: commCost}
	collSpecs[abi.HcMPICommDup] = collSpec{comm: 0, root: -1, enter: enterSplit, complete: completeSplit,
		leave: leaveNewComm(1), cost: commCost}
	collSpecs[abi.HcMPICommCreate] = collSpec{comm: 0, root: -1, enter: enterCreate, complete: completeCreate,
		leave: leaveNewComm(3), cost: commCost}
}

// enterSplit records (color, key): Comm_split's arguments, or for Comm_dup one color and
// the rank as the key.
func enterSplit(e *mpiEngine, n *node, c *mpiCall, k *mpiColl) error {
	m := k.extra()
	if m.colors == nil {
		m.colors, m.keys = make([]int32, k.comm.size), make([]int32, k.comm.size)
	}
	color, key := int32(0), int32(c.me)
	if c.num == abi.HcMPICommSplit {
		color, key = int32(c.w[1]), int32(c.w[2])
		if color < 0 && color != mpiUndefined {
			return mpiErrorf(mpiErrArg, "invalid color %d: colors are nonnegative or MPI_UNDEFINED", color)
		}
	}
	m.colors[c.me], m.keys[c.me] = color, key
	return nil
}

func completeSplit(e *mpiEngine, k *mpiColl) error {
	k.more.handles = e.splitComms(k.comm, k.more.colors, k.more.keys)
	return nil
}

// enterCreate reads the group (world ranks) the rank passes.
func enterCreate(e *mpiEngine, n *node, c *mpiCall, k *mpiColl) error {
	m := k.extra()
	if m.groups == nil {
		m.groups = make([][]int, k.comm.size)
	}
	count := int32(c.w[1])
	if count < 0 || int(count) > len(e.ranks) {
		return mpiErrorf(mpiErrArg, "invalid group of %d members", count)
	}
	ws, err := readInts(n, c.w[2], int(count), "group")
	if err != nil {
		return err
	}
	g := make([]int, len(ws))
	for i, w := range ws {
		g[i] = int(w)
	}
	if err := checkGroup(k.comm, g); err != nil {
		return err
	}
	m.groups[c.me] = g
	return nil
}

func completeCreate(e *mpiEngine, k *mpiColl) error {
	k.more.handles = e.createComms(k.comm, k.more.groups)
	return nil
}

// leaveNewComm writes the rank's new handle to the word at block index i.
func leaveNewComm(i int) func(n *node, c *mpiCall, k *mpiColl) error {
	return func(n *node, c *mpiCall, k *mpiColl) error {
		return writeWords(n, c.w[i], k.more.handles[c.me])
	}
}

// startCommInfo {comm, rank, size}.
func startCommInfo(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	comm, me, err := e.comm(n, c.w[0])
	if err != nil {
		return false, err
	}
	if c.w[1] != 0 {
		if err := writeWords(n, c.w[1], uint32(me)); err != nil {
			return false, err
		}
	}
	if c.w[2] != 0 {
		if err := writeWords(n, c.w[2], uint32(comm.size)); err != nil {
			return false, err
		}
	}
	return true, nil
}

// startCommFree {comm pointer}: the handle becomes invalid for this rank and is set to
// MPI_COMM_NULL.
func startCommFree(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	b, err := readBuf(n, c.w[0], 4, "communicator handle")
	if err != nil {
		return false, err
	}
	h := be.Uint32(b)
	if h == mpiCommWorld || h == mpiCommSelf {
		return false, mpiErrorf(mpiErrComm, "invalid communicator %d: MPI_COMM_WORLD and MPI_COMM_SELF cannot be freed", h)
	}
	if _, _, err := e.comm(n, h); err != nil {
		return false, err
	}
	r := &e.ranks[n.rank]
	if r.freed == nil {
		r.freed = map[uint32]bool{}
	}
	r.freed[h] = true
	return true, writeWords(n, c.w[0], mpiCommNull)
}

// startCommGroup {comm, out}: the members' world ranks, in communicator rank order.
func startCommGroup(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	comm, _, err := e.comm(n, c.w[0])
	if err != nil {
		return false, err
	}
	ws := make([]uint32, comm.size)
	for r := range ws {
		ws[r] = uint32(comm.worldOf(r))
	}
	return true, writeWords(n, c.w[1], ws...)
}

// startCommCompare {comm1, comm2, result}.
func startCommCompare(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	a, _, err := e.comm(n, c.w[0])
	if err != nil {
		return false, err
	}
	b, _, err := e.comm(n, c.w[1])
	if err != nil {
		return false, err
	}
	return true, writeWords(n, c.w[2], compareComms(a, b))
}
