package runtime

import (
	"maps"
	"slices"

	"github.com/dpclsh/dpclsh/probes"
)

// Whether a probe's point ever ran. Each trampoline a daemon writes carries an entry
// mark at its first word (bgl.Debug.MarkEntry): the node records that the word began to
// run without stopping and without a cycle charged, so counting costs the job nothing
// and changes no result. A daemon reads a mark when it replaces or removes the
// trampoline and keeps the answer per point; the rest are read at the job's end.

// harvest reads the mark of the trampoline at base that rank has at point, keeps whether
// it ran and disarms it: the memory may later hold another trampoline.
func (d *Daemon) harvest(m Machine, rank int, point, base uint32) error {
	if !d.ran[point] {
		reached, err := m.EntryReached(rank, base)
		if err != nil {
			return err
		}
		if reached {
			d.ran[point] = true
		}
	}
	return m.ClearEntryMark(rank, base)
}

// Ran adds to ran every point whose trampoline began to run on one of the daemon's
// ranks: those it learnt of before and those whose current trampoline's mark is reached.
func (d *Daemon) Ran(ran map[uint32]bool) error {
	for p, reached := range d.ran {
		ran[p] = ran[p] || reached
	}
	for _, rank := range slices.Sorted(maps.Keys(d.layouts)) {
		for p, s := range d.layouts[rank].placed {
			if ran[p] {
				continue
			}
			reached, err := d.m.EntryReached(rank, s.base)
			if err != nil {
				return err
			}
			ran[p] = reached
		}
	}
	return nil
}

// NeverRan is an installed probe's point that no rank ever reached.
type NeverRan struct {
	Handle *Handle
	Point  probes.Point
}

// NeverRan lists, by probe and then in the order of each probe's points, the points of
// the installed probes none of whose points any rank reached while a probe was there.
// Asked when the job has ended, it names the probes whose data stayed empty because
// their code never ran (a function the compiler inlined, a branch the run never took).
// A probe some of whose points ran is left out: an exit the run never took or an
// unrolled copy of a line that never ran is how programs are, not a mistake.
func (a *App) NeverRan() ([]NeverRan, error) {
	ran := map[uint32]bool{}
	for _, d := range a.tree.daemons {
		if d == nil {
			continue
		}
		ask := d.Ran
		if a.sharded != nil {
			ask = func(ran map[uint32]bool) error { return a.sharded.ran(d, ran) }
		}
		if err := ask(ran); err != nil {
			return nil, errorf("which points ran: daemon %d: %w", d.IONode, err)
		}
	}
	var out []NeverRan
	for _, h := range a.handles {
		if h.oneShot || (h.state != "installed" && h.state != "active") {
			continue
		}
		var never []NeverRan
		for _, p := range h.points {
			if ps := a.points[p.Addr]; ps != nil && slices.Contains(ps.handles, h) && !ran[p.Addr] {
				never = append(never, NeverRan{h, p})
			}
		}
		if len(never) == len(h.points) {
			out = append(out, never...)
		}
	}
	return out, nil
}
