package ppc

import (
	"fmt"
	"strings"
)

// AsmError reports text Assemble cannot turn into a word.
type AsmError struct {
	Text   string
	Reason string
}

func (e *AsmError) Error() string {
	return fmt.Sprintf("ppc: assemble %q: %s", e.Text, e.Reason)
}

// asmForm is one way to write a mnemonic: the Op, the bits the mnemonic fixes, its
// operands, and for aliases the condition the word must still meet.
type asmForm struct {
	op    Op
	value uint32
	ops   []operand
	hint  byte // '+' or '-': the y bit follows from the displacement
	al    *alias
}

var asmForms = map[string][]asmForm{}

// suffix is a mnemonic ending and the bits it sets.
type suffix struct {
	text string
	bits uint32
}

func suffixes(fl specFlag) []suffix {
	out := []suffix{{"", 0}}
	add := func(text string, bit uint32) {
		for _, s := range out {
			out = append(out, suffix{s.text + text, s.bits | bit})
		}
	}
	if fl&fOE != 0 {
		add("o", 1<<10)
	}
	if fl&fLK != 0 {
		add("l", 1)
	}
	if fl&fAA != 0 {
		add("a", 2)
	}
	if fl&fRc != 0 {
		add(".", 1)
	}
	return out
}

// buildAsmForms indexes every spelling Assemble accepts.
func buildAsmForms() {
	for i := 1; i < len(table); i++ {
		s, op := &table[i], Op(i)
		for _, sf := range suffixes(s.flags) {
			f := asmForm{op: op, value: s.value | sf.bits, ops: baseOperands[op]}
			asmForms[s.name+sf.text] = append(asmForms[s.name+sf.text], f)
			if s.class == ClassBranch && s.name != "b" {
				asmForms[s.name+sf.text+"+"] = append(asmForms[s.name+sf.text+"+"], f)
			}
		}
		for j := range opAliases[op] {
			al := &opAliases[op][j]
			for _, sf := range suffixes(s.flags) {
				f := asmForm{op: op, value: s.value | al.value | sf.bits, ops: al.ops, al: al}
				name := al.name + sf.text
				asmForms[name] = append(asmForms[name], f)
				if al.hint {
					for _, h := range []byte{'+', '-'} {
						f.hint = h
						asmForms[name+string(h)] = append(asmForms[name+string(h)], f)
					}
				}
			}
		}
	}
}

// Assemble turns one instruction in objdump's syntax (as Disasm prints it, extended
// mnemonics included) into its word; pc resolves branch targets. ".long N" gives N.
func Assemble(text string, pc uint32) (uint32, error) {
	t := strings.TrimSpace(text)
	mn, rest := t, ""
	if i := strings.IndexAny(t, " \t"); i >= 0 {
		mn, rest = t[:i], t[i+1:]
	}
	if t == "" {
		return 0, &AsmError{text, "empty instruction"}
	}
	if mn == ".long" {
		v, ok := parseImm(rest)
		if !ok || v < -(1<<31) || v >= 1<<32 {
			return 0, &AsmError{text, "bad .long value"}
		}
		return uint32(v), nil
	}
	forms, ok := asmForms[mn]
	if !ok {
		return 0, &AsmError{text, fmt.Sprintf("unknown mnemonic %q", mn)}
	}
	var args []string
	if rest = strings.TrimSpace(rest); rest != "" {
		args = strings.Split(rest, ",")
	}
	for i := range forms {
		if w, ok := forms[i].encode(args, pc); ok {
			return w, nil
		}
	}
	return 0, &AsmError{text, fmt.Sprintf("operands do not fit %s", mn)}
}

// encode fills f's operands from args; trailing optional operands may be left out.
func (f *asmForm) encode(args []string, pc uint32) (uint32, bool) {
	nopt := 0
	for _, op := range f.ops {
		if op.opt {
			nopt++
		}
	}
	omit := len(f.ops) - len(args)
	if omit < 0 || omit > nopt {
		return 0, false
	}
	w, aa := f.value, f.op.flags()&fAA != 0 && f.value&2 != 0
	seenOpt, k := 0, 0
	for _, op := range f.ops {
		v := int64(0)
		if op.opt {
			seenOpt++
		}
		if !op.opt || seenOpt <= nopt-omit {
			var ok bool
			if v, ok = parseOperand(args[k], op.kind, pc, aa); !ok {
				return 0, false
			}
			k++
		}
		var ok bool
		if w, ok = op.set(w, v); !ok {
			return 0, false
		}
	}
	if f.hint != 0 {
		w = setHint(w, f.hint)
	}
	inst, err := Decode(w)
	if err != nil || inst.Op != f.op {
		return 0, false
	}
	if al := f.al; al != nil && (w&al.mask != al.value || al.valid != nil && !al.valid(w)) {
		return 0, false
	}
	return w, true
}

// setHint sets BO's y bit so that hintSuffix(w) reads h.
func setHint(w uint32, h byte) uint32 {
	w &^= 1 << 21
	if hintSuffix(w) != h {
		w |= 1 << 21
	}
	return w
}
