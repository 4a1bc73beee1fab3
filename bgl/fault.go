package bgl

import (
	"fmt"

	"github.com/dpclsh/dpclsh/ppc"
)

// debugFrames bounds a backtrace asked for through the debug interface.
const debugFrames = 64

// SetSymbolizer sets what names code addresses in the backtraces of fault events
// (Event.Frames); the default is the executable's image (its symbols and DWARF lines).
// A tool that places code of its own in the nodes (modules, trampolines) gives one that
// knows that code too. It is called on the driving goroutine as events are delivered.
func (j *Job) SetSymbolizer(s ppc.Symbolizer) { j.sym = s }

// Symbolizer is what names code addresses in fault reports now.
func (j *Job) Symbolizer() ppc.Symbolizer {
	if j.sym == nil {
		return j.img
	}
	return j.sym
}

// backtrace walks the stopped node's stack from its registers, as they were when it
// faulted or was killed (an ended node never runs again).
func (j *Job) backtrace(n *node, limit int) []ppc.Frame {
	c := n.cpu
	read := func(addr uint32) (uint32, bool) {
		w, err := c.Mem.Read32(addr)
		return w, err == nil
	}
	return ppc.Backtrace(ppc.WalkStart{PC: c.PC, LR: c.LR, SP: c.GPR[1], GPR: c.GPR}, read, j.Symbolizer(), limit)
}

// Where is the symbolised location of a fault: "in F (file:line); called from ...", or
// "" when nothing is known of its code.
func (e Event) Where() string { return ppc.DescribeFrames(e.Frames) }

// FaultReport is the line that names a rank killed by a signal, as Run prints it after
// "dpclsh: ": "rank R: uncaught signal S (NAME) at pc 0xPC in F (file:line); called from
// F1 (file:line) <- F2+0xOFF ...".
func (e Event) FaultReport() string {
	s := fmt.Sprintf("rank %d: uncaught signal %d (%s) at pc 0x%08x", e.Rank, e.Signal, SignalName(e.Signal), e.PC)
	return withWhere(s, e.Where())
}

func withWhere(s, where string) string {
	switch {
	case where == "":
		return s
	case where[0] == 'c': // "called from ...": nothing is known of the pc itself
		return s + "; " + where
	}
	return s + " " + where
}

// Backtrace walks a node's stack from its registers now (between Run calls), at most
// 64 frames, naming them with the job's Symbolizer (ppc.Backtrace says how).
func (d *Debug) Backtrace(rank int) ([]ppc.Frame, error) {
	n, err := d.node("backtrace", rank)
	if err != nil {
		return nil, err
	}
	return d.j.backtrace(n, debugFrames), nil
}
