package ppc

// Arg is an operand kind: which bits of the word it occupies and how it reads.
type Arg uint8

// Operand kinds. Bit positions follow the word's LSB-0 shifts in argFields.
const (
	ArgNone  Arg = iota
	ArgRT        // GPR, bits 6-10 (also RS)
	ArgRA        // GPR, bits 11-15
	ArgRA0       // GPR or the literal 0 when the field is 0, bits 11-15
	ArgRB        // GPR, bits 16-20
	ArgFRT       // FPR, bits 6-10 (also FRS)
	ArgFRA       // FPR, bits 11-15
	ArgFRB       // FPR, bits 16-20
	ArgFRC       // FPR, bits 21-25
	ArgSI        // signed 16-bit immediate
	ArgUI        // unsigned 16-bit immediate
	ArgD         // signed 16-bit displacement, printed d(rA) with the ArgRA0 after it
	ArgBO        // branch options, bits 6-10
	ArgBI        // condition register bit tested, bits 11-15
	ArgBD        // 14-bit word displacement of bc, bits 16-29
	ArgLI        // 24-bit word displacement of b, bits 6-29
	ArgSH        // shift amount, bits 16-20
	ArgMB        // mask begin, bits 21-25
	ArgME        // mask end, bits 26-30
	ArgBF        // CR field, bits 6-8
	ArgBFA       // CR field, bits 11-13
	ArgL         // compare length bit 10
	ArgBT        // CR bit, bits 6-10
	ArgBA        // CR bit, bits 11-15
	ArgBB        // CR bit, bits 16-20
	ArgSPR       // special purpose register number, halves swapped in bits 11-20
	ArgCRM       // CR field mask of mtcrf, bits 12-19
	ArgFLM       // FPSCR field mask of mtfsf, bits 7-14
	ArgTO        // trap conditions, bits 6-10
	ArgNB        // string byte count, bits 16-20
	ArgU         // mtfsfi immediate, bits 16-19
	ArgDCRN      // device control register number, halves swapped in bits 11-20
	ArgE         // wrteei bit 16
	ArgBC        // isel CR bit, bits 21-25
	ArgMO        // mbar ordering, bits 6-10
	ArgCT        // cache touch hint of icbt, bits 7-10
	ArgWS        // TLB word select, bits 16-20
	ArgSyncL     // sync L field, bits 9-10
	ArgFXM       // single field of mfocrf/mtocrf, bits 12-19
	ArgBFF       // mtfsfi FPSCR field, bits 6-8, written as a number
	ArgBTF       // FPSCR bit of mtfsb0/mtfsb1, bits 6-10, written as a number
	ArgLEV       // sc level, bits 20-26
	ArgEH        // lwarx exclusive-access hint, bit 31
	ArgBH        // bclr/bcctr branch hint, bits 19-20
	ArgML        // mtmsr L bit 15
	ArgDL        // dcbf L field, bits 9-10
	ArgSR        // segment register number, bits 12-15
	ArgAL        // frsqrte A bit 15
	numArgs
)

// argField is the position of an operand: width bits at shift (LSB 0).
type argField struct {
	shift, width uint8
}

var argFields = [numArgs]argField{
	ArgRT: {21, 5}, ArgRA: {16, 5}, ArgRA0: {16, 5}, ArgRB: {11, 5},
	ArgFRT: {21, 5}, ArgFRA: {16, 5}, ArgFRB: {11, 5}, ArgFRC: {6, 5},
	ArgSI: {0, 16}, ArgUI: {0, 16}, ArgD: {0, 16},
	ArgBO: {21, 5}, ArgBI: {16, 5}, ArgBD: {2, 14}, ArgLI: {2, 24},
	ArgSH: {11, 5}, ArgMB: {6, 5}, ArgME: {1, 5},
	ArgBF: {23, 3}, ArgBFA: {18, 3}, ArgL: {21, 1},
	ArgBT: {21, 5}, ArgBA: {16, 5}, ArgBB: {11, 5},
	ArgSPR: {11, 10}, ArgCRM: {12, 8}, ArgFLM: {17, 8}, ArgTO: {21, 5}, ArgNB: {11, 5},
	ArgU: {12, 4}, ArgDCRN: {11, 10}, ArgE: {15, 1}, ArgBC: {6, 5}, ArgMO: {21, 5},
	ArgCT: {21, 5}, ArgWS: {11, 5}, ArgSyncL: {21, 2}, ArgFXM: {12, 8}, ArgBFF: {23, 3},
	ArgBTF: {21, 5}, ArgLEV: {5, 7}, ArgEH: {0, 1}, ArgBH: {11, 2}, ArgML: {16, 1}, ArgDL: {21, 2}, ArgSR: {16, 4}, ArgAL: {16, 1},
}

