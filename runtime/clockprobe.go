package runtime

import "github.com/dpclsh/dpclsh/netreduce"

// clockStamp names one reading of MRNet's clock-skew probe (seed 004, section 3): the
// command of sequence seq on the link from -> to, read by the sender as it leaves
// (sent) or by the receiver as it takes it (after waiting behind what the receiver was
// busy with, as a socket read would).
type clockStamp struct {
	seq      uint64
	from, to int32
	sent     bool
}

// stamp records an OpClock message's reading of process rank's own clock at tree time
// at (a tool process's clock runs on while the job stands still).
func (t *toolTree) stamp(m *netreduce.Msg, sent bool, rank int, at int64) {
	cm, ok := m.Body.(*cmdMsg)
	if !ok || cm.cmd.Op != OpClock || m.From < 0 || t.topo.IsBackend(rank) {
		return
	}
	t.stamps[clockStamp{m.Seq, m.From, m.To, sent}] = at + t.proc(rank).offset
}

// linkOffset is child's clock minus parent's as the probe of command seq measured it on
// their link, from four readings: t1 the parent's as the probe left, t2 the child's as
// it was taken, t3 the child's as its answer left, t4 the parent's as the answer was
// taken.
// The child's time in between cancels; what the two directions' delays differ by (a
// queue on one way, not the other) is the error, half of it.
func (t *toolTree) linkOffset(seq uint64, child, parent int) int64 {
	c, p := int32(child), int32(parent)
	t1, t2 := t.stamps[clockStamp{seq, p, c, true}], t.stamps[clockStamp{seq, p, c, false}]
	t3, t4 := t.stamps[clockStamp{seq, c, p, true}], t.stamps[clockStamp{seq, c, p, false}]
	for _, k := range []clockStamp{{seq, p, c, true}, {seq, p, c, false}, {seq, c, p, true}, {seq, c, p, false}} {
		delete(t.stamps, k)
	}
	return ((t2 - t1) + (t3 - t4)) / 2
}

// shiftClocks re-expresses a child's measured offsets against its parent: the daemon's
// clock minus the parent's is the daemon's minus the child's plus the child's minus the
// parent's.
func (a *Answer) shiftClocks(childMinusParent int64) {
	for io := range a.Clocks {
		a.Clocks[io] += childMinusParent
	}
}

// MeasureClocks runs MRNet's clock-skew detection through the tool's tree: a probe goes
// down every link and its answer back, each process reading its own clock as they leave
// and arrive; each parent derives its child's offset from the round trip and adds it to
// what came from below, so the front-end ends with every daemon's clock minus its own.
// Nothing here reads the true offsets (app:tree() shows those, to compare).
func (a *App) MeasureClocks() (map[int]int64, error) {
	all := make([]int, a.Size())
	for r := range all {
		all[r] = r
	}
	ans, err := a.command(&Command{Op: OpClock}, all)
	if err != nil {
		return nil, err
	}
	return ans.Clocks, nil
}
