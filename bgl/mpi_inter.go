package bgl

import (
	"fmt"
	"slices"

	"github.com/dpclsh/dpclsh/bgl/abi"
)

// Intercommunicators. An intercommunicator joins two disjoint groups; its handle, the same
// in both, carries mpiInterBit, so libmpi tells one from an intracommunicator without a
// call. The engine keeps it as two mpiComm views, one per group, each the other's peer:
// MPI_Comm_rank and _size and MPI_Comm_group answer for the caller's group, and a
// point-to-point rank (destination, source, status) names a member of the other group.
//
// libmpi does the rest as MPICH does, from point-to-point calls and collectives of the
// local group: for each intercommunicator the engine makes, per group, a hidden
// intracommunicator of that group (local), and one hidden twin intercommunicator (twin)
// that carries libmpi's own messages, so they never meet a user's receive. Both cost what
// their messages and collectives cost on the network.
//
// MPI_Intercomm_create's leaders exchange their groups over the peer communicator;
// then each group makes a collective call (HcMPIIntercommMake) with the other's members.
// The first group to complete it creates the intercommunicator; the other group's call
// with the same two member lists takes it. Calls pair in order: the k-th of one group
// meets the k-th of the other, so MPI_Comm_dup, _split and _create of an intercommunicator
// (made the same way, over the local groups) pair too. MPI_Intercomm_merge pairs the two
// groups' calls naming the same merged member list. Every decision is made in the
// engine's virtual-time order, so the handles do not depend on the host.
const mpiInterBit = 1 << 29

// inter is an intercommunicator view's link to the other group; zero for an
// intracommunicator.
type inter struct {
	peer  *mpiComm // the other group's view
	local uint32   // the hidden intracommunicator of this view's group
	twin  uint32   // the hidden intercommunicator for libmpi's traffic
}

// remote is the group point-to-point ranks name: the peer's for an intercommunicator.
func (c *mpiComm) remote() *mpiComm {
	if c.peer != nil {
		return c.peer
	}
	return c
}

// pendingComm is a communicator one group has made and the other has yet to take.
type pendingComm struct {
	side string // the making group's members
	id   uint32
}

func init() {
	interCost := func(k *mpiColl) uint64 { return treeCost(k, uint64(8*k.comm.size), 2) }
	collSpecs[abi.HcMPIIntercommMake] = collSpec{comm: 0, root: -1, enter: enterMembers, complete: completeInterMake,
		leave: leaveNewComm(3), cost: interCost}
	collSpecs[abi.HcMPIIntercommMerge] = collSpec{comm: 0, root: -1, enter: enterMembers, complete: completeMerge,
		leave: leaveNewComm(3), cost: interCost}
	mpiOps[abi.HcMPIIntercommMake] = mpiOpSpec{"MPI_Intercomm_create", startColl, pollColl}
	mpiOps[abi.HcMPIIntercommMerge] = mpiOpSpec{"MPI_Intercomm_merge", startColl, pollColl}
	mpiOps[abi.HcMPIInterInfo] = mpiOpSpec{"MPI_Comm_remote_size", startInterInfo, nil}
	mpiOps[abi.HcMPICommRemoteGroup] = mpiOpSpec{"MPI_Comm_remote_group", startRemoteGroup, nil}
	mpiOps[abi.HcMPIGroupStage] = mpiOpSpec{"MPI_Comm_create_group", startGroupStage, pollGroupStage}
	// A nonblocking collective (mpi_icoll.go) whose blocking form is MPI_Comm_dup: the
	// duplicate is made when the last member enters, its handle written at completion.
	mpiOps[abi.HcMPICommIdup] = mpiOpSpec{"MPI_Comm_idup", startIcoll, nil}
	mpiOps[abi.HcMPIIntercommIdup] = mpiOpSpec{"MPI_Comm_idup", startIcoll, nil}
	for _, h := range []abi.Sysno{abi.HcMPIIntercommMake, abi.HcMPIIntercommMerge, abi.HcMPIInterInfo,
		abi.HcMPICommRemoteGroup, abi.HcMPIGroupStage, abi.HcMPICommIdup, abi.HcMPIIntercommIdup} {
		mpiCommWord[h] = 0
	}
}

// readMembers reads a list of n distinct world ranks.
func readMembers(e *mpiEngine, n *node, count, addr uint32, what string) ([]int, error) {
	if int32(count) < 0 || int(count) > len(e.ranks) {
		return nil, mpiErrorf(mpiErrArg, "invalid %s of %d members", what, int32(count))
	}
	ws, err := readInts(n, addr, int(count), what)
	if err != nil {
		return nil, err
	}
	g := make([]int, len(ws))
	seen := map[int]bool{}
	for i, w := range ws {
		if w < 0 || int(w) >= len(e.ranks) || seen[int(w)] {
			return nil, mpiErrorf(mpiErrGroup, "invalid %s: member %d (world rank %d) is not a rank or is listed twice", what, i, w)
		}
		seen[int(w)] = true
		g[i] = int(w)
	}
	return g, nil
}

// enterMembers records the member list each rank passes (the remote group, or the merged
// one); every rank of the group must pass the same.
func enterMembers(e *mpiEngine, n *node, c *mpiCall, k *mpiColl) error {
	m := k.extra()
	if m.groups == nil {
		m.groups = make([][]int, k.comm.size)
	}
	g, err := readMembers(e, n, c.w[1], c.w[2], "group")
	if err != nil {
		return err
	}
	m.groups[c.me] = g
	return nil
}

