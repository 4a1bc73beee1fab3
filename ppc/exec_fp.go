package ppc

import "math"

// Floating-point arithmetic. Results are computed rounded to nearest with the sign of
// their rounding error (exact where Go's IEEE double operations cannot tell, with
// math/big), which gives the other FPSCR[RN] modes and FI; the multiply-add family is fused
// (math.FMA); single-precision forms round the exact result once to single.

// fpKind is the arithmetic of an A-form instruction.
type fpKind uint8

const (
	fpAdd fpKind = iota
	fpSub
	fpMul
	fpDiv
	fpMadd
	fpMsub
	fpNmadd
	fpNmsub
)

type fpArith struct {
	kind   fpKind
	single bool
}

// operands returns the bit patterns the kind reads, in NaN-precedence order (FRA, FRB,
// FRC), and which are used.
func (k fpKind) operands(c *CPU, in *inst) (a, b, cc uint64) {
	return c.FPR[in.ra&31], c.FPR[in.rb&31], c.FPR[in.rc&31]
}

// invalid returns the invalid-operation exceptions of the kind for non-NaN operands.
func (k fpKind) invalid(a, b, cc float64) fpExc {
	inf := func(x float64) bool { return math.IsInf(x, 0) }
	switch k {
	case fpAdd, fpSub:
		if inf(a) && inf(b) && (math.Signbit(a) != math.Signbit(b)) == (k == fpAdd) {
			return FpscrVXISI
		}
	case fpMul:
		if inf(a) && cc == 0 || a == 0 && inf(cc) {
			return FpscrVXIMZ
		}
	case fpDiv:
		if inf(a) && inf(b) {
			return FpscrVXIDI
		}
		if a == 0 && b == 0 {
			return FpscrVXZDZ
		}
	default:
		if inf(a) && cc == 0 || a == 0 && inf(cc) {
			return FpscrVXIMZ
		}
		// The fused product is exact: it is infinite only when a factor is.
		pNeg := math.Signbit(a) != math.Signbit(cc)
		sub := k == fpMsub || k == fpNmsub
		if (inf(a) || inf(cc)) && inf(b) && (pNeg != math.Signbit(b)) != sub {
			return FpscrVXISI
		}
	}
	return 0
}

// compute returns the rounded double result and the sign of (exact - result).
func (k fpKind) compute(a, b, cc float64) (float64, int) {
	switch k {
	case fpAdd, fpSub:
		if k == fpSub {
			b = -b
		}
		s := a + b
		if math.IsInf(s, 0) {
			return s, 0
		}
		bb := s - a
		return s, sgn((a - (s - bb)) + (b - bb))
	case fpMul:
		// Below 2^-960 a*cc-p may be a nonzero multiple of ulp(a)*ulp(cc) smaller than
		// the least denormal, which the FMA would round to zero.
		p := a * cc
		if math.IsInf(p, 0) || math.Abs(p) < 0x1p-960 {
			return p, exactErr(a, cc, 0, p)
		}
		return p, sgn(math.FMA(a, cc, -p))
	case fpDiv:
		// a-q*b is a multiple of about ulp(a)*2^-52: below |a| = 2^-960 it may be less
		// than the least denormal, which the FMA would round to zero.
		q := a / b
		if math.IsInf(q, 0) || math.Abs(q) < 0x1p-1000 || math.Abs(a) < 0x1p-960 || math.Abs(b) < 0x1p-1000 {
			return q, divErr(a, b, q)
		}
		return q, sgn(math.FMA(-q, b, a)) * sgn(b)
	}
	if k == fpMsub || k == fpNmsub {
		b = -b
	}
	r := math.FMA(a, cc, b)
	e := exactErr(a, cc, b, r)
	if k == fpNmadd || k == fpNmsub {
		return -r, -e
	}
	return r, e
}

