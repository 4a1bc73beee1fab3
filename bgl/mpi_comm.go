package bgl

import (
	"fmt"
	"slices"
	"sort"
)

// Communicators. A communicator's handle is its context id, the same on every member, so a
// handle means one communicator job-wide: MPI_COMM_WORLD is 1, MPI_COMM_SELF 2 (each rank
// its own, with internal context mpiSelfBase+rank), and the engine numbers the others from
// 3 in the order they are created, which virtual time fixes. Point-to-point messages carry
// their communicator's context and match only receives in it; collectives are counted per
// communicator, so the k-th collective of each member meets the k-th of the others. Ranks
// in arguments and statuses are communicator ranks; the engine keeps world ranks inside.
const (
	mpiCommNull  = 0
	mpiCommSelf  = 2
	mpiFirstComm = 3
	mpiSelfBase  = 1 << 30
	mpiProcNull  = -1
	mpiUndefined = -3
)

// mpiComm is a communicator: its members' world ranks in communicator rank order. An
// intercommunicator (mpi_inter.go) is two of these, one per group, each the other's peer:
// ranks and sizes are the local group's, point-to-point ranks the peer's.
type mpiComm struct {
	id    uint32
	name  string
	world []int // nil: MPI_COMM_WORLD (the identity)
	pos   map[int]int
	size  int
	inter
}

func newComm(id uint32, name string, world []int) *mpiComm {
	c := &mpiComm{id: id, name: name, world: world, size: len(world), pos: make(map[int]int, len(world))}
	for r, w := range world {
		c.pos[w] = r
	}
	return c
}

// rankOf is world rank w's rank in the communicator.
func (c *mpiComm) rankOf(w int) (int, bool) {
	if c.world == nil {
		return w, w >= 0 && w < c.size
	}
	r, ok := c.pos[w]
	return r, ok
}

// worldOf is communicator rank r's world rank.
func (c *mpiComm) worldOf(r int) int {
	if c.world == nil {
		return r
	}
	return c.world[r]
}

func (c *mpiComm) members() []int {
	out := make([]int, c.size)
	for r := range out {
		out[r] = c.worldOf(r)
	}
	return out
}

// comm resolves handle h for the calling rank: the communicator and the rank's place in it.
func (e *mpiEngine) comm(n *node, h uint32) (*mpiComm, int, error) {
	e.initWorld()
	r := &e.ranks[n.rank]
	var c *mpiComm
	switch {
	case h == mpiCommNull:
		return nil, 0, mpiErrorf(mpiErrComm, "invalid communicator MPI_COMM_NULL")
	case h == mpiCommSelf:
		c = e.selfComm(n.rank)
	default:
		c = e.comms[h]
	}
	if c == nil {
		return nil, 0, mpiErrorf(mpiErrComm, "invalid communicator %d (no such communicator)", int32(h))
	}
	me, ok := c.rankOf(n.rank)
	if !ok && c.peer != nil {
		c = c.peer // the intercommunicator as the other group sees it
		me, ok = c.rankOf(n.rank)
	}
	if !ok {
		return nil, 0, mpiErrorf(mpiErrComm, "invalid communicator %d: rank %d is not a member", h, n.rank)
	}
	if r.freed[h] {
		return nil, 0, mpiErrorf(mpiErrComm, "invalid communicator %d: freed by MPI_Comm_free", h)
	}
	return c, me, nil
}

// selfComm is rank's MPI_COMM_SELF, made the first time it is asked for.
func (e *mpiEngine) selfComm(rank int) *mpiComm {
	r := &e.ranks[rank]
	if r.self == nil {
		r.self = &mpiComm{id: mpiSelfBase + uint32(rank), name: "MPI_COMM_SELF", world: []int{rank},
			pos: map[int]int{rank: 0}, size: 1}
	}
	return r.self
}

// initWorld makes MPI_COMM_WORLD the first time a communicator is looked up.
func (e *mpiEngine) initWorld() {
	if e.world == nil {
		e.world = &mpiComm{id: mpiCommWorld, name: "MPI_COMM_WORLD", size: len(e.ranks)}
		e.comms = map[uint32]*mpiComm{mpiCommWorld: e.world}
		e.nextComm = mpiFirstComm
	}
}

