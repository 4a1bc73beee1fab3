package ppc

import "strconv"

// Disasm returns the text objdump -d -z -M440 prints for inst at address pc: extended
// mnemonics, branch targets as absolute lower-case hex, ".long 0x..." for words its 440
// dialect does not name.
func Disasm(inst Inst, pc uint32) string {
	return string(AppendDisasm(make([]byte, 0, 32), inst, pc))
}

// DisasmWord decodes and prints w; words that do not decode print as ".long".
func DisasmWord(w uint32, pc uint32) string {
	return string(appendWord(make([]byte, 0, 32), w, pc))
}

// appendWord appends the text of any word: a decoded instruction, one of the words only
// objdump names (gnuOnly), or ".long".
func appendWord(b []byte, w, pc uint32) []byte {
	if inst, err := Decode(w); err == nil {
		return AppendDisasm(b, inst, pc)
	}
	for i := range gnuOnly {
		s := &gnuOnly[i]
		if w&s.mask == s.value && w&s.reserved == 0 {
			return appendInst(b, s.name, false, s.flags, gnuOnlyOperands[i], w, pc)
		}
	}
	return appendLong(b, w)
}

// AppendDisasm appends the text of Disasm to b.
func AppendDisasm(b []byte, inst Inst, pc uint32) []byte {
	w := inst.Word
	if inst.Op == 0 || int(inst.Op) >= len(table) {
		return appendLong(b, w)
	}
	s := &table[inst.Op]
	rule := gnuRules[s.name]
	if s.flags&fNotGNU != 0 || w&s.mask != s.value || w&s.reserved&^rule.loose != 0 {
		return appendLong(b, w)
	}
	for i := range opAliases[inst.Op] {
		al := &opAliases[inst.Op][i]
		if w&al.mask == al.value && (al.valid == nil || al.valid(w)) {
			return appendInst(b, al.name, al.hint, s.flags, al.ops, w, pc)
		}
	}
	if rule.valid != nil && !rule.valid(w) {
		return appendLong(b, w)
	}
	// Plain bc, bclr and bcctr only ever print "+": the y bit set on a branch whose
	// default prediction is not taken.
	hint := s.class == ClassBranch && s.name != "b" && w&(1<<21) != 0 && hintSuffix(w) == '+'
	return appendInst(b, s.name, hint, s.flags, baseOperands[inst.Op], w, pc)
}

func appendLong(b []byte, w uint32) []byte {
	return strconv.AppendUint(append(b, ".long 0x"...), uint64(w), 16)
}

// appendInst writes mnemonic (with the suffixes the word's flag bits ask for) and operands.
func appendInst(b []byte, name string, hint bool, fl specFlag, ops []operand, w, pc uint32) []byte {
	start := len(b)
	b = append(b, name...)
	b = appendSuffixes(b, fl, w)
	if hint {
		b = append(b, hintSuffix(w))
	}
	if len(ops) == 0 {
		return b
	}
	b = append(b, ' ')
	for len(b)-start < 8 {
		b = append(b, ' ')
	}
	aa := fl&fAA != 0 && w&2 != 0
	first, skip := true, false
	for i, op := range ops {
		if op.opt && !skip {
			skip = optionalsZero(ops[i:], w)
		}
		if op.opt && skip {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = format(b, op.kind, op.get(w), pc, aa)
	}
	return b
}

func appendSuffixes(b []byte, fl specFlag, w uint32) []byte {
	if fl&fOE != 0 && w&(1<<10) != 0 {
		b = append(b, 'o')
	}
	if fl&fLK != 0 && w&1 != 0 {
		b = append(b, 'l')
	}
	if fl&fAA != 0 && w&2 != 0 {
		b = append(b, 'a')
	}
	if fl&fRc != 0 && w&1 != 0 {
		b = append(b, '.')
	}
	return b
}

// hintSuffix is objdump's reading of the 440's static branch prediction: the y bit of BO
// reverses the default (backward taken, forward not taken); "-" means predicted not taken.
func hintSuffix(w uint32) byte {
	y := w >> 21 & 1
	var back uint32
	if w>>26 == 16 {
		back = w >> 15 & 1
	}
	if y == back {
		return '-'
	}
	return '+'
}

func optionalsZero(ops []operand, w uint32) bool {
	for _, op := range ops {
		if op.opt && op.get(w) != 0 {
			return false
		}
	}
	return true
}

// baseOperands holds each Op's operands in base-mnemonic form; gnuOnlyOperands those
// of the gnuOnly words.
var baseOperands, gnuOnlyOperands [][]operand

// buildOperands resolves each entry's operand list for printing and assembling.
func buildOperands() {
	baseOperands = make([][]operand, len(table))
	for i := 1; i < len(table); i++ {
		rule := gnuRules[table[i].name]
		for j, a := range table[i].args {
			if a == ArgRA0 && j > 0 && table[i].args[j-1] == ArgD {
				continue // printed inside d(rA)
			}
			op := fieldOperand(a)
			for _, oa := range rule.opt {
				op.opt = op.opt || oa == a
			}
			baseOperands[i] = append(baseOperands[i], op)
		}
	}
	gnuOnlyOperands = make([][]operand, len(gnuOnly))
	for i := range gnuOnly {
		s := &gnuOnly[i]
		s.reserved = ^(s.mask | s.args.bits() | s.flags.bits())
		for _, a := range s.args {
			gnuOnlyOperands[i] = append(gnuOnlyOperands[i], fieldOperand(a))
		}
	}
}
