package ppc

import (
	"math"
	"math/big"
)

// FPSCR bits (the ISA numbers them from the most significant bit: FX is bit 0).
const (
	FpscrFX     = 1 << 31
	FpscrFEX    = 1 << 30
	FpscrVX     = 1 << 29
	FpscrOX     = 1 << 28
	FpscrUX     = 1 << 27
	FpscrZX     = 1 << 26
	FpscrXX     = 1 << 25
	FpscrVXSNAN = 1 << 24
	FpscrVXISI  = 1 << 23
	FpscrVXIDI  = 1 << 22
	FpscrVXZDZ  = 1 << 21
	FpscrVXIMZ  = 1 << 20
	FpscrVXVC   = 1 << 19
	FpscrFR     = 1 << 18
	FpscrFI     = 1 << 17
	FpscrFPRF   = 0x1f << 12
	FpscrVXSOFT = 1 << 10
	FpscrVXSQRT = 1 << 9
	FpscrVXCVI  = 1 << 8
	fpscrVXAll  = FpscrVXSNAN | FpscrVXISI | FpscrVXIDI | FpscrVXZDZ | FpscrVXIMZ | FpscrVXVC |
		FpscrVXSOFT | FpscrVXSQRT | FpscrVXCVI
	fpscrReserved = 1 << 11 // bit 20 does not exist
	// fpscrVXArith are the invalid operations (other than a signalling NaN) that clear FR
	// and FI in qemu-ppc.
	fpscrVXArith = FpscrVXISI | FpscrVXIDI | FpscrVXZDZ | FpscrVXIMZ | FpscrVXCVI | FpscrVXSQRT
	qnanBits     = 0x7ff8000000000000
	quietBit     = 1 << 51
)

// FPRF result classes.
const (
	fprfQNaN     = 0x11
	fprfNegInf   = 0x09
	fprfNegNorm  = 0x08
	fprfNegDenom = 0x18
	fprfNegZero  = 0x12
	fprfPosZero  = 0x02
	fprfPosDenom = 0x14
	fprfPosNorm  = 0x04
	fprfPosInf   = 0x05
)

func isSNaN(b uint64) bool {
	return b&0x7ff0000000000000 == 0x7ff0000000000000 && b&0xfffffffffffff != 0 && b&quietBit == 0
}

func isNaN(b uint64) bool {
	return b&0x7ff0000000000000 == 0x7ff0000000000000 && b&0xfffffffffffff != 0
}

// fpClass returns the FPRF class of a double, judging denormals by single precision when
// single is set.
func fpClass(b uint64, single bool) uint32 {
	f := math.Float64frombits(b)
	neg := b>>63 != 0
	pick := func(n, p uint32) uint32 {
		if neg {
			return n
		}
		return p
	}
	switch {
	case isNaN(b):
		return fprfQNaN
	case math.IsInf(f, 0):
		return pick(fprfNegInf, fprfPosInf)
	case f == 0:
		return pick(fprfNegZero, fprfPosZero)
	case single && math.Abs(f) < 0x1p-126, !single && math.Abs(f) < 0x1p-1022:
		return pick(fprfNegDenom, fprfPosDenom)
	}
	return pick(fprfNegNorm, fprfPosNorm)
}

// fpExc accumulates the exception bits of one operation.
type fpExc uint32

// setExc records exception bits and sets FX whenever an exception occurs (qemu-ppc's rule;
// the ISA sets FX only on a 0-to-1 transition, which differs only after software cleared
// FX while leaving the exception bit set).
func (c *CPU) setExc(e fpExc) {
	n := c.FPSCR | uint32(e)
	if e&(FpscrOX|FpscrUX|FpscrZX|FpscrXX|fpscrVXAll) != 0 {
		n |= FpscrFX
	}
	c.fpSummary(n)
}

// fpSummary recomputes VX and FEX of n and stores it.
func (c *CPU) fpSummary(n uint32) {
	n &^= FpscrVX | FpscrFEX | fpscrReserved
	if n&fpscrVXAll != 0 {
		n |= FpscrVX
	}
	if (n>>25&0x1f)&(n>>3&0x1f) != 0 || n&FpscrVX != 0 && n&0x80 != 0 {
		n |= FpscrFEX
	}
	c.FPSCR = n
}

// fpResult stores an arithmetic result: FRT, FPRF, FI and the exception bits, and CR1 for
// Rc. FR is not modelled (qemu-ppc leaves it untouched too); FPRF classifies the result as
// a double, also for single-precision instructions, as qemu-ppc does.
func (c *CPU) fpResult(in *inst, r uint64, e fpExc, inexact bool) bool {
	c.FPR[in.rt&31] = r
	if inexact {
		e |= FpscrXX
	}
	c.FPSCR = c.FPSCR&^(FpscrFI|FpscrFPRF) | fpClass(r, false)<<12
	if e&fpscrVXArith != 0 {
		c.FPSCR &^= FpscrFR // an invalid operation clears FR and FI
	}
	if inexact {
		c.FPSCR |= FpscrFI
	}
	c.setExc(e)
	c.cr1(in)
	return false
}

// cr1 copies FX, FEX, VX, OX to CR1 for Rc forms.
func (c *CPU) cr1(in *inst) {
	if in.w&bitRc != 0 {
		c.setCRField(1, c.FPSCR>>28)
	}
}

// nanResult picks the NaN result of an operation with NaN operands, in the ISA's order of
// precedence (FRA, FRB, FRC), quieted; ok=false when no operand is a NaN.
func nanResult(ops ...uint64) (uint64, bool) {
	for _, b := range ops {
		if isNaN(b) {
			return b | quietBit, true
		}
	}
	return 0, false
}

func snanExc(ops ...uint64) fpExc {
	for _, b := range ops {
		if isSNaN(b) {
			return FpscrVXSNAN
		}
	}
	return 0
}

// sgn returns the sign of x as -1, 0 or 1.
func sgn(x float64) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// exactErr returns the sign of (exact - r) for r = round(exact), where exact is a*c + b
// (c = 1 for a plain add), computed exactly with big.Float: 3400 bits span the smallest
// product of denormals (2^-2148) up to the largest double.
func exactErr(a, c, b, r float64) int {
	for _, v := range [...]float64{a, c, b, r} {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return 0 // an infinite operand or result is exact
		}
	}
	x := new(big.Float).SetPrec(3400).SetFloat64(a)
	x.Mul(x, new(big.Float).SetFloat64(c))
	x.Add(x, new(big.Float).SetFloat64(b))
	return x.Cmp(new(big.Float).SetFloat64(r))
}

// roundSingle rounds the exact value hi+err (err's sign given; hi the double nearest to it)
// to single precision, fixing the double-rounding case where hi sits exactly halfway
// between two singles. It returns the single as a double and the sign of exact - result.
func roundSingle(hi float64, errSign int) (float64, int) {
	s32 := float32(hi)
	s := float64(s32)
	if s != hi && errSign != 0 && !math.IsInf(s, 0) {
		dir := float32(math.Inf(1))
		if hi < s {
			dir = -dir
		}
		t := float64(math.Nextafter32(s32, dir))
		if hi-s == t-hi && (errSign > 0) == (t > s) {
			s = t
		}
	}
	if s != hi {
		return s, sgn(hi - s)
	}
	return s, errSign
}