// commName names a communicator in messages.
func commName(c *mpiComm) string {
	if c.name != "" {
		return c.name
	}
	if c.peer != nil {
		return fmt.Sprintf("intercommunicator %d", c.id)
	}
	return fmt.Sprintf("communicator %d", c.id)
}

// addComm creates a communicator of the given world ranks (in rank order).
func (e *mpiEngine) addComm(world []int) *mpiComm {
	c := newComm(e.nextComm, "", world)
	e.nextComm++
	e.comms[c.id] = c
	return c
}

// splitComms makes MPI_Comm_split's communicators: parts[r] holds rank r's (color, key);
// ranks of one color form a communicator ordered by (key, parent rank), colors in order of
// their lowest parent rank. It returns each parent rank's new handle (MPI_COMM_NULL for
// MPI_UNDEFINED).
func (e *mpiEngine) splitComms(parent *mpiComm, colors, keys []int32) []uint32 {
	out := make([]uint32, parent.size)
	byColor := map[int32][]int{}
	var order []int32
	for r, col := range colors {
		if col == mpiUndefined {
			continue
		}
		if _, seen := byColor[col]; !seen {
			order = append(order, col)
		}
		byColor[col] = append(byColor[col], r)
	}
	for _, col := range order {
		rs := byColor[col]
		sort.SliceStable(rs, func(a, b int) bool { return keys[rs[a]] < keys[rs[b]] })
		world := make([]int, len(rs))
		for i, r := range rs {
			world[i] = parent.worldOf(r)
		}
		c := e.addComm(world)
		for _, r := range rs {
			out[r] = c.id
		}
	}
	return out
}

// createComms makes MPI_Comm_create's communicators: groups[r] is the group rank r passed
// (world ranks); each distinct group becomes one communicator, created in order of the
// lowest parent rank passing it, and a rank gets it if it is in its group.
func (e *mpiEngine) createComms(parent *mpiComm, groups [][]int) []uint32 {
	out := make([]uint32, parent.size)
	made := map[string]*mpiComm{}
	for r, g := range groups {
		key := fmt.Sprint(g)
		c := made[key]
		if c == nil && len(g) > 0 {
			c = e.addComm(g)
			made[key] = c
		}
		if c != nil && slices.Contains(g, parent.worldOf(r)) {
			out[r] = c.id
		}
	}
	return out
}

// compareComms is MPI_Comm_compare: MPI_IDENT (0) for the same communicator, MPI_CONGRUENT
// (1) for the same ranks in the same order, MPI_SIMILAR (2) in another order, MPI_UNEQUAL
// (3) otherwise.
func compareComms(a, b *mpiComm) uint32 {
	if a == b {
		return 0
	}
	if (a.peer == nil) != (b.peer == nil) {
		return 3
	}
	r := compareMembers(a, b)
	if a.peer != nil {
		r = max(r, compareMembers(a.peer, b.peer)) // both groups must agree
	}
	return r
}

// compareMembers is MPI_CONGRUENT, MPI_SIMILAR or MPI_UNEQUAL for two member lists.
func compareMembers(a, b *mpiComm) uint32 {
	wa, wb := a.members(), b.members()
	if slices.Equal(wa, wb) {
		return 1
	}
	slices.Sort(wa)
	slices.Sort(wb)
	if slices.Equal(wa, wb) {
		return 2
	}
	return 3
}

// checkGroup validates a group's world ranks against the parent communicator.
func checkGroup(parent *mpiComm, g []int) error {
	seen := map[int]bool{}
	for _, w := range g {
		if _, ok := parent.rankOf(w); !ok {
			return mpiErrorf(mpiErrArg, "group member (world rank %d) is not in %s", w, commName(parent))
		}
		if seen[w] {
			return mpiErrorf(mpiErrArg, "group lists world rank %d twice", w)
		}
		seen[w] = true
	}
	return nil
}

// rankDesc names communicator rank r for messages: "rank 3" in MPI_COMM_WORLD, "rank 1
// of communicator 4 (world rank 3)" elsewhere.
func rankDesc(c *mpiComm, r int) string {
	if c.world == nil {
		return fmt.Sprintf("rank %d", r)
	}
	return fmt.Sprintf("rank %d of %s (world rank %d)", r, commName(c), c.worldOf(r))
}
