package bgl

import (
	"github.com/dpclsh/dpclsh/bgl/abi"
)

// Passive target (Lock/Unlock, Lock_all/Unlock_all, Flush*) and general active target
// (Post/Start/Complete/Wait/Test) synchronisation. A lock is taken when Win_lock is
// called (MPI lets the call block until it is granted): exclusive against any other,
// shared against exclusive ones; a waiting origin is looked at again whenever a lock of
// the window is released, in the order the engine serves calls, which virtual time fixes.
// Unlock and Flush complete the origin's operations to the target; Complete those to its
// Start group, once each target has posted; Wait returns once every origin of the Post
// group has completed. The call that completes operations, or that waited for another
// rank, pays a torus round trip (mpi_win_ops.go's completeOps).

// MPI_MODE_NOCHECK and the lock types (mpi.h, MPICH's values).
const (
	mpiModeNocheck   = 1024
	mpiLockExclusive = 234
	mpiLockShared    = 235
)

// winLock is a target's lock: how many hold it and whether the holder is exclusive.
type winLock struct {
	holders int
	excl    bool
}

func (l *winLock) compatible(excl bool) bool {
	return l.holders == 0 || !excl && !l.excl
}

var winSyncNames = [...]string{abi.WinLock: "MPI_Win_lock", abi.WinUnlock: "MPI_Win_unlock",
	abi.WinLockAll: "MPI_Win_lock_all", abi.WinUnlockAll: "MPI_Win_unlock_all", abi.WinFlush: "MPI_Win_flush",
	abi.WinFlushAll: "MPI_Win_flush_all", abi.WinFlushLocal: "MPI_Win_flush_local",
	abi.WinFlushLocalAll: "MPI_Win_flush_local_all", abi.WinSyncMem: "MPI_Win_sync", abi.WinPost: "MPI_Win_post",
	abi.WinStart: "MPI_Win_start", abi.WinComplete: "MPI_Win_complete", abi.WinWait: "MPI_Win_wait",
	abi.WinTest: "MPI_Win_test"}

func init() {
	// The call's own name (MPI_Win_lock, MPI_Win_complete...) is in every message about it.
	mpiOps[abi.HcMPIWinSync] = mpiOpSpec{"MPI_Win synchronisation", pollWinSync, pollWinSync}
}

// winSyncArgs is the block {kind, win, rank, lock type, assert, group size, group, flag}.
type winSyncArgs struct {
	kind   uint32
	name   string
	w      *mpiWin
	me     int
	rank   int
	assert uint32
}

// pollWinSync runs the synchronisation call, or looks again whether a blocked one can
// finish.
func pollWinSync(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	kind := c.w[0]
	if int(kind) >= len(winSyncNames) {
		return false, mpiErrorf(mpiErrArg, "invalid window synchronisation %d", kind)
	}
	w, me, err := e.win(n, c.w[1])
	if err != nil {
		return false, err
	}
	a := winSyncArgs{kind: kind, name: winSyncNames[kind], w: w, me: me, rank: int(int32(c.w[2])), assert: c.w[4]}
	done, err := e.winSync(j, n, c, a)
	if err != nil {
		return false, callError(a.name, err)
	}
	if !done {
		w.sleep(n.rank)
	}
	return done, nil
}

func (e *mpiEngine) winSync(j *Job, n *node, c *mpiCall, a winSyncArgs) (bool, error) {
	w, me, ep := a.w, a.me, &a.w.epoch[a.me]
	switch a.kind {
	case abi.WinLock:
		return e.winLock(n, c, a)
	case abi.WinLockAll:
		if ep.lockAll {
			return false, mpiErrorf(mpiErrRMASync, "rank %d already holds a lock on all", me)
		}
		if a.assert&mpiModeNocheck == 0 {
			for t := range w.locks {
				if !w.locks[t].compatible(false) {
					return false, nil
				}
			}
			for t := range w.locks {
				w.locks[t].holders++
			}
		}
		ep.lockAll, ep.lockAllNocheck = true, a.assert&mpiModeNocheck != 0
		return true, nil
	case abi.WinUnlock:
		if a.rank == mpiProcNull {
			return true, nil
		}
		if err := w.checkRank(a.rank); err != nil {
			return false, err
		}
		excl, ok := ep.locked[a.rank]
		if !ok {
			return false, mpiErrorf(mpiErrRMASync, "rank %d holds no lock on rank %d", me, a.rank)
		}
		err := e.complete(j, c, w, func(o *rmaOp) bool { return o.origin == me && o.target == a.rank })
		delete(ep.locked, a.rank)
		if excl != nil {
			w.release(a.rank)
			e.wakeSleepers(j, w)
		}
		return true, err
	case abi.WinUnlockAll:
		if !ep.lockAll {
			return false, mpiErrorf(mpiErrRMASync, "rank %d holds no lock on all (MPI_Win_lock_all)", me)
		}
		err := e.complete(j, c, w, func(o *rmaOp) bool { return o.origin == me })
		ep.lockAll = false
		if !ep.lockAllNocheck {
			for t := range w.locks {
				w.release(t)
			}
			e.wakeSleepers(j, w)
		}
		return true, err
	case abi.WinFlush, abi.WinFlushLocal:
		if a.rank == mpiProcNull {
			return true, nil
		}
		if err := w.checkRank(a.rank); err != nil {
			return false, err
		}
		return true, e.complete(j, c, w, func(o *rmaOp) bool { return o.origin == me && o.target == a.rank })
	case abi.WinFlushAll, abi.WinFlushLocalAll:
		return true, e.complete(j, c, w, func(o *rmaOp) bool { return o.origin == me })
	case abi.WinSyncMem:
		return true, nil
	}
	return e.winActive(j, n, c, a)
}

