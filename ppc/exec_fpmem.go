package ppc

import "math"

// Floating-point loads and stores and the FPSCR moves.

// singleToDouble widens a single exactly, keeping signalling NaNs signalling (a plain Go
// conversion would quiet them).
func singleToDouble(w uint32) uint64 {
	if w>>23&0xff == 0xff {
		return uint64(w>>31)<<63 | 0x7ff<<52 | uint64(w&0x7fffff)<<29
	}
	return math.Float64bits(float64(math.Float32frombits(w)))
}

// doubleToSingle is stfs's conversion: bits are moved, not rounded; values below the
// single range are denormalized by truncation (the ISA's algorithm).
func doubleToSingle(b uint64) uint32 {
	exp := b >> 52 & 0x7ff
	if exp > 896 {
		return uint32(b>>62)<<30 | uint32(b>>29&0x3fffffff)
	}
	w := uint32(b>>63) << 31
	if exp >= 874 {
		w |= uint32((1<<52 | b&(1<<52-1)) >> (896 + 30 - exp))
	}
	return w
}

func fpAccess(c *CPU, in *inst, ea uint32, store, single bool) bool {
	switch {
	case store && single:
		return c.st32(in, ea, doubleToSingle(c.FPR[in.rt&31]))
	case store:
		return c.st64(in, ea, c.FPR[in.rt&31])
	case single:
		v, f := c.ld32(in, ea)
		if !f {
			c.FPR[in.rt&31] = singleToDouble(v)
		}
		return f
	}
	v, f := c.ld64(in, ea)
	if !f {
		c.FPR[in.rt&31] = v
	}
	return f
}

func execStfiwx(c *CPU, in *inst) bool {
	return c.st32(in, c.ra0(in)+c.GPR[in.rb&31], uint32(c.FPR[in.rt&31]))
}

// execMffs also runs the POWER9 mffscrn, mffscrni and mffsl words: the 440 ignores the
// bits that distinguish them, so they read the FPSCR and change nothing.
func execMffs(c *CPU, in *inst) bool {
	c.FPR[in.rt&31] = uint64(c.FPSCR)
	c.cr1(in)
	return false
}

// execMtfsf copies the FLM-selected fields of FRB; FEX and VX are never set directly.
func execMtfsf(c *CPU, in *inst) bool {
	m := fieldMask(in.w >> 17 & 0xff)
	c.fpSummary(c.FPSCR&^m | uint32(c.FPR[in.rb&31])&m)
	c.cr1(in)
	return false
}

func execMtfsfi(c *CPU, in *inst) bool {
	sh := 28 - 4*uint32(in.rt>>2)
	c.fpSummary(c.FPSCR&^(0xf<<sh) | (in.w>>12&0xf)<<sh)
	c.cr1(in)
	return false
}

func mtfsb(set bool) semFn {
	return func(c *CPU, in *inst) bool {
		m := uint32(1) << (31 - uint32(in.rt))
		n := c.FPSCR &^ m
		if set {
			n |= m // FX is left alone, as qemu-ppc does
		}
		c.fpSummary(n)
		c.cr1(in)
		return false
	}
}

// execMcrfs copies an FPSCR field to a CR field and clears the exception bits in it.
func execMcrfs(c *CPU, in *inst) bool {
	sh := 28 - 4*uint32(in.ra>>2)
	c.setCRField(uint32(in.rt>>2), c.FPSCR>>sh)
	clear := uint32(0xf<<sh) & (FpscrFX | FpscrOX | FpscrUX | FpscrZX | FpscrXX | fpscrVXAll)
	c.fpSummary(c.FPSCR &^ clear)
	return false
}

func init() {
	forms := []struct {
		d, du, x, ux  Op // the D, D with update, indexed and indexed with update forms
		store, single bool
	}{
		{opLfs, opLfsu, opLfsx, opLfsux, false, true},
		{opLfd, opLfdu, opLfdx, opLfdux, false, false},
		{opStfs, opStfsu, opStfsx, opStfsux, true, true},
		{opStfd, opStfdu, opStfdx, opStfdux, true, false},
	}
	var entries []semEntry
	for _, f := range forms {
		acc := func(c *CPU, in *inst, ea uint32) bool { return fpAccess(c, in, ea, f.store, f.single) }
		entries = append(entries,
			semEntry{op: f.d, fn: modeD(acc)},
			semEntry{op: f.du, fn: modeDU(acc), prep: prepStoreUpdate},
			semEntry{op: f.x, fn: modeX(acc)},
			semEntry{op: f.ux, fn: modeXU(acc), prep: prepStoreUpdate})
	}
	entries = append(entries, []semEntry{
		{op: opStfiwx, fn: execStfiwx},
		{op: opMffs, fn: execMffs},
		{op: opMffscrn, fn: execMffs},
		{op: opMffscrni, fn: execMffs},
		{op: opMffsl, fn: execMffs},
		{op: opMtfsf, fn: execMtfsf},
		{op: opMtfsfi, fn: execMtfsfi},
		{op: opMtfsb0, fn: mtfsb(false)},
		{op: opMtfsb1, fn: mtfsb(true)},
		{op: opMcrfs, fn: execMcrfs},
	}...)
	registerSem(entries)
}