// divErr is the exact error sign of a/b for results near the ends of the range.
func divErr(a, b, q float64) int {
	if math.IsInf(q, 0) || b == 0 {
		return 0
	}
	// a - q*b has the sign of the error times sign(b).
	return -exactErr(q, b, -a, 0) * sgn(b)
}

func (f fpArith) exec(c *CPU, in *inst) bool {
	ab, bb, cb := f.kind.operands(c, in)
	switch f.kind {
	case fpAdd, fpSub, fpDiv:
		cb = 0
	case fpMul:
		bb = 0
	}
	if f.kind >= fpMadd && !isNaN(ab) && !isNaN(cb) && isInfTimesZero(ab, cb) {
		// qemu-ppc (like the hardware) reports only VXIMZ here, even with a NaN addend,
		// whose value it returns.
		n, ok := nanResult(bb)
		if !ok {
			n = qnanBits
		}
		if f.single {
			n = roundNaNSingle(n)
		}
		return c.fpResult(in, n, FpscrVXIMZ, false)
	}
	e := snanExc(ab, bb, cb)
	if n, ok := nanResult(ab, bb, cb); ok {
		if f.single {
			n = roundNaNSingle(n)
		}
		return c.fpResult(in, n, e, false)
	}
	a, b, cc := math.Float64frombits(ab), math.Float64frombits(bb), math.Float64frombits(cb)
	if v := f.kind.invalid(a, b, cc); v != 0 {
		return c.fpResult(in, qnanBits, e|fpExc(v), false)
	}
	if f.kind == fpDiv && b == 0 && !math.IsInf(a, 0) {
		r := math.Inf(1)
		if math.Signbit(a) != math.Signbit(b) {
			r = -r
		}
		c.FPSCR &^= FpscrFR // a zero divide clears FR and FI, as in qemu-ppc
		return c.fpResult(in, math.Float64bits(r), FpscrZX, false)
	}
	r, es := f.kind.compute(a, b, cc)
	if r == 0 && es == 0 && c.FPSCR&3 == 3 && f.kind != fpMul && f.kind != fpDiv {
		r = f.kind.exactZeroRM(a, b, cc)
	}
	if f.single {
		r, es = roundSingle(r, es)
	}
	if math.IsInf(a, 0) || math.IsInf(b, 0) || math.IsInf(cc, 0) {
		return c.fpResult(in, math.Float64bits(r), e, false)
	}
	return c.roundResult(in, r, es, e, f.single)
}

// roundResult finishes a finite-operand result computed rounded to nearest (r, with the
// sign es of exact - r): range exceptions, then the FPSCR[RN] rounding mode.
func (c *CPU) roundResult(in *inst, r float64, es int, e fpExc, single bool) bool {
	e |= rangeExc(r, es, single)
	d, des := directed(r, es, c.FPSCR&3, single)
	if math.IsInf(d, 0) && !math.IsInf(r, 0) {
		e |= rangeExc(d, des, single) // rounding away from zero past the largest value
	}
	return c.fpResult(in, math.Float64bits(d), e, des != 0)
}

// directed turns a round-to-nearest result into the result of rounding mode rn (1 toward
// zero, 2 toward +inf, 3 toward -inf): one step to the neighbour when nearest went the
// wrong way, and the largest finite value instead of an overflow to the wrong infinity.
func directed(r float64, es int, rn uint32, single bool) (float64, int) {
	if rn == 0 {
		return r, es
	}
	maxv := math.MaxFloat64
	if single {
		maxv = math.MaxFloat32
	}
	step := func(toward float64) float64 {
		if single {
			return float64(math.Nextafter32(float32(r), float32(toward)))
		}
		return math.Nextafter(r, toward)
	}
	switch {
	case math.IsInf(r, 1) && rn != 2:
		return maxv, 1
	case math.IsInf(r, -1) && rn != 3:
		return -maxv, -1
	case math.IsInf(r, 0) || es == 0:
		return r, es
	case rn == 1 && r != 0 && (es > 0) != (r > 0):
		return step(0), sgn(r)
	case rn == 2 && es > 0:
		return step(math.Inf(1)), -1
	case rn == 3 && es < 0:
		return step(math.Inf(-1)), 1
	}
	return r, es
}

