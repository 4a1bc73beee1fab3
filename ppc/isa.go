package ppc

import (
	"fmt"
	"sort"
)

// Op identifies one entry of the instruction table. The zero Op is "no instruction".
// Rc, OE, LK and AA are bits of the word, not separate Ops: OpByName("add") covers
// add, add., addo and addo.; "bc" covers every conditional branch including bcl.
type Op uint16

// Class is a coarse grouping of Ops for cost tables and counters.
type Class uint8

// Instruction classes.
const (
	ClassNone Class = iota
	ClassInt
	ClassMul
	ClassDiv
	ClassLoad
	ClassStore
	ClassBranch
	ClassCR
	ClassSPR
	ClassSync
	ClassCache
	ClassSyscall
	ClassTrap
	ClassFP
	ClassFPLoad
	ClassFPStore
	ClassFPDiv
	ClassMAC
	ClassString
	ClassPriv
	numClasses
)

var classNames = [numClasses]string{
	"none", "int", "mul", "div", "load", "store", "branch", "cr", "spr", "sync", "cache",
	"syscall", "trap", "fp", "fpload", "fpstore", "fpdiv", "mac", "string", "priv",
}

// String returns the class name in lower case ("load", "fpdiv", ...).
func (c Class) String() string {
	if c < numClasses {
		return classNames[c]
	}
	return fmt.Sprintf("Class(%d)", uint8(c))
}

// Inst is one decoded instruction. Word keeps every bit of the original word, reserved
// bits and branch hints included, so Encode(inst) gives the word back.
type Inst struct {
	Op   Op
	Word uint32
}

// DecodeError reports a word that is not in the table.
type DecodeError struct {
	Word uint32
}

func (e *DecodeError) Error() string {
	return fmt.Sprintf("ppc: decode 0x%08x: not a PowerPC 440 instruction", e.Word)
}

// Name returns the canonical ISA mnemonic of op ("add", "bc", "andi.", "rlwinm").
func (op Op) Name() string {
	if int(op) < len(table) && op != 0 {
		return table[op].name
	}
	return fmt.Sprintf("Op(%d)", uint16(op))
}

// String is Name.
func (op Op) String() string { return op.Name() }

// Class returns the instruction class of op.
func (op Op) Class() Class {
	if int(op) < len(table) {
		return table[op].class
	}
	return ClassNone
}

// Args lists the operands of op in the order the base mnemonic takes them; Build and
// BuildFields use this order.
func (op Op) Args() []Arg {
	if int(op) < len(table) && op != 0 {
		return append([]Arg(nil), table[op].args...)
	}
	return nil
}

// HasRc reports whether bit 31 of op's word is the Rc ("record", the "." suffix) bit.
func (op Op) HasRc() bool { return op.flags()&fRc != 0 }

// HasOE reports whether bit 21 of op's word is the OE (overflow enable, "o" suffix) bit.
func (op Op) HasOE() bool { return op.flags()&fOE != 0 }

// HasLK reports whether bit 31 of op's word is the LK (link) bit.
func (op Op) HasLK() bool { return op.flags()&fLK != 0 }

// HasAA reports whether bit 30 of op's word is the AA (absolute address) bit.
func (op Op) HasAA() bool { return op.flags()&fAA != 0 }

// GNU reports whether objdump's 440 dialect names op at all; Ops it does not name (the
// POWER9 mffs forms glibc carries) print as ".long".
func (op Op) GNU() bool { return op.flags()&fNotGNU == 0 }

func (op Op) flags() specFlag {
	if int(op) < len(table) {
		return table[op].flags
	}
	return 0
}

// Ops returns every Op of the table in table order.
func Ops() []Op {
	ops := make([]Op, 0, len(table)-1)
	for i := 1; i < len(table); i++ {
		ops = append(ops, Op(i))
	}
	return ops
}

// OpByName returns the Op whose canonical name is name.
func OpByName(name string) (Op, bool) {
	op, ok := opNames[name]
	return op, ok
}

// Decode looks w up in the instruction table. A word the 440 does not have returns a
// *DecodeError and the zero Inst.
func Decode(w uint32) (Inst, error) {
	var cands []Op
	if sub := subTables[w>>26]; sub != nil {
		cands = sub[w&0x7ff]
	} else {
		cands = primary[w>>26]
	}
	for _, op := range cands {
		s := &table[op]
		if w&s.mask == s.value {
			return Inst{Op: op, Word: w}, nil
		}
	}
	return Inst{}, &DecodeError{Word: w}
}

// Encode returns the word of inst: the opcode bits of inst.Op over every other bit of
// inst.Word. For a decoded Inst this is the original word.
func Encode(inst Inst) uint32 {
	if inst.Op == 0 || int(inst.Op) >= len(table) {
		panic(fmt.Sprintf("ppc: Encode of invalid Op %d", inst.Op))
	}
	s := &table[inst.Op]
	return s.value | inst.Word&^s.mask
}

// Lookup tables built from table at init: primary[p] lists the Ops of primary opcode p
// without extended opcodes; subTables[p][low11] those that have one, most specific first.
var (
	primary   [64][]Op
	subTables [64]*[2048][]Op
	opNames   = map[string]Op{}
)

// The tables derived from table are built in dependency order by one init.
func init() {
	buildLookup()
	buildOperands()
	buildAliases()
	buildAsmForms()
}

// buildLookup fills primary, subTables and opNames.
func buildLookup() {
	for i := 1; i < len(table); i++ {
		s := &table[i]
		s.reserved = ^(s.mask | s.args.bits() | s.flags.bits())
		if _, dup := opNames[s.name]; dup {
			panic("ppc: duplicate table entry " + s.name)
		}
		opNames[s.name] = Op(i)
	}
	order := make([]Op, 0, len(table))
	for i := 1; i < len(table); i++ {
		order = append(order, Op(i))
	}
	// Most specific mask first, so mffscrn wins over the mffs it refines.
	sort.SliceStable(order, func(a, b int) bool {
		return popcount(table[order[a]].mask) > popcount(table[order[b]].mask)
	})
	for _, op := range order {
		s := &table[op]
		p := s.value >> 26
		if s.mask&0x7ff == 0 {
			primary[p] = append(primary[p], op)
			continue
		}
		if subTables[p] == nil {
			subTables[p] = new([2048][]Op)
		}
		for low := uint32(0); low < 2048; low++ {
			if low&s.mask == s.value&0x7ff {
				subTables[p][low] = append(subTables[p][low], op)
			}
		}
	}
	for p := range primary {
		if subTables[p] != nil && len(primary[p]) > 0 {
			panic(fmt.Sprintf("ppc: primary opcode %d mixes forms with and without extended opcode", p))
		}
	}
}

func popcount(x uint32) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}
