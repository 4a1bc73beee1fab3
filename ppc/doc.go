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
// # Interpreter
//
// INTERPRETER SECTION: to be written with the interpreter (cpu*, exec*, mem*, elf*,
// load*, block*, fp*, counters* files).
package ppc
