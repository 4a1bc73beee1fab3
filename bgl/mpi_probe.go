package bgl

import (
	"weak"

	"github.com/dpclsh/dpclsh/bgl/abi"
)

func init() {
	hypercalls[abi.HcCommInfo] = func(n *node, j *Job, a Args) Result {
		return ok(uint32(int32(probeCommInfo(j, n.rank, a[0], a[1]))))
	}
}

// probeCommInfo answers abi.HcCommInfo for world rank rank: the size of communicator h's
// group as the rank sees it, the size of an intercommunicator's other group (0 for an
// intracommunicator) or the rank's place in h; 0 (a size) or -1 (the rank) for a handle
// the rank cannot use or an unknown question. A probe asks it inside a window, while other nodes
// run, so it only reads: it neither creates the engine nor MPI_COMM_WORLD (engineOf and
// comm would), and the engine's maps change only between windows. Nothing the program
// sees changes: no virtual time is charged beyond the sc instruction, no MPI state moves.
func probeCommInfo(j *Job, rank int, h, what uint32) int {
	none := 0
	if what == abi.CommRank {
		none = -1
	}
	var c *mpiComm
	switch h {
	case mpiCommNull:
		return none
	case mpiCommWorld:
		c = &mpiComm{size: j.part.Tasks()} // as MPI_Comm_size (libmpi asks dpcl_size)
	case mpiCommSelf:
		c = &mpiComm{world: []int{rank}, pos: map[int]int{rank: 0}, size: 1}
	default:
		v, ok := mpiEngines.Load(weak.Make(j))
		if !ok {
			return none // no MPI call yet: only the predefined communicators exist
		}
		e := v.(*mpiEngine)
		if c = e.comms[h]; c == nil || rank >= len(e.ranks) || e.ranks[rank].freed[h] {
			return none
		}
	}
	if !c.isMember(rank) { // the intercommunicator as the other group sees it
		if c.peer == nil || !c.peer.isMember(rank) {
			return none
		}
		c = c.peer
	}
	switch what {
	case abi.CommSize:
		return c.size
	case abi.CommRemoteSize:
		if c.peer != nil {
			return c.peer.size
		}
	case abi.CommRank:
		r, _ := c.rankOf(rank)
		return r
	}
	return none
}

// isMember reports whether world rank w belongs to the communicator's group.
func (c *mpiComm) isMember(w int) bool {
	_, in := c.rankOf(w)
	return in
}
