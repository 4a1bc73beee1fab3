package bgl

import (
	"github.com/dpclsh/dpclsh/bgl/abi"
	"github.com/dpclsh/dpclsh/ppc"
)

// Args are the six argument registers r3..r8 of a system call.
type Args [6]uint32

// Result is what a system call handler decides. The node applies it: r3 (and r4 when
// Wide) on success, errno in r3 with CR0[SO] set on failure; Ship blocks the node until the
// I/O node replies; Exit ends the process.
type Result struct {
	R3, R4 uint32
	Wide   bool
	Err    abi.Errno
	Ship   *shipReq
	Exit   bool
	Status int    // exit status, or 128+signal when Signal != 0
	Signal int    // the process ends by this signal (tgkill on itself, abort)
	Sleep  uint64 // virtual ns the call takes (nanosleep)
}

// Support says how completely the CNK implements a call.
type Support uint8

const (
	Full    Support = iota + 1 // as Linux does it
	Partial                    // the part static programs use; see the note
	Shipped                    // function-shipped to the I/O node (CIOD)
	Refused                    // deliberately ENOSYS (CNK runs one process per node)
)

var supportNames = map[Support]string{Full: "full", Partial: "partial", Shipped: "shipped", Refused: "refused"}

func (s Support) String() string { return supportNames[s] }

// Handler implements one system call for the calling process.
type Handler func(p *Proc, a Args) Result

// Syscall is one entry of the CNK's table (gVisor style: it reads like a compatibility
// document).
type Syscall struct {
	Num     abi.Sysno
	Fn      Handler
	Support Support
	Note    string
}

// Proc is the CNK's state of the one process on a compute node. Handlers touch only their
// own Proc, so nodes run in parallel without locks.
type Proc struct {
	Rank, Size, IONode int
	Pid                int
	Exe                string // path the program was started as (readlink /proc/self/exe)
	Mem                *ppc.Memory

	// Cycles returns the node's virtual clock in 700 MHz cycles.
	Cycles func() uint64
	Epoch  int64 // seconds CLOCK_REALTIME adds to virtual time

	brk, brkStart uint32
	layout        addrLayout
	maps          []mapping // anonymous mmaps, sorted by address
	rng           uint64    // splitmix64 state for getrandom
	memLimit      uint64    // the node's memory in bytes (0: DefaultMemoryMB)
	pool          *hostPool // the job's budget beyond each node's free share (nil: none)
	memRefused    bool      // an ENOMEM event was already reported
	mpiHeld       uint64    // bytes the MPI engine holds for the process (mpi_mem.go)

	events  []Event   // produced by handlers, collected by the scheduler
	pc      uint32    // PC of the sc being served (for events)
	curCall abi.Sysno // the call being served (handlers shared by several calls)
}

// addrLayout is what the loader fixed: where the heap starts, where mmap may hand out
// memory, and what it must never touch.
type addrLayout struct {
	mmapTop  uint32       // mmap allocates downward from here
	fixed    uint64       // bytes of segments and stack, counted against the node's memory
	reserved []ppc.Region // segments, instrumentation region, stack
}

// syscallTable is indexed by number for the dispatcher.
var syscallTable = func() map[abi.Sysno]*Syscall {
	m := make(map[abi.Sysno]*Syscall, len(cnkSyscalls))
	for i := range cnkSyscalls {
		s := &cnkSyscalls[i]
		if _, dup := m[s.Num]; dup {
			panic("bgl: syscall table lists " + s.Num.Name() + " twice")
		}
		m[s.Num] = s
	}
	return m
}()

// syscall serves the system call num for p.
func (p *Proc) syscall(num abi.Sysno, a Args) Result {
	s, ok := syscallTable[num]
	if !ok {
		return p.missing(num, "not implemented by the CNK")
	}
	if s.Support == Refused {
		return p.missing(num, s.Note)
	}
	p.curCall = num
	return s.Fn(p, a)
}

// missing returns ENOSYS and records an event naming the call.
func (p *Proc) missing(num abi.Sysno, why string) Result {
	p.events = append(p.events, Event{Kind: EventUnsupported, Rank: p.Rank, PC: p.pc,
		Sysno: num, Note: num.Name() + ": " + why})
	return Result{Err: abi.ENOSYS}
}

// nowNS is the node's virtual time in nanoseconds.
func (p *Proc) nowNS() uint64 { return cyclesToNS(p.Cycles()) }

func cyclesToNS(c uint64) uint64 { return c/7*10 + c%7*10/7 }

func nsToCycles(ns uint64) uint64 { return ns/10*7 + ns%10*7/10 }

// readString reads a NUL-terminated string of at most max bytes from process memory.
func (p *Proc) readString(addr uint32, max int) (string, abi.Errno) {
	var out []byte
	var buf [64]byte
	for len(out) < max {
		n := len(buf) - int(addr%uint32(len(buf)))
		if err := p.Mem.Read(addr, buf[:n]); err != nil {
			if err := p.Mem.Read(addr, buf[:1]); err != nil {
				return "", abi.EFAULT
			}
			n = 1
		}
		for i := 0; i < n; i++ {
			if buf[i] == 0 {
				return string(append(out, buf[:i]...)), 0
			}
		}
		out = append(out, buf[:n]...)
		addr += uint32(n)
	}
	return "", abi.ENAMETOOLONG
}

// copyOut writes b to process memory at addr.
func (p *Proc) copyOut(addr uint32, b []byte) abi.Errno {
	if len(b) == 0 {
		return 0
	}
	if err := p.Mem.Write(addr, b); err != nil {
		return abi.EFAULT
	}
	return 0
}

// copyIn reads n bytes of process memory at addr.
func (p *Proc) copyIn(addr, n uint32) ([]byte, abi.Errno) {
	b := make([]byte, n)
	if n == 0 {
		return b, 0
	}
	if err := p.Mem.Read(addr, b); err != nil {
		return nil, abi.EFAULT
	}
	return b, 0
}

func ok(v uint32) Result         { return Result{R3: v} }
func fail(e abi.Errno) Result    { return Result{Err: e} }
func exitWith(status int) Result { return Result{Exit: true, Status: status & 0xff} }
