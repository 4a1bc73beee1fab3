package ppc

import "strings"

// The PPC440 multiply-accumulate instructions: a 16x16-bit product of halfwords of RA and
// RB ("chw": low half of RA by high half of RB, "hhw": high by high, "lhw": low by low),
// stored (mul*), added to RT (mac*) or subtracted from it (nmac*), modulo or saturating
// ("s"), signed or unsigned ("u"); OE records overflow in XER[OV,SO], Rc sets CR0.

type macForm struct {
	raHigh, rbHigh bool
	unsigned       bool
	mul, neg, sat  bool
}

func half(v uint32, high, unsigned bool) int64 {
	if high {
		v >>= 16
	}
	if unsigned {
		return int64(v & 0xffff)
	}
	return int64(int16(v))
}

func (f macForm) exec(c *CPU, in *inst) bool {
	p := half(c.GPR[in.ra&31], f.raHigh, f.unsigned) * half(c.GPR[in.rb&31], f.rbHigh, f.unsigned)
	if f.mul {
		r := uint32(p)
		c.GPR[in.rt&31] = r
		if in.w&bitRc != 0 {
			c.cr0(r)
		}
		return false
	}
	if f.neg {
		p = -p
	}
	var t int64
	var ov bool
	var r uint32
	if f.unsigned {
		t = int64(c.GPR[in.rt&31]) + p
		ov = t > 0xffffffff
		r = uint32(t)
		if ov && f.sat {
			r = 0xffffffff
		}
	} else {
		t = int64(int32(c.GPR[in.rt&31])) + p
		ov = t != int64(int32(t))
		r = uint32(t)
		switch {
		case ov && f.sat && t < 0:
			r = 0x80000000
		case ov && f.sat:
			r = 0x7fffffff
		}
	}
	return c.finish(in, r, ov)
}

// parseMac reads a MAC mnemonic such as "nmachhws" or "mulchwu".
func parseMac(name string) (macForm, bool) {
	var f macForm
	rest := name
	switch {
	case strings.HasPrefix(rest, "nmac"):
		f.neg, rest = true, rest[4:]
	case strings.HasPrefix(rest, "mac"):
		rest = rest[3:]
	case strings.HasPrefix(rest, "mul") && len(rest) > 4 && strings.Contains("chl", rest[3:4]):
		f.mul, rest = true, rest[3:]
	default:
		return f, false
	}
	switch {
	case strings.HasPrefix(rest, "chw"):
		f.rbHigh = true
	case strings.HasPrefix(rest, "hhw"):
		f.raHigh, f.rbHigh = true, true
	case strings.HasPrefix(rest, "lhw"):
	default:
		return f, false
	}
	rest = rest[3:]
	f.sat = strings.HasPrefix(rest, "s")
	rest = strings.TrimPrefix(rest, "s")
	f.unsigned = rest == "u"
	return f, rest == "" || rest == "u"
}

// The MAC unit's semantics follow from each entry's mnemonic, which names its halfwords,
// accumulation, saturation and signedness: every ClassMAC entry of the table is bound
// here, and one whose mnemonic does not parse is a programmer error.
func init() {
	var entries []semEntry
	for _, op := range Ops() {
		if op.Class() != ClassMAC {
			continue
		}
		f, ok := parseMac(op.Name())
		if !ok {
			panic("ppc: bad MAC mnemonic " + op.Name())
		}
		entries = append(entries, semEntry{op: op, fn: f.exec})
	}
	registerSem(entries)
}
