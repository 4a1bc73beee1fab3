package bgl

import (
	"github.com/dpclsh/dpclsh/bgl/abi"
)

// One-sided communication: windows (MPI_Win). A window's handle is that of the private
// duplicate of its communicator libmpi makes (libmpi_win.c), so its group, its collectives
// (create, fence, free) and its error handler are that communicator's. The engine keeps
// each member's memory (base, size, displacement unit; a dynamic window's attached
// regions), the operations issued and not yet completed, and the synchronisation state
// (mpi_win_sync.go). Operations (mpi_win_ops.go) are recorded when issued, their origin
// data copied then, and carried out on the target's memory at the synchronisation call
// that completes them, so a target sees them exactly when MPI says it may.

// MPI error classes of one-sided communication (mpi.h; MPICH's numbers); MPI_ERR_GROUP
// is mpi_types.go's.
const (
	mpiErrWin       = 45
	mpiErrBase      = 46
	mpiErrLocktype  = 47
	mpiErrRMASync   = 50
	mpiErrSize      = 51
	mpiErrDisp      = 52
	mpiErrRMARange  = 55
	mpiErrRMAAttach = 56
	mpiErrRMAFlavor = 58
)

func init() {
	for c, name := range map[int]string{mpiErrWin: "MPI_ERR_WIN", mpiErrBase: "MPI_ERR_BASE",
		mpiErrLocktype: "MPI_ERR_LOCKTYPE", mpiErrRMASync: "MPI_ERR_RMA_SYNC", mpiErrSize: "MPI_ERR_SIZE",
		mpiErrDisp: "MPI_ERR_DISP", mpiErrRMARange: "MPI_ERR_RMA_RANGE", mpiErrRMAAttach: "MPI_ERR_RMA_ATTACH",
		mpiErrRMAFlavor: "MPI_ERR_RMA_FLAVOR"} {
		mpiErrNames[c] = name
	}
	mpiOps[abi.HcMPIWinCreate] = mpiOpSpec{"MPI_Win_create", startColl, pollColl}
	mpiOps[abi.HcMPIWinFree] = mpiOpSpec{"MPI_Win_free", startWinColl, pollColl}
	mpiOps[abi.HcMPIWinFence] = mpiOpSpec{"MPI_Win_fence", startWinColl, pollColl}
	mpiOps[abi.HcMPIWinAttach] = mpiOpSpec{"MPI_Win_attach", startWinAttach, nil}
	collSpecs[abi.HcMPIWinCreate] = collSpec{comm: 0, root: -1, enter: enterWinCreate,
		cost: func(k *mpiColl) uint64 { return treeCost(k, uint64(12*k.comm.size), 2) }}
	barrier := func(*mpiColl) uint64 { return BarrierNS }
	collSpecs[abi.HcMPIWinFree] = collSpec{comm: 0, root: -1, enter: enterWin, cost: barrier}
	collSpecs[abi.HcMPIWinFence] = collSpec{comm: 0, root: -1, enter: enterWin, cost: barrier}
	// A window's errors go to its handler: its handle is a communicator's.
	for _, num := range []abi.Sysno{abi.HcMPIWinCreate, abi.HcMPIWinFree, abi.HcMPIWinFence, abi.HcMPIWinAttach} {
		mpiCommWord[num] = 0
	}
	mpiCommWord[abi.HcMPIWinSync] = 1
	mpiCommWord[abi.HcMPIRMA] = 1
}

// Window flavors (MPI_WIN_FLAVOR_*), as libmpi passes them.
const (
	winFlavorCreate   = 1
	winFlavorAllocate = 2
	winFlavorDynamic  = 3
	winFlavorShared   = 4
)

// mpiWin is one window.
type mpiWin struct {
	comm    *mpiComm
	flavor  uint32
	mem     []winMem  // by communicator rank
	pending []*rmaOp  // issued, not yet completed, in issue order
	locks   []winLock // by target
	// sleepers are the world ranks waiting in a lock, Complete or Wait, in the order
	// they began to wait.
	sleepers []int
	epoch    []winEpoch // by origin
	// General active target: posts[t][o] counts target t's posts that include origin o
	// and origin o has not yet consumed; done[t][o] the completes of o towards t that t
	// has not yet waited for.
	posts, done [][]int
}

// winMem is one member's part of the window.
type winMem struct {
	base, size, unit uint32
	regions          [][2]uint32 // a dynamic window's attached (base, size)
}

// winEpoch is an origin's access epochs: the targets it holds locks on, whether it holds
// a lock on all (Lock_all), and the group of its Start (communicator ranks).
type winEpoch struct {
	locked         map[int]*bool // target -> exclusive; nil: MPI_MODE_NOCHECK, no lock taken
	lockAll        bool
	lockAllNocheck bool
	started        []int
	startNocheck   bool
	posted         []int // the group of its Post, as a target
}

// win resolves a window handle for the calling rank.
func (e *mpiEngine) win(n *node, h uint32) (*mpiWin, int, error) {
	w := e.wins[h]
	if w == nil {
		return nil, 0, mpiErrorf(mpiErrWin, "invalid window %d (no such window, or freed)", int32(h))
	}
	me, ok := w.comm.rankOf(n.rank)
	if !ok {
		return nil, 0, mpiErrorf(mpiErrWin, "invalid window %d: rank %d is not a member", h, n.rank)
	}
	return w, me, nil
}

