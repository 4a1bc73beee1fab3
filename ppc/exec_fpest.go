package ppc

import "math"

// Square root and the reciprocal estimates. The 440's fres and frsqrte return estimates;
// these return what qemu-ppc -cpu 440epx returns (the quotient rounded to single for fres,
// 1/sqrt rounded twice in double for frsqrte), so results are deterministic and agree with
// the reference.

// fpUnary runs a one-operand arithmetic instruction: NaN propagation, then invalid checks,
// then f, which returns the result and the sign of its rounding error.
func fpUnary(single bool, invalid func(x float64) fpExc, f func(x float64) (float64, int)) semFn {
	return func(c *CPU, in *inst) bool {
		bb := c.FPR[in.rb&31]
		if isNaN(bb) {
			n := bb | quietBit
			if single {
				n = roundNaNSingle(n)
			}
			return c.fpResult(in, n, snanExc(bb), false)
		}
		x := math.Float64frombits(bb)
		if e := invalid(x); e&fpscrVXAll != 0 {
			return c.fpResult(in, qnanBits, e, false)
		}
		r, es := f(x)
		var e fpExc
		if x == 0 && math.IsInf(r, 0) {
			e = FpscrZX
			c.FPSCR &^= FpscrFR
		}
		if single && !math.IsInf(x, 0) {
			r, es = roundSingle(r, es)
		}
		if e == 0 && !math.IsInf(x, 0) && x != 0 {
			return c.roundResult(in, r, es, 0, single)
		}
		return c.fpResult(in, math.Float64bits(r), e, es != 0)
	}
}

func negInvalid(x float64) fpExc {
	if x < 0 {
		return FpscrVXSQRT
	}
	return 0
}

func noInvalid(float64) fpExc { return 0 }

func sqrtErr(x float64) (float64, int) {
	r := math.Sqrt(x)
	if math.IsInf(r, 0) || r == 0 {
		return r, 0
	}
	if x < 0x1p-900 {
		return r, exactErr(-r, r, x, 0)
	}
	return r, sgn(math.FMA(-r, r, x))
}

// fresValue is 1/x rounded to double and then to single, as qemu-ppc computes it.
func fresValue(x float64) (float64, int) {
	q := 1 / x
	es := 0
	if !math.IsInf(q, 0) && q != 0 {
		es = divErr(1, x, q)
		if math.Abs(q) >= 0x1p-1000 && math.Abs(x) >= 0x1p-1000 {
			es = sgn(math.FMA(-q, x, 1)) * sgn(x)
		}
	}
	s := float64(float32(q))
	if s != q {
		es = sgn(q - s)
	}
	return s, es
}

// frsqrteValue is 1/sqrt(x), each step rounded to double, as qemu-ppc computes it.
func frsqrteValue(x float64) (float64, int) {
	r, es := sqrtErr(x)
	q := 1 / r
	if math.IsInf(q, 0) || q == 0 {
		return q, es
	}
	if e := sgn(math.FMA(-q, r, 1)); e != 0 {
		es = e
	}
	return q, es
}

func init() {
	registerSem([]semEntry{
		{op: opFsqrt, fn: fpUnary(false, negInvalid, sqrtErr)},
		{op: opFsqrts, fn: fpUnary(true, negInvalid, sqrtErr)},
		{op: opFres, fn: fpUnary(true, noInvalid, fresValue)},
		{op: opFrsqrte, fn: fpUnary(false, negInvalid, frsqrteValue)},
		// The external control instructions need an external device the 440 on BG/L does
		// not have; qemu-ppc raises SIGILL for them too.
		{op: opEciwx, fn: execIllegal},
		{op: opEcowx, fn: execIllegal},
	})
}
