package ppc

import "fmt"

// PVR440 is the processor version register value mfspr returns: the PPC440 core of the
// 440EPx, the value qemu-ppc -cpu 440epx gives, so programs that print it agree.
const PVR440 = 0x200008D0

// XER bits.
const (
	XerSO = 0x80000000
	XerOV = 0x40000000
	XerCA = 0x20000000
)

// Counters are the per-CPU event counts; Cycles come from the per-class cost table.
type Counters struct {
	Instructions, Cycles, Loads, Stores, Branches, FPOps uint64
	// BranchesNotTaken counts conditional branches that fell through (Branches counts the
	// taken ones, conditional or not).
	BranchesNotTaken uint64
}

// CPU is one PowerPC 440 core in user mode. The registers are plain fields: callers (the
// CNK, a debugger) read and write them between Run calls.
type CPU struct {
	GPR                     [32]uint32
	FPR                     [32]uint64 // IEEE double bit patterns
	CR, XER, LR, CTR, FPSCR uint32
	PC                      uint32
	Mem                     *Memory
	Count                   Counters
	// TBBase is the timebase at Cycles 0: mftb returns TBBase + Count.Cycles.
	TBBase uint64
	// SPRG are SPRG0-7 (4-7 readable from user mode), USPRG0 is user-writable.
	SPRG      [8]uint32
	USPRG0    uint32
	resvAddr  uint32
	resvValid bool
	stop      Stop
	bps       map[uint32]bool
	armed     map[uint32]struct{} // entry marks not yet reached (entrymark.go)
	reached   map[uint32]bool     // entry marks reached
	cache     blockCache
	tlb       pageCache
	victim    victimCache
	// translate: run blocks as translated code (native.go); translated counts the
	// instructions that ran so.
	translate  bool
	translated uint64
	nativeLeft uint64 // the budget left, kept by translated code going from block to block
	// nativeMXCSR is where translated floating-point code sets and reads the host's MXCSR.
	nativeMXCSR uint32
}

// NewCPU returns a CPU with zeroed registers over mem.
func NewCPU(mem *Memory) *CPU {
	c := &CPU{Mem: mem, tlb: pageCache{rTag: noTag, wTag: noTag}}
	c.victim.flush()
	c.SetTranslation(DefaultTranslation)
	return c
}

// StopKind says why Run or Step returned.
type StopKind uint8

// Stop kinds.
const (
	StopBudget     StopKind = iota // the instruction budget is spent
	StopSyscall                    // an sc executed; PC is past it
	StopFault                      // a fault; Stop.Fault says which, PC is the faulting instruction
	StopTrap                       // tw/twi trapped; PC is the trap instruction
	StopBreakpoint                 // PC reached a breakpoint; the instruction there has not run
)

var stopNames = [...]string{"budget", "syscall", "fault", "trap", "breakpoint"}

func (k StopKind) String() string {
	if int(k) < len(stopNames) {
		return stopNames[k]
	}
	return fmt.Sprintf("StopKind(%d)", k)
}

// Stop is the result of Run and Step.
type Stop struct {
	Kind  StopKind
	Fault *Fault // for StopFault and StopTrap
}

// FaultKind classifies faults.
type FaultKind uint8

// Fault kinds.
const (
	FaultIllegal FaultKind = iota + 1 // word the 440 does not have (SIGILL)
	FaultPriv                         // supervisor-only instruction in user mode (SIGILL)
	FaultAccess                       // unmapped or protected memory, or fetch from non-X (SIGSEGV)
	FaultAlign                        // misaligned lwarx/stwcx. (SIGBUS)
	FaultTrap                         // tw/twi condition true (SIGTRAP)
)

var faultNames = [...]string{"", "illegal instruction", "privileged instruction", "access violation", "alignment", "trap"}

// Fault describes what stopped a CPU: kind, the instruction's address and word, and the
// data address for access and alignment faults.
type Fault struct {
	Kind  FaultKind
	PC    uint32
	Word  uint32
	Addr  uint32
	Write bool // for FaultAccess: the access was a store
}

// Signal returns the Linux signal the fault raises.
func (f *Fault) Signal() int {
	switch f.Kind {
	case FaultIllegal, FaultPriv:
		return 4
	case FaultTrap:
		return 5
	case FaultAlign:
		return 7
	case FaultAccess:
		return 11
	}
	return 8
}

func (f *Fault) Error() string {
	name := "fault"
	if int(f.Kind) < len(faultNames) && f.Kind != 0 {
		name = faultNames[f.Kind]
	}
	switch f.Kind {
	case FaultAccess, FaultAlign:
		dir := "read"
		if f.Write {
			dir = "write"
		}
		return fmt.Sprintf("ppc: %s: %s of 0x%08x at pc 0x%08x (word 0x%08x)", name, dir, f.Addr, f.PC, f.Word)
	}
	return fmt.Sprintf("ppc: %s at pc 0x%08x (word 0x%08x)", name, f.PC, f.Word)
}

// SetBreakpoint makes Run stop with StopBreakpoint before executing the instruction at addr.
// A Run or Step that starts at a breakpoint executes that instruction (so resuming works).
func (c *CPU) SetBreakpoint(addr uint32) {
	if c.bps == nil {
		c.bps = map[uint32]bool{}
	}
	c.bps[addr] = true
}

// ClearBreakpoint removes the breakpoint at addr.
func (c *CPU) ClearBreakpoint(addr uint32) {
	delete(c.bps, addr)
	if len(c.bps) == 0 {
		c.bps = nil
	}
}

// Step executes one instruction.
func (c *CPU) Step() Stop { return c.Run(1) }

// Run executes up to budget instructions and reports why it stopped. A fault leaves PC at
// the faulting instruction and registers as they were before it.
func (c *CPU) Run(budget uint64) Stop {
	c.stop = Stop{}
	start := c.Count.Instructions
	first := true
	for {
		left := budget - (c.Count.Instructions - start)
		if left == 0 {
			return Stop{Kind: StopBudget}
		}
		if c.bps != nil && c.bps[c.PC] && !first {
			return Stop{Kind: StopBreakpoint}
		}
		first = false
		if c.armed != nil {
			c.reach(c.PC)
		}
		m := c.Mem
		if c.cache.gen != m.gen || c.cache.mem != m {
			c.syncMem()
		}
		b := c.cache.entries[c.PC>>2&(cacheLen-1)]
		if b == nil || b.start != c.PC {
			if b = c.lookup(c.PC); b == nil {
				return c.stop
			}
		}
		if c.bps == nil && uint64(len(b.insts)) <= left {
			if c.translate {
				if c.runNative(b, left) {
					return c.stop
				}
				continue
			}
			if c.runChain(b, left) {
				return c.stop
			}
			continue
		}
		if c.bps != nil {
			left = min(left, b.untilBreakpoint(c.bps))
		}
		if c.runBlock(b, 0, left) {
			return c.stop
		}
	}
}

// raise records a fault for the instruction in and tells the block loop to stop.
func (c *CPU) raise(in *inst, kind FaultKind, addr uint32, write bool) bool {
	c.PC = in.pc
	sk := StopFault
	if kind == FaultTrap {
		sk = StopTrap
	}
	c.stop = Stop{Kind: sk, Fault: &Fault{Kind: kind, PC: in.pc, Word: in.w, Addr: addr, Write: write}}
	return true
}

// Timebase returns the current timebase value.
func (c *CPU) Timebase() uint64 { return c.TBBase + c.Count.Cycles }