// enterWinCreate records the member's memory {win, base, size, disp_unit, flavor}. The
// window exists from the first entry; operations on it are valid only after the call
// returns, when every member has entered.
func enterWinCreate(e *mpiEngine, n *node, c *mpiCall, k *mpiColl) error {
	base, size, unit, flavor := c.w[1], c.w[2], c.w[3], c.w[4]
	if int32(size) < 0 {
		return mpiErrorf(mpiErrSize, "invalid window size %d", int32(size))
	}
	if int32(unit) <= 0 {
		return mpiErrorf(mpiErrDisp, "invalid displacement unit %d", int32(unit))
	}
	if flavor < winFlavorCreate || flavor > winFlavorShared {
		return mpiErrorf(mpiErrArg, "invalid window flavor %d", flavor)
	}
	if flavor == winFlavorShared && k.comm.size > 1 {
		return mpiErrorf(mpiErrRMAFlavor, "MPI_Win_allocate_shared over %s of %d ranks: a Blue Gene/L node's shared-memory domain is its one rank",
			commName(k.comm), k.comm.size)
	}
	if e.wins == nil {
		e.wins = map[uint32]*mpiWin{}
	}
	w := e.wins[c.w[0]]
	if w == nil {
		size := k.comm.size
		w = &mpiWin{comm: k.comm, flavor: flavor, mem: make([]winMem, size), locks: make([]winLock, size),
			epoch: make([]winEpoch, size), posts: square(size), done: square(size)}
		e.wins[c.w[0]] = w
	}
	if w.flavor != flavor {
		return mpiErrorf(mpiErrArg, "window flavor %d where other members create flavor %d", flavor, w.flavor)
	}
	w.mem[c.me] = winMem{base: base, size: size, unit: unit}
	if flavor == winFlavorDynamic {
		w.mem[c.me] = winMem{unit: 1}
	}
	return nil
}

func square(n int) [][]int {
	s := make([][]int, n)
	for i := range s {
		s[i] = make([]int, n)
	}
	return s
}

// enterWin checks the window of a fence or a free.
func enterWin(e *mpiEngine, n *node, c *mpiCall, k *mpiColl) error {
	_, _, err := e.win(n, c.w[0])
	return err
}

// startWinColl enters a fence or a free {win, ...}: a barrier of the window's members.
// The last to enter completes every member's pending operations, in issue order (a
// correct program has closed its other epochs before a free), and everyone leaves after
// the barrier plus the longest of the members' completions.
func startWinColl(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	done, err := startColl(e, j, n, c, now)
	if err != nil || !c.coll.done {
		return done, err
	}
	w := e.wins[c.w[0]]
	cost, err := e.completeOps(j, w, func(*rmaOp) bool { return true })
	var most uint64
	for _, ns := range cost {
		most = max(most, ns)
	}
	c.coll.doneAt += most
	if c.num == abi.HcMPIWinFree {
		delete(e.wins, c.w[0])
	}
	return false, err
}

// startWinAttach attaches or detaches {win, base, size, detach} a region of a dynamic
// window.
func startWinAttach(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	w, me, err := e.win(n, c.w[0])
	if err != nil {
		return false, err
	}
	if w.flavor != winFlavorDynamic {
		return false, mpiErrorf(mpiErrRMAFlavor, "window %d is not dynamic (MPI_Win_create_dynamic)", c.w[0])
	}
	m := &w.mem[me]
	base, size := c.w[1], c.w[2]
	if c.w[3] == 0 {
		if int32(size) < 0 {
			return false, mpiErrorf(mpiErrSize, "invalid size %d", int32(size))
		}
		for _, r := range m.regions {
			if base < r[0]+r[1] && r[0] < base+size {
				return false, mpiErrorf(mpiErrRMAAttach, "region 0x%08x+%d overlaps the attached 0x%08x+%d", base, size, r[0], r[1])
			}
		}
		m.regions = append(m.regions, [2]uint32{base, size})
		return true, nil
	}
	for i, r := range m.regions {
		if r[0] == base {
			m.regions = append(m.regions[:i], m.regions[i+1:]...)
			return true, nil
		}
	}
	return false, mpiErrorf(mpiErrRMAAttach, "address 0x%08x is not the base of an attached region", base)
}

// targetRange checks that [addr, addr+size) lies in target t's part of the window.
func (w *mpiWin) targetRange(t int, addr, size uint32) error {
	m := &w.mem[t]
	end := uint64(addr) + uint64(size)
	if w.flavor == winFlavorDynamic {
		// The range may run across adjacent regions (MPICH allows it).
		for pos := uint64(addr); pos < end; {
			next := pos
			for _, r := range m.regions {
				if pos >= uint64(r[0]) && pos < uint64(r[0])+uint64(r[1]) {
					next = uint64(r[0]) + uint64(r[1])
					break
				}
			}
			if next == pos {
				return mpiErrorf(mpiErrRMARange, "0x%08x+%d is in no region rank %d attached to the dynamic window", addr, size, t)
			}
			pos = next
		}
		return nil
	}
	if size == 0 {
		return nil
	}
	if addr < m.base || end > uint64(m.base)+uint64(m.size) {
		return mpiErrorf(mpiErrRMARange, "0x%08x+%d is outside rank %d's window 0x%08x+%d", addr, size, t, m.base, m.size)
	}
	return nil
}

// callError puts the MPI call's name before the message of an error it failed with.
func callError(name string, err error) error {
	if m, ok := err.(*MPIError); ok {
		return &MPIError{Class: m.Class, Msg: name + ": " + m.Msg}
	}
	return err
}
