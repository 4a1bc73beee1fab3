package ppc

// alias is an extended mnemonic objdump prints for some words of a base Op: "mr" for
// "or" with RS == RB, "beq-" for some "bc" words. Disasm takes the first alias of the
// word's Op that matches; Assemble accepts every alias name.
type alias struct {
	name  string
	mask  uint32 // bits that must equal value (beyond the Op's own opcode bits)
	value uint32
	valid func(w uint32) bool // a relation between fields, when mask cannot say it
	ops   []operand
	// hint: the name gets the branch-prediction suffix "+" or "-" objdump's 440 dialect
	// derives from BO's y bit and the displacement's sign.
	hint bool
}

// f is the operand for field a; o marks an operand optional.
func f(a Arg) operand { return fieldOperand(a) }
func o(op operand) operand {
	op.opt = true
	return op
}

// sameFields returns an operand that reads from the first field and writes all of them.
func sameFields(k fmtKind, as ...Arg) operand {
	return operand{
		kind: k,
		get:  as[0].Value,
		set: func(w uint32, v int64) (uint32, bool) {
			ok := true
			for _, a := range as {
				var ok1 bool
				w, ok1 = a.Insert(w, v)
				ok = ok && ok1
			}
			return w, ok
		},
	}
}

func fieldsEqual(as ...Arg) func(uint32) bool {
	return func(w uint32) bool {
		for _, a := range as[1:] {
			if a.raw(w) != as[0].raw(w) {
				return false
			}
		}
		return true
	}
}

// computed returns an operand of kind kImm stored through get/set functions.
func computed(get func(uint32) int64, set func(uint32, int64) (uint32, bool)) operand {
	return operand{kind: kImm, get: get, set: set}
}

// constOperand prints a fixed number (the n of "mfsprg r3,4") that the alias's mask
// already encodes; on input it must equal n.
func constOperand(n int64) operand {
	return computed(func(uint32) int64 { return n },
		func(w uint32, v int64) (uint32, bool) { return w, v == n })
}

// Field bit masks used by alias conditions.
var (
	mRT  = ArgRT.Bits()
	mRA  = ArgRA.Bits()
	mRB  = ArgRB.Bits()
	mBO  = ArgBO.Bits()
	mBOz = mBO &^ (1 << 21) // BO without the y (hint) bit
	mBI  = ArgBI.Bits()
	mSH  = ArgSH.Bits()
	mMB  = ArgMB.Bits()
	mME  = ArgME.Bits()
)

func bo(n uint32) uint32 { return n << 21 }
func bi(n uint32) uint32 { return n << 16 }

// aliases maps each Op name to its extended mnemonics in objdump's order of preference.
var aliases = map[string][]alias{}

// opAliases holds the resolved aliases per Op, built at init.
var opAliases [][]alias

func addAliases(op string, as ...alias) { aliases[op] = append(aliases[op], as...) }

// buildAliases collects the extended mnemonics per Op.
func buildAliases() {
	aliasInt()
	aliasRotate()
	aliasBranch()
	aliasCR()
	aliasSPR()
	opAliases = make([][]alias, len(table))
	for name, as := range aliases {
		op, ok := OpByName(name)
		if !ok {
			panic("ppc: alias for unknown op " + name)
		}
		opAliases[op] = as
	}
}