func isInfTimesZero(a, c uint64) bool {
	x, y := math.Float64frombits(a), math.Float64frombits(c)
	return math.IsInf(x, 0) && y == 0 || x == 0 && math.IsInf(y, 0)
}

// exactZeroRM is the sign of an exact zero sum when rounding toward -inf: -0 unless both
// addends are +0 (IEEE 754 6.3).
func (k fpKind) exactZeroRM(a, b, cc float64) float64 {
	x, y := a, b // the addends
	switch k {
	case fpSub:
		y = -b
	case fpMadd, fpNmadd:
		x = a * cc
	case fpMsub, fpNmsub:
		x, y = a*cc, -b
	}
	r := 0.0
	if math.Signbit(x) || math.Signbit(y) {
		r = math.Copysign(0, -1)
	}
	if k == fpNmadd || k == fpNmsub {
		r = -r
	}
	return r
}

// rangeExc returns overflow and underflow exceptions of a finite-operand result.
func rangeExc(r float64, errSign int, single bool) fpExc {
	if math.IsInf(r, 0) {
		return FpscrOX | FpscrXX | FpscrFI
	}
	tiny := 0x1p-1022
	if single {
		tiny = 0x1p-126
	}
	if errSign != 0 && math.Abs(r) <= tiny {
		if math.Abs(r) < tiny || (errSign > 0) != (r > 0) {
			return FpscrUX
		}
	}
	return 0
}

// roundNaNSingle drops the NaN payload bits a single cannot hold.
func roundNaNSingle(b uint64) uint64 { return b &^ (1<<29 - 1) }

func execFrsp(c *CPU, in *inst) bool {
	bb := c.FPR[in.rb&31]
	if isNaN(bb) {
		return c.fpResult(in, roundNaNSingle(bb|quietBit), snanExc(bb), false)
	}
	x := math.Float64frombits(bb)
	r, es := roundSingle(x, 0)
	if math.IsInf(x, 0) {
		return c.fpResult(in, bb, 0, false)
	}
	return c.roundResult(in, r, es, 0, true)
}

// fctiw converts to a signed word, rounding to nearest even (or toward zero for fctiwz);
// NaNs and out-of-range values saturate and raise VXCVI (and FPRF says QNaN). The ISA
// leaves FRT's high word undefined; it holds the sign extension, as in qemu-ppc.
func fctiw(toZero bool) semFn {
	return func(c *CPU, in *inst) bool {
		bb := c.FPR[in.rb&31]
		x := math.Float64frombits(bb)
		var v int64
		var e fpExc
		inexact := false
		switch r := roundInt(x, c.FPSCR&3); {
		case math.IsNaN(x):
			c.FPSCR = c.FPSCR&^FpscrFPRF | fprfQNaN<<12
			return c.fpConvResult(in, 0x80000000, FpscrVXCVI|snanExc(bb), false)
		case toZero:
			r = math.Trunc(x)
			v, e, inexact = convWord(x, r)
		default:
			v, e, inexact = convWord(x, r)
		}
		if e&FpscrVXCVI != 0 {
			c.FPSCR = c.FPSCR&^FpscrFPRF | fprfQNaN<<12
		}
		return c.fpConvResult(in, uint64(int64(int32(v))), e, inexact)
	}
}

// roundInt rounds x to an integer in rounding mode rn.
func roundInt(x float64, rn uint32) float64 {
	switch rn {
	case 1:
		return math.Trunc(x)
	case 2:
		return math.Ceil(x)
	case 3:
		return math.Floor(x)
	}
	return math.RoundToEven(x)
}

func convWord(x, r float64) (int64, fpExc, bool) {
	switch {
	case r > math.MaxInt32:
		return math.MaxInt32, FpscrVXCVI, false
	case r < math.MinInt32:
		return math.MinInt32, FpscrVXCVI, false
	}
	return int64(r), 0, r != x
}

