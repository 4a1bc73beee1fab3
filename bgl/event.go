package bgl

import (
	"fmt"

	"github.com/dpclsh/dpclsh/bgl/abi"
	"github.com/dpclsh/dpclsh/ppc"
)

// EventKind says what happened on a compute node.
type EventKind uint8

// Event kinds.
const (
	EventExit        EventKind = iota + 1 // the process ended (Status; Signal when killed)
	EventFault                            // a fault stopped the node (PC, Word, Addr, Signal)
	EventUnsupported                      // a call the CNK does not offer got ENOSYS (Sysno)
	EventBreakpoint                       // the node reached a breakpoint and is held (PC)
	EventNoMemory                         // brk or mmap got ENOMEM: the node's memory is used up (Sysno)
	EventWatch                            // an access to a watched range (PC, Addr, Size, Write, Old, New)
)

var eventNames = map[EventKind]string{EventExit: "exit", EventFault: "fault",
	EventUnsupported: "unsupported", EventBreakpoint: "breakpoint", EventNoMemory: "memory", EventWatch: "watch"}

func (k EventKind) String() string { return eventNames[k] }

// Event is something a compute node reports to the I/O node and the front-end. Events are
// delivered at window ends in (Time, Rank, sequence) order.
type Event struct {
	Kind   EventKind
	Rank   int
	Time   uint64 // virtual ns
	PC     uint32
	Word   uint32 // the instruction word at PC (faults)
	Addr   uint32 // data address (access faults)
	Signal int    // Linux signal (faults, and exits by a signal)
	Status int    // exit status: the program's, or 128+Signal
	Sysno  abi.Sysno
	Note   string
	// Frames is the backtrace of a rank killed by a signal (faults included), innermost
	// first, named by the job's Symbolizer: filled in as the event is delivered.
	Frames []ppc.Frame
	// Size, Write, Old and New describe an EventWatch: the watch at Addr (Size bytes),
	// whether the access was a store, and the watched value before and after it.
	Size     uint32
	Write    bool
	Old, New uint64
}

// signalNames follow qemu's "uncaught target signal" wording.
var signalNames = map[int]string{4: "Illegal instruction", 5: "Trace/breakpoint trap",
	6: "Aborted", 7: "Bus error", 8: "Floating point exception", 9: "Killed",
	11: "Segmentation fault", 15: "Terminated"}

// SignalName returns the description qemu and strsignal give a signal.
func SignalName(sig int) string {
	if s, ok := signalNames[sig]; ok {
		return s
	}
	return fmt.Sprintf("Signal %d", sig)
}

func (e Event) String() string {
	switch e.Kind {
	case EventExit:
		if e.Signal != 0 {
			return withWhere(fmt.Sprintf("rank %d: killed by signal %d (%s) at pc 0x%08x", e.Rank, e.Signal, SignalName(e.Signal), e.PC), e.Where())
		}
		return fmt.Sprintf("rank %d: exited with status %d", e.Rank, e.Status)
	case EventFault:
		return withWhere(fmt.Sprintf("rank %d: signal %d (%s) at pc 0x%08x (word 0x%08x, address 0x%08x)",
			e.Rank, e.Signal, SignalName(e.Signal), e.PC, e.Word, e.Addr), e.Where())
	case EventUnsupported:
		return fmt.Sprintf("rank %d: unsupported system call %d at pc 0x%08x: %s", e.Rank, uint32(e.Sysno), e.PC, e.Note)
	case EventNoMemory:
		return fmt.Sprintf("rank %d: out of memory at pc 0x%08x: %s", e.Rank, e.PC, e.Note)
	case EventBreakpoint:
		return fmt.Sprintf("rank %d: breakpoint at pc 0x%08x", e.Rank, e.PC)
	case EventWatch:
		what := map[bool]string{true: "write", false: "read"}[e.Write]
		return withWhere(fmt.Sprintf("rank %d: %s of watched 0x%08x (%d bytes) at pc 0x%08x: %d -> %d",
			e.Rank, what, e.Addr, e.Size, e.PC, e.Old, e.New), e.Note)
	}
	return fmt.Sprintf("rank %d: event %d", e.Rank, e.Kind)
}
