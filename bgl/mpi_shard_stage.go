package bgl

import (
	"fmt"
	"slices"
)

// MPI_Comm_create_group across shards. Its hidden communicator (startGroupStage) is
// numbered when its first member asks, outside any collective, so in one process its
// number falls between those of the communicators completed before and after that call.
// Across shards no process can number it at the call: a constructor completing earlier in
// the same round on another process may not be known yet. So a member whose stage is not
// known yet stays blocked in the call, which goes to every process as a record keyed by
// its delivery (recMPIStage); at the round's end every process makes the stages and
// completes the collectives of the round in the order of their keys, which is one
// process's order, and numbers them alike. The members that asked are woken at the time
// of their call and the round runs again to deliver those wakes, so each call returns at
// one process's time, in the same window. A member asking once its stage is known (made
// in an earlier round) gets it at once, as in one process.

// recMPIStage asks for a stage: key, the parent's handle, the tag, then the members.
const recMPIStage = 'G'

// stageAsk is a member's call for a stage not yet known, from this process or another.
type stageAsk struct {
	key     msgKey
	parent  uint32
	tag     int32
	members []int
}

// stageName is e.stages' key for a stage: one per (parent, members, tag).
func stageName(parent uint32, g []int, tag int32) string {
	return fmt.Sprint(parent, g, tag)
}

// askStage blocks call c of rank at virtual time now until the round's end numbers the
// stage of parent's members g with tag, telling every process of the call.
func (sh *shardRun) askStage(c *mpiCall, rank int, now uint64, parent uint32, g []int, tag int32) {
	m := &sh.mpiState
	a := stageAsk{key: sh.next(), parent: parent, tag: tag, members: g}
	m.stageAsks = append(m.stageAsks, a)
	m.stageWaits = append(m.stageWaits, stageWait{call: c, rank: rank, at: now, name: stageName(parent, g, tag)})
	b := appendKey([]byte{recMPIStage}, a.key)
	b = be.AppendUint32(be.AppendUint32(b, parent), uint32(tag))
	for _, w := range g {
		b = be.AppendUint32(b, uint32(w))
	}
	for p := range sh.ex.Size() {
		if p != sh.ex.Rank() {
			sh.send(p, b)
		}
	}
}

// stageWait is a member of this process blocked for its stage.
type stageWait struct {
	call *mpiCall
	rank int
	at   uint64 // the call's time, when it returns
	name string
}

// applyStage takes another process's stage call.
func (e *mpiEngine) applyStage(key msgKey, b []byte) error {
	if len(b) < 8 || len(b)%4 != 0 {
		return fmt.Errorf("a stage call of %d bytes, not a parent, a tag and members", len(b))
	}
	a := stageAsk{key: key, parent: be.Uint32(b), tag: int32(be.Uint32(b[4:]))}
	for i := 8; i < len(b); i += 4 {
		w := int(be.Uint32(b[i:]))
		if w < 0 || w >= len(e.ranks) {
			return fmt.Errorf("a stage of parent %d with member %d, outside the job's %d ranks", a.parent, w, len(e.ranks))
		}
		a.members = append(a.members, w)
	}
	e.sh.mpiState.stageAsks = append(e.sh.mpiState.stageAsks, a)
	return nil
}

// makeStage numbers stage a unless an earlier call of the round made it.
func (e *mpiEngine) makeStage(a stageAsk) {
	name := stageName(a.parent, a.members, a.tag)
	if _, ok := e.stages[name]; ok {
		return
	}
	if e.stages == nil {
		e.stages = map[string]uint32{}
	}
	e.stages[name] = e.addComm(a.members).id
}

// wakeStageWaits wakes this process's members whose stage is now known at the time of
// their call, and reports whether any process asked this round: then every process runs
// the round again, to deliver those wakes in it.
func (e *mpiEngine) wakeStageWaits(j *Job) (again bool) {
	m := &e.sh.mpiState
	again = len(m.stageAsks) > 0
	m.stageAsks = m.stageAsks[:0]
	waits := m.stageWaits
	m.stageWaits = nil
	for _, w := range waits {
		if _, ok := e.stages[w.name]; !ok {
			m.stageWaits = append(m.stageWaits, w) // cannot happen: every ask is made
			continue
		}
		m.stageReady[w.call] = w.name
		e.wakeAt(j, w.rank, w.at)
	}
	return again
}

// pollGroupStage finishes a member's MPI_Comm_create_group stage once the round made it.
func pollGroupStage(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	if e.sh == nil {
		return true, nil
	}
	name, ok := e.sh.mpiState.stageReady[c]
	if !ok {
		return false, nil
	}
	delete(e.sh.mpiState.stageReady, c)
	return true, writeWords(n, c.w[4], e.stages[name])
}

// completion is one thing a round's end completes: a collective (at its last entry) or
// a stage call.
type completion struct {
	key   msgKey
	coll  *mpiColl
	stage *stageAsk
}

// completionOrder merges the round's stage calls with its collectives to complete, in
// the order of their keys.
func (m *mpiShard) completionOrder(done []*mpiColl) []completion {
	out := make([]completion, 0, len(done)+len(m.stageAsks))
	for _, k := range done {
		out = append(out, completion{key: m.lastKey[k], coll: k})
	}
	for i := range m.stageAsks {
		out = append(out, completion{key: m.stageAsks[i].key, stage: &m.stageAsks[i]})
	}
	slices.SortStableFunc(out, func(a, b completion) int { return compareKeys(a.key, b.key) })
	return out
}