// winLock takes {lock type, rank} for the origin, or leaves it waiting.
func (e *mpiEngine) winLock(n *node, c *mpiCall, a winSyncArgs) (bool, error) {
	w, ep := a.w, &a.w.epoch[a.me]
	if a.rank == mpiProcNull {
		return true, nil
	}
	if err := w.checkRank(a.rank); err != nil {
		return false, err
	}
	lt := c.w[3]
	if lt != mpiLockExclusive && lt != mpiLockShared {
		return false, mpiErrorf(mpiErrLocktype, "invalid lock type %d (MPI_LOCK_EXCLUSIVE or MPI_LOCK_SHARED)", int32(lt))
	}
	if _, held := ep.locked[a.rank]; held {
		return false, mpiErrorf(mpiErrRMASync, "rank %d already holds a lock on rank %d", a.me, a.rank)
	}
	if ep.locked == nil {
		ep.locked = map[int]*bool{}
	}
	excl := lt == mpiLockExclusive
	if a.assert&mpiModeNocheck != 0 {
		ep.locked[a.rank] = nil
		return true, nil
	}
	l := &w.locks[a.rank]
	if !l.compatible(excl) {
		return false, nil
	}
	l.holders++
	l.excl = excl
	ep.locked[a.rank] = &excl
	return true, nil
}

func (w *mpiWin) checkRank(r int) error {
	if r < 0 || r >= w.comm.size {
		return mpiErrorf(mpiErrRank, "invalid rank %d (window of %d ranks)", r, w.comm.size)
	}
	return nil
}

func (w *mpiWin) release(t int) {
	l := &w.locks[t]
	l.holders--
	if l.holders <= 0 {
		*l = winLock{}
	}
}

// sleep records that a rank waits in a synchronisation call on the window.
func (w *mpiWin) sleep(rank int) {
	for _, r := range w.sleepers {
		if r == rank {
			return
		}
	}
	w.sleepers = append(w.sleepers, rank)
}

// wakeSleepers makes every rank waiting on the window look at its call again, in the
// order they began to wait.
func (e *mpiEngine) wakeSleepers(j *Job, w *mpiWin) {
	s := w.sleepers
	w.sleepers = nil
	for _, r := range s {
		e.wakeAt(j, r, j.now)
	}
}

// complete carries out the selected operations; the call pays for them.
func (e *mpiEngine) complete(j *Job, c *mpiCall, w *mpiWin, want func(o *rmaOp) bool) error {
	cost, err := e.completeOps(j, w, want)
	for _, ns := range cost {
		c.extraNS = max(c.extraNS, ns)
	}
	return err
}

// winActive is Post, Start, Complete, Wait and Test.
func (e *mpiEngine) winActive(j *Job, n *node, c *mpiCall, a winSyncArgs) (bool, error) {
	w, me, ep := a.w, a.me, &a.w.epoch[a.me]
	switch a.kind {
	case abi.WinPost, abi.WinStart:
		g, err := e.winGroup(n, w, c)
		if err != nil {
			return false, err
		}
		if a.kind == abi.WinStart {
			ep.started, ep.startNocheck = g, a.assert&mpiModeNocheck != 0
			return true, nil
		}
		for _, o := range g {
			w.posts[me][o]++
		}
		ep.posted = g
		e.wakeSleepers(j, w)
		return true, nil
	case abi.WinComplete:
		if ep.started == nil {
			return false, mpiErrorf(mpiErrRMASync, "rank %d has no access epoch (MPI_Win_start)", me)
		}
		if !ep.startNocheck {
			for _, t := range ep.started {
				if w.posts[t][me] == 0 {
					return false, nil
				}
			}
			for _, t := range ep.started {
				w.posts[t][me]--
			}
		}
		in := map[int]bool{}
		for _, t := range ep.started {
			in[t] = true
			w.done[t][me]++
		}
		err := e.complete(j, c, w, func(o *rmaOp) bool { return o.origin == me && in[o.target] })
		c.extraNS = max(c.extraNS, 2*max(TorusLatencyNS, j.window))
		ep.started = nil
		e.wakeSleepers(j, w)
		return true, err
	}
	// Wait and Test.
	if ep.posted == nil {
		return false, mpiErrorf(mpiErrRMASync, "rank %d has no exposure epoch (MPI_Win_post)", me)
	}
	ready := true
	for _, o := range ep.posted {
		ready = ready && w.done[me][o] > 0
	}
	if a.kind == abi.WinTest {
		if err := writeWords(n, c.w[7], uint32(bool64(ready))); err != nil || !ready {
			return true, err
		}
	} else if !ready {
		return false, nil
	}
	for _, o := range ep.posted {
		w.done[me][o]--
	}
	ep.posted = nil
	return true, nil
}

// winGroup reads the call's group (world ranks) as ranks of the window's communicator.
func (e *mpiEngine) winGroup(n *node, w *mpiWin, c *mpiCall) ([]int, error) {
	size := int32(c.w[5])
	if size < 0 || int(size) > w.comm.size {
		return nil, mpiErrorf(mpiErrGroup, "invalid group of %d members for a window of %d ranks", size, w.comm.size)
	}
	ws, err := readInts(n, c.w[6], int(size), "group")
	if err != nil {
		return nil, err
	}
	g := make([]int, 0, size)
	for _, x := range ws {
		r, ok := w.comm.rankOf(int(x))
		if !ok {
			return nil, mpiErrorf(mpiErrGroup, "world rank %d of the group is not in the window", x)
		}
		g = append(g, r)
	}
	return g, nil
}
