package runtime

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/dpclsh/dpclsh/contexts"
	"github.com/dpclsh/dpclsh/probes"
)

// Op is a command of the tool protocol, sent from the front-end to the I/O-node daemons.
type Op uint8

// The commands. Patch covers install and remove (it rewrites the trampolines of some
// points), Toggle covers activate and deactivate.
const (
	OpPatch    Op = iota + 1 // write trampolines and patch points (install, remove)
	OpToggle                 // flip one handle's toggle words (activate, deactivate)
	OpExecute                // run a snippet once on each rank (one-shot probe)
	OpRead                   // read memory (the answer carries it)
	OpWrite                  // write memory
	OpStop                   // hold the ranks
	OpContinue               // release the ranks
	OpClock                  // measure every daemon's clock offset by round trips on each link
)

var opNames = map[Op]string{OpPatch: "patch", OpToggle: "toggle", OpExecute: "execute",
	OpRead: "read", OpWrite: "write", OpStop: "stop", OpContinue: "continue", OpClock: "clock"}

func (o Op) String() string {
	if s, ok := opNames[o]; ok {
		return s
	}
	return "op" + strconv.Itoa(int(o))
}

// Command is one request to the daemons serving some ranks (App.command picks them). It
// is a typed value handed to each daemon once, never encoded in-process.
type Command struct {
	Op  Op
	Seq uint64

	// OpPatch: the new state of some points; OpToggle: one handle's toggles.
	Points  []PointPlan
	Handles []HandleRanks
	Handle  uint32
	Active  bool
	Toggles []ToggleWord
	Exec    *ExecutePlan
	Addr    uint32 // OpRead, OpWrite
	Size    uint32 // OpRead
	Data    []byte // OpWrite
}

// PointPlan is the new trampoline of one point. Base 0 restores the original word.
type PointPlan struct {
	Addr, Orig, Patch, Base uint32
	Words                   []uint32
	// Toggles[i] is the toggle of snippet i, which belongs to handle Toggles[i].Handle.
	Toggles []ToggleWord
	// Cover lists the handles whose ranks get the plan when it has no toggles of its own:
	// the redirected loop branches of an entry that is also a loop head.
	Cover []uint32
}

// ToggleWord is a snippet's activation word and the handle the snippet belongs to.
type ToggleWord struct {
	Handle        uint32
	Addr, On, Off uint32
}

// HandleRanks says which ranks a handle covers and whether it is active.
type HandleRanks struct {
	Handle uint32
	Stream uint32        // the tree stream its sends travel on
	Ranks  *contexts.Set // the handle's ranks (its own copy of its context)
	Active bool
}

// ExecutePlan is a one-shot snippet: the daemon builds, per rank, a trampoline for the
// instruction the rank is stopped at (Build), writes it at Base and points the PC there.
type ExecutePlan struct {
	Handle, Stream uint32
	Base, Guard    uint32
	Code           *probes.Code // Exp left out: the daemon needs the words and what they clobber
}

// Answer is what one daemon (or, once reduced, the whole tree) says about a command.
type Answer struct {
	Done   int              // ranks that carried the command out
	Freed  map[uint32][]int // trampoline base -> ranks that freed it, ascending
	Failed map[int]string   // rank -> why
	Data   map[int][]byte   // OpRead: rank -> bytes
	// OpClock: I/O node -> its daemon's clock minus the clock of the process the answer
	// came to, as measured (each hop adds its link's measured offset on the way up).
	Clocks map[int]int64
}

// Merge adds b into a (the reduction of answers, associative and commutative).
func (a *Answer) Merge(b *Answer) {
	a.Done += b.Done
	for base, ranks := range b.Freed {
		if a.Freed == nil {
			a.Freed = map[uint32][]int{}
		}
		a.Freed[base] = mergeRanks(a.Freed[base], ranks)
	}
	for r, why := range b.Failed {
		if a.Failed == nil {
			a.Failed = map[int]string{}
		}
		a.Failed[r] = why
	}
	for r, d := range b.Data {
		if a.Data == nil {
			a.Data = map[int][]byte{}
		}
		a.Data[r] = d
	}
	for io, c := range b.Clocks {
		if a.Clocks == nil {
			a.Clocks = map[int]int64{}
		}
		a.Clocks[io] = c
	}
}

// mergeRanks unions two ascending rank lists.
func mergeRanks(x, y []int) []int {
	out := make([]int, 0, len(x)+len(y))
	for len(x) > 0 || len(y) > 0 {
		switch {
		case len(y) == 0 || len(x) > 0 && x[0] < y[0]:
			out, x = append(out, x[0]), x[1:]
		case len(x) == 0 || y[0] < x[0]:
			out, y = append(out, y[0]), y[1:]
		default:
			out, x, y = append(out, x[0]), x[1:], y[1:]
		}
	}
	return out
}

// FreedCount is the number of (rank, trampoline) frees the answer reports.
func (a *Answer) FreedCount() int {
	n := 0
	for _, r := range a.Freed {
		n += len(r)
	}
	return n
}

// Err summarises the failures, nil when there are none: "2 ranks failed: rank 3: why; ...".
func (a *Answer) Err(op string) error {
	if len(a.Failed) == 0 {
		return nil
	}
	ranks := make([]int, 0, len(a.Failed))
	for r := range a.Failed {
		ranks = append(ranks, r)
	}
	sort.Ints(ranks)
	parts := make([]string, 0, 3)
	for _, r := range ranks[:min(3, len(ranks))] {
		parts = append(parts, fmt.Sprintf("rank %d: %s", r, a.Failed[r]))
	}
	more := ""
	if len(ranks) > 3 {
		more = fmt.Sprintf("; and %d more", len(ranks)-3)
	}
	return errorf("%s: %d of %d ranks failed: %s%s", op, len(ranks), len(ranks)+a.Done,
		strings.Join(parts, "; "), more)
}