var argNames = [numArgs]string{
	"", "RT", "RA", "RA0", "RB", "FRT", "FRA", "FRB", "FRC", "SI", "UI", "D", "BO", "BI",
	"BD", "LI", "SH", "MB", "ME", "BF", "BFA", "L", "BT", "BA", "BB", "SPR", "CRM", "FLM",
	"TO", "NB", "U", "DCRN", "E", "BC", "MO", "CT", "WS", "L", "FXM", "BF", "BT", "LEV", "EH", "BH", "L", "L", "SR", "A",
}

// String names the operand kind as the ISA books do ("RT", "SI", "BD").
func (a Arg) String() string {
	if a < numArgs {
		return argNames[a]
	}
	return "Arg?"
}

// Bits returns the mask of the word's bits the operand occupies.
func (a Arg) Bits() uint32 {
	f := argFields[a]
	return (1<<f.width - 1) << f.shift
}

// Extract returns the raw (unsigned, unswapped) field value of a in w.
func (a Arg) raw(w uint32) uint32 {
	f := argFields[a]
	return w >> f.shift & (1<<f.width - 1)
}

// Value returns the operand's numeric value in w: sign-extended for SI, D, BD and LI
// (BD and LI in bytes), SPR and DCRN numbers with their halves put back in order.
func (a Arg) Value(w uint32) int64 {
	switch a {
	case ArgSI:
		return int64(int16(w))
	case ArgD:
		return int64(int16(w))
	case ArgBD:
		return int64(int16(w & 0xfffc))
	case ArgLI:
		return int64(int32(w&0x03fffffc<<6) >> 6)
	case ArgSPR, ArgDCRN:
		r := a.raw(w)
		return int64(r>>5 | (r&31)<<5)
	}
	return int64(a.raw(w))
}

// Insert returns w with operand a set to v, or ok=false when v does not fit.
func (a Arg) Insert(w uint32, v int64) (uint32, bool) {
	f := argFields[a]
	var raw uint32
	switch a {
	case ArgSI, ArgD:
		if v < -0x8000 || v > 0x7fff {
			return w, false
		}
		raw, f = uint32(v)&0xffff, argField{0, 16}
	case ArgBD:
		if v < -0x8000 || v > 0x7fff || v&3 != 0 {
			return w, false
		}
		raw, f = uint32(v)&0xfffc>>2, argField{2, 14}
	case ArgLI:
		if v < -0x2000000 || v > 0x1ffffff || v&3 != 0 {
			return w, false
		}
		raw = uint32(v) & 0x03fffffc >> 2
	case ArgSPR, ArgDCRN:
		if v < 0 || v > 1023 {
			return w, false
		}
		raw = uint32(v>>5) | uint32(v&31)<<5
	default:
		if v < 0 || v >= 1<<f.width {
			return w, false
		}
		raw = uint32(v)
	}
	m := uint32(1<<f.width-1) << f.shift
	return w&^m | raw<<f.shift&m, true
}

// argList is the operand list of a table entry.
type argList []Arg

func (l argList) bits() uint32 {
	var m uint32
	for _, a := range l {
		m |= a.Bits()
	}
	return m
}
