package ppc

import (
	"strconv"
	"strings"
)

// fmtKind says how an operand value is written in objdump syntax.
type fmtKind uint8

const (
	kImm    fmtKind = iota // decimal
	kGPR                   // rN
	kGPR0                  // rN, or 0 when N is 0 (base register of RA0 forms)
	kFPR                   // fN
	kCRF                   // crN
	kCRBit                 // lt/gt/eq/so, or 4*crN+lt
	kTarget                // branch target: absolute address in hex
	kDisp                  // d(rA) with rA as kGPR0; value packs disp<<5|ra
)

// operand is one printed operand: how to read it from the word, write it into a word
// (for Assemble), and whether it may be left out.
type operand struct {
	kind fmtKind
	get  func(w uint32) int64
	set  func(w uint32, v int64) (uint32, bool)
	// opt: omitted when it and every later optional operand read as zero.
	opt bool
}

// fieldOperand returns the operand reading and writing Arg a directly.
func fieldOperand(a Arg) operand {
	op := operand{
		kind: argKinds[a],
		get:  a.Value,
		set:  a.Insert,
	}
	if a == ArgNB {
		op.get = func(w uint32) int64 { return (ArgNB.Value(w)+31)%32 + 1 }
		op.set = func(w uint32, v int64) (uint32, bool) {
			if v < 1 || v > 32 {
				return w, false
			}
			return ArgNB.Insert(w, v%32)
		}
	}
	if a == ArgD {
		op.get = func(w uint32) int64 { return ArgD.Value(w)<<5 | int64(ArgRA0.raw(w)) }
		op.set = func(w uint32, v int64) (uint32, bool) {
			w, ok := ArgD.Insert(w, v>>5)
			w2, ok2 := ArgRA0.Insert(w, v&31)
			return w2, ok && ok2
		}
	}
	return op
}

var argKinds = [numArgs]fmtKind{
	ArgRT: kGPR, ArgRA: kGPR, ArgRA0: kGPR0, ArgRB: kGPR,
	ArgFRT: kFPR, ArgFRA: kFPR, ArgFRB: kFPR, ArgFRC: kFPR,
	ArgD: kDisp, ArgBI: kCRBit, ArgBD: kTarget, ArgLI: kTarget,
	ArgBF: kCRF, ArgBFA: kCRF, ArgBT: kCRBit, ArgBA: kCRBit, ArgBB: kCRBit, ArgBC: kCRBit,
}

var crBitNames = [4]string{"lt", "gt", "eq", "so"}

// format appends the objdump text of value v of kind k; pc and aa resolve targets.
func format(b []byte, k fmtKind, v int64, pc uint32, aa bool) []byte {
	switch k {
	case kGPR:
		return strconv.AppendInt(append(b, 'r'), v, 10)
	case kGPR0:
		if v == 0 {
			return append(b, '0')
		}
		return strconv.AppendInt(append(b, 'r'), v, 10)
	case kFPR:
		return strconv.AppendInt(append(b, 'f'), v, 10)
	case kCRF:
		return strconv.AppendInt(append(b, "cr"...), v, 10)
	case kCRBit:
		if v >= 4 {
			b = strconv.AppendInt(append(b, "4*cr"...), v>>2, 10)
			b = append(b, '+')
		}
		return append(b, crBitNames[v&3]...)
	case kTarget:
		t := uint32(v)
		if !aa {
			t += pc
		}
		return strconv.AppendUint(b, uint64(t), 16)
	case kDisp:
		b = strconv.AppendInt(b, v>>5, 10)
		b = append(b, '(')
		b = format(b, kGPR0, v&31, pc, aa)
		return append(b, ')')
	}
	return strconv.AppendInt(b, v, 10)
}

// parseOperand reads one operand of kind k from objdump-syntax text.
func parseOperand(s string, k fmtKind, pc uint32, aa bool) (int64, bool) {
	s = strings.TrimSpace(s)
	switch k {
	case kGPR, kGPR0:
		if k == kGPR0 && s == "0" {
			return 0, true
		}
		return parseReg(s, "r", 32)
	case kFPR:
		return parseReg(s, "f", 32)
	case kCRF:
		return parseReg(s, "cr", 8)
	case kCRBit:
		return parseCRBit(s)
	case kTarget:
		s = strings.TrimPrefix(s, "0x")
		t, err := strconv.ParseUint(s, 16, 32)
		if err != nil {
			return 0, false
		}
		if aa {
			return int64(int32(t)), true
		}
		return int64(int32(uint32(t) - pc)), true
	case kDisp:
		open := strings.IndexByte(s, '(')
		if open < 0 || !strings.HasSuffix(s, ")") {
			return 0, false
		}
		d, ok := parseImm(s[:open])
		ra, ok2 := parseOperand(s[open+1:len(s)-1], kGPR0, pc, aa)
		return d<<5 | ra, ok && ok2
	}
	return parseImm(s)
}

func parseReg(s, prefix string, n int64) (int64, bool) {
	if !strings.HasPrefix(s, prefix) {
		return 0, false
	}
	v, err := strconv.ParseInt(s[len(prefix):], 10, 32)
	if err != nil || v < 0 || v >= n {
		return 0, false
	}
	return v, true
}

func parseCRBit(s string) (int64, bool) {
	var cr int64
	if rest, ok := strings.CutPrefix(s, "4*cr"); ok {
		plus := strings.IndexByte(rest, '+')
		if plus != 1 || rest[0] < '0' || rest[0] > '7' {
			return 0, false
		}
		cr, s = int64(rest[0]-'0'), rest[plus+1:]
	}
	for i, n := range crBitNames {
		if s == n {
			return cr*4 + int64(i), true
		}
	}
	if cr == 0 {
		if v, ok := parseImm(s); ok && v >= 0 && v < 32 {
			return v, true
		}
	}
	return 0, false
}

func parseImm(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	v, err := strconv.ParseInt(s, 0, 64)
	if err != nil {
		u, err2 := strconv.ParseUint(s, 0, 64)
		if err2 != nil {
			return 0, false
		}
		return int64(u), true
	}
	return v, true
}
