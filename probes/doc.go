// Package probes builds what dpclsh splices into a running PowerPC 440 program: probe
// expressions (DPCL's ProbeExp, DynInst's snippets), their code, the points they can go
// to, and the base trampolines that run them. It is pure code over bytes: writing into a
// node is the runtime's job, through bgl's debug interface.
//
// Usage:
//
//	img, _ := ppc.LoadELF(f)                               // the one parse, the machine's too
//	prog := probes.NewProgram(img)                         // symbols, code, DWARF lines
//	fn, _ := prog.Lookup("MPI_Send")
//	entry, _ := prog.Points(fn, probes.PointEntry)
//	slots := probes.NewSlots(region.Start, 4096)           // probe variables
//	n, _ := slots.Alloc("n", probes.Int)
//	e := probes.Assign(n, probes.Binary(probes.KAdd, probes.Ref(n), probes.IntConst(1)))
//	code, _ := probes.Compile(e, &probes.Target{Tag: 1, Resolve: prog.Resolve})
//	tr, _ := probes.BuildTrampoline(entry[0], []*probes.Code{code}, []bool{false}, base, guard)
//	// write tr.Bytes() at base, then tr.Patch at entry[0].Addr; toggle with tr.Toggles.
//
// # One program model
//
// A Program is a view of the ppc.Image the machine runs: ppc.LoadELF parses the
// executable once, and probes takes the image's symbols (ppc.Symbol, which Func embeds
// with the entry's file and line), its executable sections and its DWARF, instead of
// reading the file again. To resolve a pc to a function and file:line (a fault report,
// a profile), use Program.FuncAt(pc) and Program.LineOf(pc) on the job's program, or
// build one from the job's image with NewProgram(job.Image()).
//
// A source line's points (LinePoints, line_starts.go) are every place its code begins:
// statement rows whose instruction is the line's (unrolled copies included) and each
// basic block of its code entered from another line (a loop body re-entered from a test
// the optimizer moved below it), so a counter there reads how often the line ran.
// InlinedPoints gives the starts of a function's inlined copies, which its entry never
// sees; InlinedNote says where they are.
//
// # Expressions
//
// Three value types: Int (32-bit), Int64, Double; Void for send and when without else.
// Mixed operands widen int -> int64 -> double (C's usual conversions); assignment only
// widens ("cannot assign double to int variable n"). Check reports the offending node and
// why. A reference evaluator in the tests (eval_ref_test.go) is the semantics the
// generated code is checked against. Where C is undefined the choice follows what the generated code does: integer arithmetic wraps,
// x / 0 is 0 and x % 0 is x, INT_MIN / -1 is INT_MIN (so x == x/y*y + x%y always), shift
// counts are taken modulo 64 and a 32-bit shift by 32..63 gives 0 (<<) or the sign (>>),
// as slw/sraw do; >> is arithmetic (every type is signed). Comparisons of doubles follow
// IEEE (NaN is unordered: every comparison but != is false); a double is true when it is
// not 0 (NaN is true). int64 / and % run an inline shift-and-subtract loop (the 440 has
// no 64-bit divide): up to about 900 instructions.
//
// arg(i, type) reads argument registers by class: r(3+i) for int, the pair r(3+i):r(4+i)
// for int64 (i even, as the SysV ABI aligns pairs), f(1+i) for double; i equals the C
// argument position when the earlier arguments are word-sized. retval reads r3, r3:r4 or
// f1. rank() and counter(name) are the HcRank and HcCounter hypercalls of bgl/abi,
// comm_size() and comm_rank() HcCommInfo;
// timebase() reads TBU/TBL where the snippet reaches it; PointTimebase() is the time base
// as the trampoline read it on arrival (Code.PointTime: right after its stwu, saving only
// r0, r3 and CR first, into FrameTBU/FrameTBL), so two snippets timing one interval measure
// the same cycles whatever registers each makes the trampoline save; call() calls a program
// function (or, built with CallAt, a
// function at an address known when the expression is built: a loaded C module's, see
// probes/cobj) through CTR with the ABI's
// registers (at most r3..r10 and f1..f8); send() builds a packet on the frame and makes
// the HcAisSend hypercall (r3 = address, r4 = length): header {tag, count} then 16-byte
// records {kind, 0, value}, see DecodeSend.
//
// # Registers and the call stack
//
// Reg(n) reads a GPR as the program had it at the point (r0 and r3..r12 from the save
// slots, r1 from the frame's back chain, the others directly: nothing in a snippet or a
// trampoline writes them), LR() the link register from FrameLR (Code.LR asks the
// trampoline to save it). Ustack(depth), a send operand like a whole array, sends depth
// return addresses innermost first: LR, then the LR saved 4 bytes above each frame of the
// r1 back chain. At an entry or exit that is the chain of callers (inside a body, after the
// prologue, LR comes first as it stands). Each link must be non-null and above the last, and
// its two loads are guarded like Load's, so a broken chain ends the walk (a fault counted)
// without stopping the rank; the rest is 0. Cost: 18 instructions per frame. The front-end
// names the addresses with Program.FrameAt and Stack: the function and file:line of the
// call (pc-4), the offset of pc itself, as "work+0x2c (app.c:17)".
//
// StackSample is one sampled stack; Program.InlinedFrames gives the inlined frames at an
// address from DWARF, innermost first. The Lua host (script/dpcl) turns the samples into a
// pprof profile with them: this package uses the standard library only.
//
// # Leaving a function: skip and replacement
//
// Skip(v) and Jump(fn) (JumpAt for a C module's function) are allowed at entries only
// (CheckAt). Skip writes v into the save slot of r3 (r3:r4, f1) and sets FrameLeave to 1;
// Jump sets it to the function's address. A trampoline with such a snippet (Code.Leave)
// clears FrameLeave before its snippets and tests it after them: set, it restores the
// registers and returns to the caller with blr (LR is still the caller's at an entry) or
// branches through CTR to the replacement, which gets the caller's arguments and returns
// to the caller. r0, CR0 and CTR, which this exit uses, are volatile at a call. At an
// entry that is a loop head, the loop's branches are redirected to Resume as for any entry
// probe, so a skip or replacement acts once per call, never inside the loop.
//
// # Data
//
// Arrays and stacks (AllocArray, AllocStack) are slots in the variable window like Vars:
// Index/SetIndex compare the index unsigned against the length (so a negative one is out
// of range too), and an access out of range is skipped (a read yields 0) and increments the
// array's overflow counter, the int just before element 0. A stack's header holds its
// depth in use and its overflow and underflow counters; push refuses on a full stack, pop
// checks depth-1 < Depth unsigned (an empty stack, or a depth word a probe.store broke,
// never reads outside the stack) and yields 0. Push evaluates its operand before reading
// the depth, so s.push(s.pop()) is a no-op.
//
// Load and Store reach program memory at an int address plus a constant offset, with a
// MemType for the C type (char ... double, pointer); unsigned reads as int64 so its value
// is exact, float as double, and a store's value is what the memory reads back (Narrow).
// Accesses are not checked: each may fault, and Compile lists them in Code.Faults with an
// out-of-line fixup (zero the result, increment Target.FaultCounter, resume after the
// access). BuildTrampoline turns them into absolute Trampoline.Fixups, which the runtime
// gives to the machine's fault redirection, so a wild load yields 0 and the rank goes on.
// Program.Global types a global from DWARF (typedefs and qualifiers resolved; unions,
// bit-fields, arrays of unknown length and long double are GlobalErrors) at its ELF symbol's
// address (ObjectGlobal does the same for a loaded C module's global, from the object's own
// DWARF, whose variable addresses are section offsets); a struct or array global is an
// aggregate lvalue (Exp.Shape) that Member and Element narrow down to a scalar load named
// like C ("grid.s[1]").
//
// PointIndex and FuncIndex compile to an "addis r,0,-1; ori r,r,0xffff" pair per use
// (Code.Idents): Code.ForPoint rewrites the pairs for one point (its index in the list it
// was installed on, its function's index in Program.Funcs) without changing the size, so
// one compilation still serves every point and node; unplaced code reads -1.
//
// Sum(n, body) is a loop: body(i) summed for i = 0 .. n-1 (int64, or double for a double
// body), its index, bound and accumulator in frame scratch so the body may use every
// register, call and make hypercalls. n is often read from the program, so it is checked
// with one unsigned compare: a negative n runs 0 times, one above MaxSum (65,536, the
// largest job) MaxSum times, and either counts a fault (Code.Bounded asks the runtime for
// the fault counter). An index used outside its sum's body is a CompileError. CommSize and
// CommRank ask the MPI engine (abi.HcCommInfo) for a communicator's size, an
// intercommunicator's remote size or the caller's rank in it: libmpi keeps groups in the
// engine, and a counts array of a v-variant collective has one entry per rank of one.
//
// A send carries up to MaxSendValues (256) values; Whole(a) as an operand sends every
// element of a through a copy loop. Check keeps each node's type on the node (nodes are
// immutable), so building a tree one checked constructor at a time is linear.
//
// # Code
//
// Compile produces position-independent words: internal branches are relative, variables
// and called functions absolute, constants built with lis/ori and doubles loaded through
// the frame (no literal pool), so one compilation serves every node and any placement.
// Registers come from the volatile set (r3..r12, f1..f13; r0 and f0 are scratch). A
// binary operation parks its left operand in the frame while a non-leaf right operand is
// computed when GPRs run short, an int64 division parks other live values, and values
// live across a call or hypercall are saved to the frame; a tree that still needs more
// registers fails with a CompileError (split it with probe variables). Code records what
// it clobbers and reads so the trampoline saves exactly that.
//
// # Points
//
// A Program is a view of the ppc.Image the machine runs: ppc's loader parses the
// executable once, and probes take its functions (Image.Funcs, FuncNamed), data objects
// (ObjectNamed), line table and DWARF from there. Entry is the first instruction; Point.BranchTarget says a branch inside the function also reaches it (a
// loop head): an entry probe there would fire on every iteration, unless those branches
// (BranchesTo) are redirected with BuildRedirect to the entry trampoline's Resume, which
// runs the original first instruction without the probes. Exits are every instruction that
// leaves the function: blr and conditional returns, b/bc out of it (tail calls), and bctr
// unless a bounds check (cmplwi) or an indexed load (lwzx) in the 12 instructions before
// marks it as a switch dispatch. Call sites are bl, bctrl and bcl other than gcc's
// "bcl 20,31,.+4". Instructions after a lwarx up to its stwcx. are never points.
//
// # Trampolines
//
// A base trampoline (see Frame* for its frame) decrements r1 past StackGap bytes, saves
// the registers its snippets clobber or read (every volatile register, CR, LR, CTR, XER and
// FPSCR when one calls a function), runs each snippet behind a toggle word (nop = active,
// b over it = inactive), restores, runs the displaced instruction relocated and branches
// back. Relocation: b/bl retargeted; bc becomes "bc +8; b next; b target"; bl, bcl and
// bctrl leave LR = original PC + 4 (set through r0, parked under the stack); bclrl is
// refused. Probes at a conditional exit or call (beqlr, a conditional tail call) run only
// when the branch is taken: the trampoline tests the condition first. Snippets that call
// functions are guarded by a per-node word so a probe reached from inside such a call is
// skipped instead of recursing. A removed or replaced trampoline may be freed once
// Busy(pc, ReturnAddresses(...)) is false: no PC, LR, saved return address or LR saved by
// another trampoline's frame points into it.
//
// Errors: those the package makes start "probes: " and are an *Error (wrapping the cause) or
// one of its own types carrying the rank, address or position it concerns; each has
// Package and Unprefixed, which the Lua host uses to name the Lua function instead.
package probes
