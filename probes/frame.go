package probes

// The base trampoline's frame, as every snippet sees it through r1. Snippets read the
// program's argument and return registers from the save slots (the trampoline saves the
// registers a snippet reads or clobbers there before any snippet runs), and use the scratch
// area above them for temporaries, spills and hypercall buffers. Offsets are fixed so one
// compiled snippet fits every trampoline.
const (
	FrameBackChain = 0   // the interrupted r1 (the frame sits below it, past the gap)
	FrameLRSave    = 4   // where a called function saves its LR (SysV: caller's frame + 4)
	FrameGPR       = 8   // rn at FrameGPR + 4n for n in 0..12 (r1 and r2 slots unused)
	FrameCR        = 60  // condition register
	FrameLR        = 64  // link register
	FrameCTR       = 68  // count register
	FrameXER       = 72  // fixed-point exception register
	FrameFPSCR     = 80  // FPSCR as the low word of a double (mffs/mtfsf)
	FrameFPR       = 88  // fn at FrameFPR + 8n for n in 0..13
	FrameScratch   = 200 // first scratch byte; a snippet's Code.Scratch bytes follow
	// StackGap is left untouched between the interrupted stack pointer and the frame: the
	// 32-bit SysV ABI has no red zone, but hand-written code and signal-free leaf routines
	// in libraries sometimes store below r1; the gap keeps the frame clear of them.
	StackGap = 256
)

// FrameLeave (the unused r1 slot) says how the function goes on after the snippets of a
// trampoline with Code.Leave: 0 as usual, 1 returns at once (skip), any other value is the
// address of the function to continue in (jump).
const FrameLeave = FrameGPR + 4

// FrameTBU and FrameTBL (the unused r2 slot and the word after XER) hold the time base as
// a trampoline with Code.PointTime read it on arrival, before saving the registers its
// snippets use, so PointTimebase is the same at a point whatever its snippets are.
const (
	FrameTBU = FrameGPR + 8
	FrameTBL = FrameXER + 4
)

// Register pools: the volatile registers of the SysV PPC32 ABI a snippet may use. r0 and f0
// are the generator's own scratch registers and are never allocated.
const (
	firstGPR = 3
	lastGPR  = 12
	firstFPR = 1
	lastFPR  = 13
)

// Masks of the volatile registers (bit n is rn or fn), saved around a snippet that calls.
const (
	volatileGPRs = 1<<0 | 0x1ff8 // r0, r3..r12
	volatileFPRs = 0x3fff        // f0..f13
)

func gprSlot(n uint32) int32 { return FrameGPR + 4*int32(n) }
func fprSlot(n uint32) int32 { return FrameFPR + 8*int32(n) }
