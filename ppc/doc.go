// Package ppc is the PowerPC 440 of the simulated Blue Gene/L: its instruction set
// (decoder, encoder, objdump-syntax printer and assembler) and the interpreter that runs
// static PPC32 Linux ELF programs on it.
//
// # Instruction set
//
// One table (isa_entries*.go) lists every instruction a 440 executes in GCC -mcpu=440fp
// output and static glibc 2.36: integer, branch, condition register, loads and stores
// (update, indexed, multiple, string, byte-reversed, lwarx/stwcx.), SPR and DCR moves,
// synchronisation, cache operations, sc, tw/twi, the 440's dlmzb and its
// multiply-accumulate unit (mulhhw, macchw, nmaclhw...), isel, the classic FPU, the
// supervisor instructions objdump's 440 dialect names, and the POWER9 mffscrn, mffscrni
// and mffsl that glibc's libm carries (a 440 ignores the field that tells them from mffs,
// so they execute as mffs; they print as ".long", like objdump). An Op is an index into
// the table; Rc, OE, LK and AA are bits of the word, not separate Ops.
//
//	inst, err := ppc.Decode(0x7d4a409d)      // *DecodeError for a word the 440 lacks
//	inst.Op.Name(), inst.Op.Class()          // "dlmzb", ClassInt
//	ppc.Disasm(inst, pc)                     // "dlmzb.  r10,r10,r8", as objdump -d -z -M440
//	ppc.Encode(inst)                         // the word again: Decode keeps every bit
//	w, err := ppc.Assemble("bdnz+ 10003900", pc)
//	addi, _ := ppc.OpByName("addi")
//	li, err := ppc.Build(addi, 3, 0, -1)     // operands in addi.Args() order
//	bl, err := ppc.Branch(pc, target, true)  // and BranchCond, WithRc/WithOE/WithLK/WithAA
//
// Decoding matches opcode bits only (w&mask == value, most specific entry first), so
// reserved bits, branch hints and the like stay in Inst.Word and Encode(Decode(w)) == w.
// The printer is a second reading of the same table: extended mnemonics are data
// (isa_alias*.go: mask/value plus a field relation, as objdump's opcode table does), the
// SPR names come from isa_spr.go, and gnuRules (isa_gnu.go) records where objdump's 440
// dialect differs from "all reserved bits zero": bits it ignores, operands it omits when
// zero, and operand combinations it rejects (printing ".long") although a 440 runs them.
// A few words objdump names but a 440 does not execute (the classic segment-register MMU,
// tlbie, tlbivax) are known to the printer only (gnuOnly): Decode rejects them. Not
// covered: the APU user-defined instructions udi0fcm..udi15fcm, which print as ".long".
//
// Assemble reads objdump's output syntax, extended mnemonics, hint suffixes and omitted
// optional operands included. Where two spellings share a mnemonic (mfsprg r3,4 names SPR
// 260 and 276) it takes the first, and bits objdump ignores cannot be written in text.
//
// Tests: golden words (testdata/decode.txt, taken from objdump), a differential run of
// objdump -d -z -M440 over every instruction line of the corpus in testdata/isa (C
// programs at -O0 and -O2 -static; `make -C testdata/isa` rebuilds them) and over
// random operands of every entry, all 1024 SPR numbers and random words; round trips
// Encode(Decode(w)) == w and Assemble(Disasm(w)) == w; FuzzDecode.
//
// golang.org/x/arch/ppc64/ppc64asm was evaluated and not imported: it decodes the
// 440-only opcodes as Power ISA 3 instructions (dlmzb. as msgsndu), has no encoder or
// assembler, and its GNU syntax is a POWER one (hwsync, no 440 hint rule), so decoder,
// encoder and printer would not come from one table. What was taken is its shape: the
// ISA as data, Decode separate from the printer, golden files and an objdump test that
// skips when the cross objdump is absent.
//
// # Interpreter, memory and loading
//
// LoadELF reads a static ET_EXEC 32-bit big-endian PowerPC executable into one shared base
// Memory; Image.NewProcess makes a process of it: a copy-on-write Clone of the base (text,
// data and the page tables' leaves are shared until written; a write copies that page for
// that process only), the PPC32 Linux initial stack, r1 at argc and PC at the entry point.
// A text file (C source given where a program belongs) and an executable for another
// machine (the host's /bin/ls) are named as such, with how to build a Blue Gene/L one
// (elf_kind.go). A file debug/elf cannot parse is examined again by explainELF, whose *ELFError names the
// damaged header field and its file offset (a truncated header, a program or section
// header table past the end of the file, a bad e_shstrndx) instead of a bare "EOF".
// The image is the one program model of the tools too: its Symbols (with binding and
// symbol-table order), the bytes of its executable sections (Code, CodeAt) and its DWARF
// are read in the same parse, and probes builds its view of the program on them. Naming
// code is the image's too (elf_lines.go, built on first use): the DWARF line table
// (Lines, LineOf), one function per address under its preferred name (Funcs, FuncAt,
// PreferredName), functions and data objects by name, aliases included (FuncNamed,
// ObjectNamed, FuncNames, ObjectNames), the inlined copies of functions
// (InlinedCopies, from DW_TAG_inlined_subroutine: elf_inlined.go), and Locate, which makes the image a Symbolizer. Backtrace
// (backtrace.go) walks the SysV back chain of a stopped process for fault reports and
// debuggers: it reads the innermost function's code around the pc (backtrace_frame.go)
// to tell a frame not yet made, a leaf that never saves LR and an epilogue after mtlr or
// after the frame's pop, so the caller found in LR is not dropped; callers beyond come
// from the saved LR at 4 in each caller's frame. It stops at a back chain that does not
// grow, an unreadable word or unknown code, and never at more than its limit. The
// auxiliary vector's numbers (AT_*, HWCAP440, CacheLineSize) live here only, as ppc
// imports nothing.
// A CPU then runs in slices:
//
//	img, err := ppc.LoadELF(f)
//	cpu, err := img.NewProcess(ppc.ProcessConfig{Args: []string{"a.out"}, Seed: rank})
//	for {
//		st := cpu.Run(budget)
//		switch st.Kind {
//		case ppc.StopSyscall: // r0 = number, r3..r8 = arguments; set r3 and CR0[SO]
//		case ppc.StopFault, ppc.StopTrap: // st.Fault: kind, pc, word, address, Signal()
//		case ppc.StopBudget, ppc.StopBreakpoint:
//		}
//	}
//
// The package has no goroutines and no clock. Processes of one image may be created and
// run on different goroutines; one CPU and its Memory belong to one goroutine at a time.
//
// Memory: 32-bit big-endian, 4 KiB pages allocated on first write (a mapped page never
// written reads as zeros and costs nothing), permissions per page (PermR, PermW, PermX;
// fetches need PermX), a three-level table (256 mids of 64 leaves of 64 pages) whose
// levels and pages are shared between Clones. The small levels keep copy-on-write cheap:
// a process that writes a few pages in its stack and data copies a few KiB of table, not
// a 9 KiB leaf per region. Page bytes come from 4 MiB pointer-free slabs (mem_slab.go)
// mapped outside the Go heap with their pages already faulted in (MAP_POPULATE on Linux),
// so the collector never scans them, a page costs no allocation of its own and no page
// fault on its first store; a page's
// header holds its bytes and its predecoded code. Poke writes ignoring PermW (a debugger
// patching text); copy-on-write still applies, and processes that Poke the same bytes
// into the same shared (or never written) executable page map one patched page, with one
// predecode, and the same patched leaf and mid of the table (mem_share.go): a probe
// installed on 65,536 ranks costs one text page, one trampoline page and their tables,
// not 65,536 of each. A PokeBatch (mem_batch.go) is a list of pokes made once and
// applied to many Memories: the first Memory whose regions it writes are shared does
// the pokes, and every later one starting from those same mids takes the resulting mids
// at once, one step per 16 MiB region instead of a lookup per write. Stats counts
// private and shared pages and
// the bytes a Memory costs beyond what it shares. (Transparent huge pages for the slabs
// were measured and rejected: with the kernel's synchronous compaction, touching 2 GiB
// took 13 s instead of 1.8 s.)
//
// Layout of every process (the same on every node): the segments where the ELF puts them;
// the stack where qemu-ppc puts it (8 MiB ending at 0x40801000); the initial stack byte for
// byte as qemu-ppc -cpu 440epx builds it (same addresses, same auxv: AT_IGNOREPPC x2,
// D/I/UCACHEBSIZE 32/32/0, PHDR, PHENT, PHNUM, PAGESZ, BASE, FLAGS, ENTRY, UID/EUID/GID/EGID
// 0, HWCAP = FPU|4xxMAC|BookE, CLKTCK 100, RANDOM, SECURE, EXECFN, HWCAP2 0; no vDSO) except
// that AT_RANDOM's 16 bytes come from ProcessConfig.Seed and envp keeps the given order
// (qemu reverses it). Image.InstrRegion, 16 MiB right below the text (or right above the
// image when the text starts below 16 MiB, with the break moved past it), is mapped RWX,
// within branch reach of all the text, and is never part of the heap; Image.Brk is the
// page-aligned end of the image (what qemu's brk(0) returns); Image.Reserved lists what an
// mmap must avoid.
//
// Execution: words are predecoded into basic blocks (ending at a branch, sc, trap, an
// undecodable word, a page end or 64 instructions) and cached per physical page, shared by
// every CPU mapping the page. The execution tables (semantics, inline and chained forms)
// are keyed by Op constants generated from the instruction table (isa_ops.go), so a
// misnamed entry does not compile; exec_paths_test.go checks that every entry has
// semantics and a place in each interpreter, its own form or an explicit listing as
// general-path only. Each block also holds its instructions as 8-byte micro-ops (exec_chain.go): the form to run and
// the operands extracted once. Run executes blocks in runChain (exec_chain_run.go) when
// no breakpoint is set and the budget covers the block: one function, one jump-table
// dispatch per micro-op, the common integer forms, loads and stores hitting the page
// caches, and the block's closing branch inline; every other instruction calls its bound
// semantics. A micro-op whose operand is the result of the one before it reads that
// value from a machine register (forwarded forms: arithmetic, logical, compare and
// load + use pairs) instead of from CPU.GPR, which shortens chains of dependent
// instructions. After a block, the next one is found without a page-table walk: a target
// in the same virtual page is in the same physical page, whose code holds it; another
// page goes through the per-CPU block cache; both are trusted only while the Memory's
// generation has not moved. The general path (runBlock, one instruction at a time after
// the same predecode) serves breakpoints, budgets that end inside a block and the rest
// of a block after its translated part, and must agree with runChain instruction for
// instruction (TestChainMatchesGeneralPath).
// Measured and rejected for runChain (BenchmarkMIPS, same run): micro-ops packed into one
// uint64 read with shifts (5-10% slower), register operands as byte offsets through
// unsafe (no gain), the page caches copied into locals (7% slower on the loop: register
// pressure in the one big switch).
//
// Translation (native*.go, linux/amd64; other hosts interpret): Run gives a block whose
// budget it covers, with no breakpoint set, to runNative, which runs the block's
// translation to amd64 machine code, made on its first run and shared like the block.
// The translator covers the integer forms compilers emit most: add/addi/addis/addic/
// subf/subfic/neg/mullw/mulli (add, subf, neg and mullw with OE too: XER[OV] and SO from
// the host's overflow flag, which x86 sets exactly as PowerPC's signed overflow; the OE
// forms of the carry chain and the divides stay interpreted), the logical forms,
// extsb/extsh/cntlzw,
// rlwinm/rlwimi/rlwnm, slw/srw/srawi, their Rc forms (CR0 from the result and XER[SO]),
// cmp/cmpi/cmpl/cmpli, mflr/mtlr/mfctr/mtctr, mfcr/mtcrf, byte/half/word loads and stores
// in every addressing form, the floating point listed below, and b/bc/bclr/bcctr closing
// the block. A block is translated
// up to its first instruction outside that set; the machine code returns the block it
// stopped in (its word in the page), the index of the first instruction it did not run
// and the next PC, and runBlock runs the rest of that block and counts the whole of it,
// so counters, faults, the timebase and stops are the interpreter's. Guest state stays in the CPU struct, addressed through rdi for the
// whole block; each instruction loads its operands and stores its result (no register
// allocation: an exit anywhere leaves the CPU as the interpreter would). Loads and
// stores look up the CPU's victim page cache inline as a software TLB (tag compare, page
// pointer, big-endian access through bswap); a miss or an access across a page end
// leaves the block before the instruction, and the interpreter's access refills the
// cache. Its write side holds only private, writable pages without predecoded code, so a
// store to a shared (copy-on-write), read-only or code page always leaves: writing a page
// drops its predecoded blocks and their translations with them. The translated code
// never calls Go; a small assembly stub (native_enter_amd64.s) loads the CPU pointer,
// calls it and returns what it returns. A completed block counts itself and goes
// straight on into the translation of the next block when that block is in the same page
// (so in the same physical page, as runChain reasons), the dispatcher has linked it
// (nativeCode.links, filled the first time the pair runs) and the budget left covers any
// block; otherwise it returns to runNative, which goes on as runChain does. A closing
// bclr or bcctr compares its target with up to four blocks of its page recorded in an
// immutable dynLink (a function's returns to its call sites) and jumps to the one that
// matches. Blocks the translator cannot start run in runChain. The amd64 forms are encoded by hand
// (native_x86_amd64.go, some forty of them): a library such as golang-asm would do it,
// but this package imports only the standard library. Executable memory is a memfd
// mapped twice, read-write and read-execute: each translation is copied into the
// writable view at a fresh 64-byte line and runs from the executable one, so no mapping
// is writable and executable, no code another goroutine may run is written or changes
// protection, and installing a translation makes no system call (the mprotect per
// translation it replaces, with its TLB shootdown, took 14% of serial CoMD and half of a
// 64-rank heat run). Where the kernel refuses that (vm.memfd_noexec), each translation
// gets pages of its own made read-execute by Mprotect (TestTranslatedPagesMode). Code is
// never unmapped.
// Floating point (native_fp*.go, native_sse_amd64.go): lfs/lfd/stfs/stfd in every
// addressing form and stfiwx (lfs and stfs convert bit for bit as singleToDouble and
// doubleToSingle do), fadd/fsub/fmul/fdiv/fsqrt and their single forms in SSE2, fmadd/fmsub/
// fnmadd/fnmsub and single forms in FMA3 when CPUID says the host has it (otherwise they
// stay interpreted: a separate multiply and add would round twice), frsp, fctiw/fctiwz,
// fcmpu/fcmpo, fsel, fmr/fneg/fabs/fnabs, mffs, mtfsf, mtfsfi, mtfsb0/mtfsb1, each with the
// FPSCR and CR1 the interpreter computes. Each operation loads MXCSR with FPSCR[RN] as its
// rounding mode and clear flags (the entry stub restores Go's MXCSR on the way out), and
// its flags decide whether the SSE result is PowerPC's: the code leaves the block before
// the instruction, for the interpreter, on an invalid operation, a zero divide, overflow,
// underflow, a NaN result, an inexact result in the smallest binade or below (SSE decides
// tininess after rounding, the interpreter before) or in the top binade (in a directed mode
// the interpreter's overflow is that of the result rounded to nearest), a single-precision
// result whose double was halfway between two singles (rounding twice could differ), and
// fnmadd/fnmsub in a directed mode (the interpreter rounds the negated exact value).
// Rounding to nearest, fadd, fsub, fmul, fdiv (double) and fctiw/fctiwz take a fast path
// (native_fpfast_amd64.go) that touches MXCSR not at all: LDMXCSR and STMXCSR around each
// operation cost more than the rest of it. Exactness comes from an error-free
// transformation instead: TwoSum for sums, fma(a, c, -p) for products, the remainder
// fma(-q, b, a) for quotients (both nonzero exactly when the result is inexact, given
// |p| or |a| >= 2^-960), the integer converted back for fctiw; NaN, infinite and
// top-binade results, smaller products and dividends (but exact zeros) and quotients
// below 2^-1022 leave. MXCSR is nearest whenever FPSCR[RN] is: a translated mtfsf,
// mtfsfi, mtfsb0 or mtfsb1 that may change RN loads Go's MXCSR after it
// (TestTranslatedRoundingBackToNearest).
// fres and frsqrte compute qemu's values as the interpreter does, 1/x rounded to double
// then single and 1/sqrt(x) rounded at each step, in SSE2 when rounding to nearest; in a
// directed mode they leave (the interpreter steps the twice-rounded value by the sign of
// the last error). mcrfs stays interpreted. TestTranslatedFPEdges runs those
// exits one instruction per block in every rounding mode; random blocks mix floating point
// over signed zeros, infinities, quiet and signalling NaNs, denormals and range ends.
// DefaultTranslation (on) is what NewCPU gives; CPU.SetTranslation(false) runs one CPU in
// the interpreter only; TranslatedInstructions counts what ran translated. The tests run
// every program of testdata/exec in both modes in lockstep with budgets that cut blocks
// anywhere (TestTranslatedMatchesInterpreter), random blocks both ways
// (FuzzTranslatedBlock, TestTranslatedRandomBlocks) and accesses across pages. With
// DPCL_TEST_INTERP=1 (read by test code only, internal/oracletest) the tests of ppc, bgl
// and cmd/dpclsh make every CPU an interpreting one, and the qemu and MPICH differential
// tests check that none of their instructions ran translated: .ci/run runs them so after
// the default pass.
// Translated code returns to Go at least every nativeSlice (65,536) instructions, so a
// guest spinning under a large budget cannot hold off the collector.
// examples/bench/mips.sh 5, medians of wall-clock MIPS in one run (2-core box, load 1.8
// before and 1.7 after): fib 1330 translated, 489 interpreted, qemu-ppc 1675 (0.79x and
// 0.29x of qemu); loop 2507 translated, 682 interpreted, qemu-ppc 1999 (1.25x and 0.34x).
// With floating point translated (same box, shared; load in brackets; medians of
// alternating runs): serial CoMD (4^3 cells, 10 steps, 115.7 M instructions, 5 runs)
// 0.80 s translated with 87.0% of its instructions so (25.6% and 1.40 s with the integer
// subset only), 1.36 s interpreted, qemu-ppc 0.51 s [2.0]; 64-rank CoMD (13^3 cells,
// 2.56 G instructions, 3 runs) 22.3 s translated, 74.9% so (24.7%, 30.9 s before), 35.0 s
// interpreted [1.2-3.6]; jacobi 97.6% translated (32.3% before), cg 96.1% (11.4%). What
// fell back then was mostly the tails of blocks whose load missed the victim page cache,
// 16 entries at the time (lwz, lfs, lfdu). The cache has 64 entries since; side by side
// (5 alternating runs each, medians; the box shared, load 33-55): serial CoMD 89.0% ->
// 99.2% translated, 1.15 -> 0.88 CPU s; 64-rank CoMD 81.4% -> 97.9% translated,
// 24.9 -> 19.5 CPU s, 74.4 -> 53.4 s wall; fib and loop, which live in a page or two,
// unchanged within the noise (cpuMIPS fib 1232 and 1080, loop 2112 and 2204; qemu-ppc
// 997 and 1427). The cost is 1.1 KiB more per CPU (75 MiB at 65,536 ranks) and a longer
// flush when a Memory changes shape. Next in line are divwu, mulhwu and subfc.
// A CPU profile of serial CoMD then put 80% of its time in the translated code itself
// (one symbol to pprof); taking LDMXCSR/STMXCSR out of the common floating-point
// operations took 40% off the whole run. With the MXCSR-free fast path (same box, load
// 42-48, 5 alternating runs, medians of user+system CPU and wall): serial CoMD 0.41 CPU s
// and 6.1 s wall translated (0.67 CPU s before), qemu-ppc 0.57 CPU s and 9.0 s wall
// (1.39x qemu on CPU time), 1.68 CPU s interpreted; 99.4% translated. 64-rank CoMD, one
// run at load 40-52: 2.56 G instructions in 14.4 CPU s translated (178 M instructions per
// CPU second; 19.5 before), 105.8 s wall (24 M/s wall on the shared box), 96.4% translated;
// interpreted, run after it: 56.0 CPU s (46 M/s), 721 s wall at load 33-44. Translated
// shares at 8 ranks (dpclsh exec --stats): cg 99.3%, heat 95.0%, hello_mpi 91.8%,
// histogram 98.0%, imbalance 99.3%, jacobi 98.7%, master_worker 99.8%, ring 95.5%.
//
// Writing a page drops its predecoded code (a store into the code being run ends the
// block, so the new bytes run next); writing a shared page copies it for the writer,
// whose block caches are flushed, and leaves everyone else's code alone. Each CPU keeps a
// one-entry read and write page cache in front of the table and a 64-entry victim cache
// behind them, so a program moving between its stack, data and heap pages rarely walks
// the table.
//
// Counters (Count) advance per block: instructions, cycles from DefaultCosts (a per-class
// table for the 700 MHz BG/L core; change it before any CPU runs), loads, stores, branches
// taken, conditional branches not taken, floating-point operations. mftb/mfspr TBL/TBU read
// TBBase + Count.Cycles + the cycles of the instructions before them in their block, so the
// timebase is exact at the instruction even though the counters advance per block (a block
// cut short by a budget or breakpoint restarts there, and the sum is the same). Run(budget) executes exactly budget instructions unless it
// stops earlier; a faulting instruction is not counted and leaves PC on it.
//
// Breakpoints: SetBreakpoint(addr) stops Run with StopBreakpoint before the instruction at
// addr executes; a Run or Step starting at a breakpoint executes it (so resuming works).
// Entry marks (MarkEntry, entrymark.go) record that a block began at an address without
// stopping, without a cycle and without leaving the chained or translated paths: a tool
// learns that a trampoline ran at no cost to the run (TestEntryMarks).
//
// Fidelity choices (qemu-ppc -cpu 440epx is the reference where the ISA leaves room):
//   - divw/divwu by zero and -2^31/-1 give the dividend in RT and set OV with OE (qemu's
//     value; the ISA says undefined).
//   - Unknown words, AltiVec, isel, eciwx/ecowx and invalid update forms (lwzu with RA=0
//     or RA=RT) raise FaultIllegal (SIGILL); supervisor instructions and SPRs raise
//     FaultPriv (SIGILL); tw/twi raise FaultTrap (SIGTRAP); unaligned lwarx/stwcx. raise
//     FaultAlign (SIGBUS); other unaligned accesses work, as on the 440.
//   - mfspr PVR gives 0x200008D0 (qemu's 440EPx core); user SPRs: XER, LR, CTR, USPRG0,
//     SPRG4-7 (read), TBL/TBU (read). mtxer keeps every bit except Power ISA 3.0's OV32
//     and CA32, as qemu does.
//   - Floating point: IEEE double in the four FPSCR[RN] rounding modes (each result is
//     computed to nearest with the sign of its error, exactly with math/big where needed,
//     then stepped for the directed modes); the multiply-add family is fused;
//     single-precision forms round the exact result once; frsp, lfs/stfs conversions bit-exact (SNaNs stay signalling, stfs
//     truncates as the ISA specifies); fctiw/fctiwz saturate with VXCVI, FRT's high word
//     is the sign extension (qemu's choice); the FPSCR exception bits, VX/FEX summaries,
//     FI, FPRF (classified as a double also for single results, as qemu does) and CR1 for
//     Rc forms. FR is not modelled (left as software set it, cleared by invalid operations
//     and zero divides — what qemu does); FX is set whenever an exception occurs. fres and
//     frsqrte return qemu's values (1/x rounded to single; 1/sqrt(x) rounded twice), not
//     the hardware's estimates. mffscrn, mffscrni and mffsl run as mffs. Enabled FP
//     exceptions (FPSCR VE/OE/UE/ZE/XE) never trap: user mode on Linux and CNK runs with
//     MSR[FE0,FE1] = 0.
//   - The 440 multiply-accumulate instructions follow the PPC440 manual. qemu-ppc 7.2
//     differs for the signed forms' overflow and drops the result of forms without OE
//     or saturation; the differential tests avoid those forms.
package ppc