// agreedMembers is the list every rank passed, or an error naming a rank that differs.
func agreedMembers(k *mpiColl) ([]int, error) {
	g := k.more.groups[0]
	for r, o := range k.more.groups {
		if !slices.Equal(o, g) {
			return nil, mpiErrorf(mpiErrArg, "%s: rank %d of %s passes members %v where rank 0 passes %v",
				mpiCallName(k.num), r, commName(k.comm), o, g)
		}
	}
	return g, nil
}

// takePending removes and returns the first communicator under key made by another group
// than side, or 0.
func (e *mpiEngine) takePending(key, side string) uint32 {
	for i, p := range e.pending[key] {
		if p.side != side {
			e.pending[key] = slices.Delete(e.pending[key], i, i+1)
			return p.id
		}
	}
	return 0
}

func (e *mpiEngine) putPending(key, side string, id uint32) {
	if e.pending == nil {
		e.pending = map[string][]pendingComm{}
	}
	e.pending[key] = append(e.pending[key], pendingComm{side: side, id: id})
}

// interViews makes an intercommunicator's two views under handle id.
func interViews(id uint32, a, b []int) (*mpiComm, *mpiComm) {
	va, vb := newComm(id, "", a), newComm(id, "", b)
	va.peer, vb.peer = vb, va
	return va, vb
}

func completeInterMake(e *mpiEngine, k *mpiColl) error {
	remote, err := agreedMembers(k)
	if err != nil {
		return err
	}
	local := k.comm.members()
	for _, w := range remote {
		if _, ok := k.comm.rankOf(w); ok {
			return mpiErrorf(mpiErrComm, "MPI_Intercomm_create: world rank %d is in both groups (%v and %v)", w, local, remote)
		}
	}
	side, other := fmt.Sprint(local), fmt.Sprint(remote)
	key := side + "|" + other
	if other < side {
		key = other + "|" + side
	}
	id := e.takePending(key, side)
	if id != 0 {
		v := e.comms[id]
		if !slices.Equal(v.members(), local) {
			v = v.peer
		}
		v.local = e.addComm(local).id
	} else {
		id = mpiInterBit | e.nextComm
		twin := mpiInterBit | (e.nextComm + 1)
		e.nextComm += 2
		va, vb := interViews(id, local, remote)
		ta, _ := interViews(twin, local, remote)
		va.twin, vb.twin = twin, twin
		e.comms[id], e.comms[twin] = va, ta
		va.local = e.addComm(local).id
		e.putPending(key, side, id)
	}
	k.more.handles = make([]uint32, k.comm.size)
	for r := range k.more.handles {
		k.more.handles[r] = id
	}
	return nil
}

func completeMerge(e *mpiEngine, k *mpiColl) error {
	merged, err := agreedMembers(k)
	if err != nil {
		return err
	}
	for _, w := range k.comm.members() {
		if !slices.Contains(merged, w) {
			return mpiErrorf(mpiErrArg, "MPI_Intercomm_merge: world rank %d of the group is not in the merged members %v", w, merged)
		}
	}
	key, side := "merge "+fmt.Sprint(merged), fmt.Sprint(k.comm.members())
	id := e.takePending(key, side)
	if id == 0 {
		id = e.addComm(merged).id
		e.putPending(key, side, id)
	}
	k.more.handles = make([]uint32, k.comm.size)
	for r := range k.more.handles {
		k.more.handles[r] = id
	}
	return nil
}

// startInterInfo {comm, out[4]}: {1, remote size, local, twin} for an
// intercommunicator, zeros for an intracommunicator.
func startInterInfo(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	comm, _, err := e.comm(n, c.w[0])
	if err != nil {
		return false, err
	}
	if comm.peer == nil {
		return true, writeWords(n, c.w[1], 0, 0, 0, 0)
	}
	return true, writeWords(n, c.w[1], 1, uint32(comm.peer.size), comm.local, comm.twin)
}

// startRemoteGroup {comm, out}: the remote group's world ranks, in its rank order.
func startRemoteGroup(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	comm, _, err := e.comm(n, c.w[0])
	if err != nil {
		return false, err
	}
	if comm.peer == nil {
		return false, mpiErrorf(mpiErrComm, "%s is not an intercommunicator", commName(comm))
	}
	return true, writeWords(n, c.w[1], toWords(comm.peer.members())...)
}

func toWords(ws []int) []uint32 {
	out := make([]uint32, len(ws))
	for i, w := range ws {
		out[i] = uint32(w)
	}
	return out
}

// startGroupStage {comm, n, members, tag, out}: the hidden communicator of the group's
// members that MPI_Comm_create_group duplicates (a collective of those members only). The
// first member to ask creates it; the same communicator, members and tag name it again.
func startGroupStage(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	parent, _, err := e.comm(n, c.w[0])
	if err != nil {
		return false, err
	}
	if parent.peer != nil {
		return false, mpiErrorf(mpiErrComm, "MPI_Comm_create_group: %s is an intercommunicator", commName(parent))
	}
	g, err := readMembers(e, n, c.w[1], c.w[2], "group")
	if err != nil {
		return false, err
	}
	if err := checkGroup(parent, g); err != nil {
		return false, err
	}
	if !slices.Contains(g, n.rank) {
		return false, mpiErrorf(mpiErrGroup, "MPI_Comm_create_group: the calling rank (world rank %d) is not in the group %v", n.rank, g)
	}
	key := stageName(parent.id, g, int32(c.w[3]))
	id, ok := e.stages[key]
	if !ok && e.sh != nil { // numbered at the round's end (mpi_shard_stage.go)
		e.sh.askStage(c, n.rank, now, parent.id, g, int32(c.w[3]))
		return false, nil
	}
	if !ok {
		if e.stages == nil {
			e.stages = map[string]uint32{}
		}
		id = e.addComm(g).id
		e.stages[key] = id
	}
	return true, writeWords(n, c.w[4], id)
}
