package runtime

import (
	"encoding/binary"
	"maps"
)

// A daemon's record of what it placed on each rank (which trampoline each point has, and
// whose snippets each trampoline holds) is a layout, shared by the ranks that hold the
// same one: ranks patched alike from the same layout get the same new one, made once per
// command. A probe install puts a trampoline at every entry and exit of every MPI
// function, 780 points on hello_mpi since libmpi has 390 of them, and one pair of maps
// per rank was the largest part of a profiled job's live heap (89 KiB a rank of 213 at
// 2,048 ranks: 5.5 GiB at 65,536 ranks, twice that in the process under the collector's
// default); shared, a rank holds one pointer. A layout is never changed once made; a rank that changes its own
// (a one-shot snippet) gets a new one, also shared by the ranks that change theirs alike.

// layout is a rank's placed trampolines. The nil layout is the empty one.
type layout struct {
	placed map[uint32]span     // point -> its trampoline
	code   map[uint32]codeSpan // trampoline base -> the handles with code there
}

// at returns the trampoline placed at point, if any.
func (l *layout) at(point uint32) (span, bool) {
	if l == nil {
		return span{}, false
	}
	s, ok := l.placed[point]
	return s, ok
}

func (l *layout) clone() *layout {
	if l == nil {
		return &layout{placed: map[uint32]span{}, code: map[uint32]codeSpan{}}
	}
	return &layout{placed: maps.Clone(l.placed), code: maps.Clone(l.code)}
}

// layoutSteps are the changes one command makes to a rank's layout, in order, and their
// name: ranks whose layout and changes are the same get the same result.
type layoutSteps struct {
	key   []byte
	steps []layoutStep
}

// layoutStep places trampoline s with the snippets of handles at point, or, when s is
// empty, removes the point's trampoline (the trampoline's owners are kept: a packet its
// snippet sent may still be on its way, see collect).
type layoutStep struct {
	point   uint32
	s       span
	handles []uint32
}

// latest is what point has after the steps so far, given what it had before them
// (prev, had): needed only when a command names a point twice.
func (w *layoutSteps) latest(point uint32, prev span, had bool) (span, bool) {
	for i := len(w.steps) - 1; i >= 0; i-- {
		if st := w.steps[i]; st.point == point {
			return st.s, st.s.size != 0
		}
	}
	return prev, had
}

func (w *layoutSteps) reset() { w.key, w.steps = w.key[:0], w.steps[:0] }

// place records a trampoline at point; what it holds is named by id, which the command
// gives to one plan's bytes and so to one set of handles.
func (w *layoutSteps) place(point uint32, s span, id uint32, handles []uint32) {
	w.key = binary.LittleEndian.AppendUint32(append(w.key, 'p'), point)
	w.key = binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(w.key, s.base), s.size)
	w.key = binary.LittleEndian.AppendUint32(w.key, id)
	w.steps = append(w.steps, layoutStep{point, s, handles})
}

func (w *layoutSteps) remove(point uint32) {
	w.key = binary.LittleEndian.AppendUint32(append(w.key, 'r'), point)
	w.steps = append(w.steps, layoutStep{point: point})
}

// own records a trampoline s holding the snippets of handles, placed at no point (a
// one-shot snippet's).
func (w *layoutSteps) own(s span, handles ...uint32) {
	w.key = binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(append(w.key, 'o'), s.base), s.size)
	for _, h := range handles {
		w.key = binary.LittleEndian.AppendUint32(w.key, h)
	}
	w.steps = append(w.steps, layoutStep{point: noPoint, s: s, handles: handles})
}

// noPoint marks a step that places code at no point.
const noPoint = ^uint32(0)

func (l *layout) apply(steps []layoutStep) {
	for _, st := range steps {
		switch {
		case st.point == noPoint:
			l.code[st.s.base] = codeSpan{st.s, st.handles}
		case st.s.size == 0:
			delete(l.placed, st.point)
		default:
			l.placed[st.point] = st.s
			l.code[st.s.base] = codeSpan{st.s, st.handles}
		}
	}
}

// advance gives rank the layout its own with w's changes, made once per command for all
// the ranks starting from the same layout with the same changes.
func (d *Daemon) advance(rank int, w *layoutSteps) {
	if len(w.steps) == 0 {
		return
	}
	from := d.layouts[rank]
	if d.nextLayout == nil { // a one-shot snippet run outside a command (a pending one)
		d.nextLayout = map[*layout]map[string]*layout{}
	}
	if l := d.nextLayout[from][string(w.key)]; l != nil {
		d.layouts[rank] = l
		return
	}
	l := from.clone()
	l.apply(w.steps)
	next := d.nextLayout[from]
	if next == nil {
		next = map[string]*layout{}
		d.nextLayout[from] = next
	}
	next[string(w.key)] = l
	d.layouts[rank] = l
}
