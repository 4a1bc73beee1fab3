package ppc

import "fmt"

// EncodeError reports operands that do not fit an instruction's fields.
type EncodeError struct {
	Op     Op
	Arg    Arg
	Value  int64
	Reason string
}

func (e *EncodeError) Error() string {
	if e.Arg == ArgNone {
		return fmt.Sprintf("ppc: encode %s: %s", e.Op.Name(), e.Reason)
	}
	return fmt.Sprintf("ppc: encode %s: operand %s = %d: %s", e.Op.Name(), e.Arg, e.Value, e.Reason)
}

// Build returns the instruction op with its operands set from args, given in the order
// of op.Args() (the base mnemonic's order; BD and LI are byte displacements relative to
// the instruction, or absolute addresses when the AA bit is then set; SPR numbers are
// plain numbers). Rc, OE, LK and AA start clear: set them with WithRc and friends.
//
//	addi, _ := ppc.OpByName("addi")
//	inst, err := ppc.Build(addi, 3, 1, 16) // addi r3,r1,16
func Build(op Op, args ...int64) (Inst, error) {
	if op == 0 || int(op) >= len(table) {
		return Inst{}, &EncodeError{Op: op, Reason: "no such Op"}
	}
	s := &table[op]
	if len(args) != len(s.args) {
		return Inst{}, &EncodeError{Op: op, Reason: fmt.Sprintf("want %d operands %v, got %d", len(s.args), s.args, len(args))}
	}
	w := s.value
	for i, a := range s.args {
		var ok bool
		if w, ok = a.Insert(w, args[i]); !ok {
			return Inst{}, &EncodeError{Op: op, Arg: a, Value: args[i], Reason: "out of range"}
		}
	}
	return Inst{Op: op, Word: w}, nil
}

// MustBuild is Build for operands known to fit (code generator templates); it panics
// on an error, which is a programming mistake.
func MustBuild(op Op, args ...int64) Inst {
	inst, err := Build(op, args...)
	if err != nil {
		panic(err)
	}
	return inst
}

// Arg returns the value of operand a of inst (as Arg.Value reads it).
func (i Inst) Arg(a Arg) int64 { return a.Value(i.Word) }

// WithArg returns inst with operand a set to v.
func (i Inst) WithArg(a Arg, v int64) (Inst, error) {
	w, ok := a.Insert(i.Word, v)
	if !ok {
		return i, &EncodeError{Op: i.Op, Arg: a, Value: v, Reason: "out of range"}
	}
	return Inst{Op: i.Op, Word: w}, nil
}

// WithRc sets or clears the Rc (".") bit; it panics if inst's Op has none.
func (i Inst) WithRc(on bool) Inst { return i.withFlag(fRc, 1, on) }

// WithOE sets or clears the OE ("o") bit; it panics if inst's Op has none.
func (i Inst) WithOE(on bool) Inst { return i.withFlag(fOE, 1<<10, on) }

// WithLK sets or clears the LK (link) bit; it panics if inst's Op has none.
func (i Inst) WithLK(on bool) Inst { return i.withFlag(fLK, 1, on) }

// WithAA sets or clears the AA (absolute) bit; it panics if inst's Op has none.
func (i Inst) WithAA(on bool) Inst { return i.withFlag(fAA, 2, on) }

func (i Inst) withFlag(f specFlag, bit uint32, on bool) Inst {
	if i.Op.flags()&f == 0 {
		panic(fmt.Sprintf("ppc: %s has no such flag bit", i.Op.Name()))
	}
	if on {
		i.Word |= bit
	} else {
		i.Word &^= bit
	}
	return i
}

// Branch returns "b target" (or "bl" with link) placed at pc; the target must lie within
// the +-32 MiB reach of a relative branch and be word aligned.
func Branch(pc, target uint32, link bool) (uint32, error) {
	inst, err := Build(opB, int64(int32(target-pc)))
	if err != nil {
		return 0, fmt.Errorf("ppc: branch from %#x to %#x: %w", pc, target, err)
	}
	return inst.WithLK(link).Word, nil
}

// BranchCond returns "bc bo,bi,target" placed at pc (+-32 KiB reach).
func BranchCond(pc uint32, bo, bi uint8, target uint32, link bool) (uint32, error) {
	inst, err := Build(opBc, int64(bo), int64(bi), int64(int32(target-pc)))
	if err != nil {
		return 0, fmt.Errorf("ppc: conditional branch from %#x to %#x: %w", pc, target, err)
	}
	return inst.WithLK(link).Word, nil
}

// BranchTarget returns the address a b or bc instruction at pc jumps to, and false for
// other instructions.
func BranchTarget(inst Inst, pc uint32) (uint32, bool) {
	var d int64
	switch inst.Op {
	case opB:
		d = ArgLI.Value(inst.Word)
	case opBc:
		d = ArgBD.Value(inst.Word)
	default:
		return 0, false
	}
	if inst.Word&2 != 0 {
		return uint32(d), true
	}
	return pc + uint32(d), true
}