// fpConvResult stores a conversion result: FPRF is undefined for it and left unchanged.
func (c *CPU) fpConvResult(in *inst, r uint64, e fpExc, inexact bool) bool {
	c.FPR[in.rt&31] = r
	c.FPSCR &^= FpscrFI
	if e&fpscrVXArith != 0 {
		c.FPSCR &^= FpscrFR
	}
	if inexact {
		e |= FpscrXX
		c.FPSCR |= FpscrFI
	}
	c.setExc(e)
	c.cr1(in)
	return false
}

func fpCompare(ordered bool) semFn {
	return func(c *CPU, in *inst) bool {
		ab, bb := c.FPR[in.ra&31], c.FPR[in.rb&31]
		a, b := math.Float64frombits(ab), math.Float64frombits(bb)
		var f uint32
		switch {
		case math.IsNaN(a) || math.IsNaN(b):
			f = 1
		case a < b:
			f = 8
		case a > b:
			f = 4
		default:
			f = 2
		}
		c.setCRField(uint32(in.rt>>2), f)
		c.FPSCR = c.FPSCR&^(0xf<<12|FpscrFI) | f<<12 // compares clear FI, as in qemu-ppc
		e := snanExc(ab, bb)
		if ordered && f == 1 && (e == 0 || c.FPSCR&0x80 == 0) {
			e |= FpscrVXVC
			c.FPSCR |= fprfQNaN << 12 // an invalid compare leaves FPRF = C|FU
		}
		if e != 0 {
			c.setExc(e)
		}
		return false
	}
}

// bitOp returns the semantics of the sign-manipulating moves, which raise nothing.
func bitOp(f func(b uint64) uint64) semFn {
	return func(c *CPU, in *inst) bool {
		c.FPR[in.rt&31] = f(c.FPR[in.rb&31])
		c.cr1(in)
		return false
	}
}

func execFsel(c *CPU, in *inst) bool {
	a := math.Float64frombits(c.FPR[in.ra&31])
	if a >= 0 {
		c.FPR[in.rt&31] = c.FPR[in.rc&31]
	} else {
		c.FPR[in.rt&31] = c.FPR[in.rb&31]
	}
	c.cr1(in)
	return false
}

func init() {
	arith := []struct {
		double, single Op
		kind           fpKind
	}{
		{opFadd, opFadds, fpAdd}, {opFsub, opFsubs, fpSub}, {opFmul, opFmuls, fpMul},
		{opFdiv, opFdivs, fpDiv}, {opFmadd, opFmadds, fpMadd}, {opFmsub, opFmsubs, fpMsub},
		{opFnmadd, opFnmadds, fpNmadd}, {opFnmsub, opFnmsubs, fpNmsub},
	}
	var entries []semEntry
	for _, a := range arith {
		entries = append(entries,
			semEntry{op: a.double, fn: fpArith{kind: a.kind}.exec},
			semEntry{op: a.single, fn: fpArith{kind: a.kind, single: true}.exec})
	}
	entries = append(entries, []semEntry{
		{op: opFrsp, fn: execFrsp},
		{op: opFctiw, fn: fctiw(false)},
		{op: opFctiwz, fn: fctiw(true)},
		{op: opFcmpu, fn: fpCompare(false)},
		{op: opFcmpo, fn: fpCompare(true)},
		{op: opFsel, fn: execFsel},
		{op: opFmr, fn: bitOp(func(b uint64) uint64 { return b })},
		{op: opFneg, fn: bitOp(func(b uint64) uint64 { return b ^ 1<<63 })},
		{op: opFabs, fn: bitOp(func(b uint64) uint64 { return b &^ (1 << 63) })},
		{op: opFnabs, fn: bitOp(func(b uint64) uint64 { return b | 1<<63 })},
	}...)
	registerSem(entries)
}
