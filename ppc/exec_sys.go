package ppc

import "encoding/binary"

// Special registers, reservations, string and multiple transfers, cache and sync, and the
// 440's multiply-accumulate unit.

// SPR numbers user mode may reach.
const (
	sprXER    = 1
	sprLR     = 8
	sprCTR    = 9
	sprUSPRG0 = 256
	sprSPRG4  = 260 // SPRG4-7 user read-only aliases: 260-263
	sprTBL    = 268
	sprTBU    = 269
	sprPVR    = 287
	// xerOV32CA32 are Power ISA 3.0 XER bits a 440 does not have.
	xerOV32CA32 = 0x000c0000
)

func sprNum(w uint32) uint32 { return w>>16&31 | (w>>11&31)<<5 }

// isTimebaseRead reports whether w is mfspr TBL or TBU (mftb, mftbu); decodeBlock keeps
// in its imm the cycles of the block's instructions before it.
func isTimebaseRead(w uint32) bool {
	if w>>26 != 31 || w>>1&0x3ff != 339 {
		return false
	}
	n := sprNum(w)
	return n == sprTBL || n == sprTBU
}

func execMfspr(c *CPU, in *inst) bool {
	var v uint32
	switch n := sprNum(in.w); {
	case n == sprXER:
		v = c.XER
	case n == sprLR:
		v = c.LR
	case n == sprCTR:
		v = c.CTR
	case n == sprUSPRG0:
		v = c.USPRG0
	case n >= sprSPRG4 && n < sprSPRG4+4:
		v = c.SPRG[4+n-sprSPRG4]
	case n == sprTBL:
		v = uint32(c.Timebase() + uint64(in.imm))
	case n == sprTBU:
		v = uint32((c.Timebase() + uint64(in.imm)) >> 32)
	case n == sprPVR:
		v = PVR440
	default:
		return c.raise(in, FaultPriv, 0, false)
	}
	c.GPR[in.rt&31] = v
	return false
}

func execMtspr(c *CPU, in *inst) bool {
	v := c.GPR[in.rt&31]
	switch sprNum(in.w) {
	case sprXER:
		c.XER = v &^ xerOV32CA32 // other bits are kept, as qemu-ppc keeps them
	case sprLR:
		c.LR = v
	case sprCTR:
		c.CTR = v
	case sprUSPRG0:
		c.USPRG0 = v
	default:
		return c.raise(in, FaultPriv, 0, false)
	}
	return false
}

func execNop(c *CPU, in *inst) bool { return false }

func execLwarx(c *CPU, in *inst) bool {
	ea := c.ra0(in) + c.GPR[in.rb&31]
	if ea&3 != 0 {
		return c.raise(in, FaultAlign, ea, false)
	}
	v, f := c.ld32(in, ea)
	if f {
		return true
	}
	c.GPR[in.rt&31] = v
	c.resvAddr, c.resvValid = ea, true
	return false
}

func execStwcx(c *CPU, in *inst) bool {
	ea := c.ra0(in) + c.GPR[in.rb&31]
	if ea&3 != 0 {
		return c.raise(in, FaultAlign, ea, true)
	}
	ok := c.resvValid && c.resvAddr == ea
	end := false
	if ok {
		if end = c.st32(in, ea, c.GPR[in.rt&31]); c.stop.Fault != nil {
			return true
		}
	}
	c.resvValid = false
	f := c.XER >> 31
	if ok {
		f |= 2
	}
	c.setCRField(0, f)
	return end
}

// execDcbz zeroes the cache line holding the address: the block size the auxv reports
// (AT_DCACHEBSIZE), which glibc's memset relies on when it uses dcbz.
func execDcbz(c *CPU, in *inst) bool {
	ea := (c.ra0(in) + c.GPR[in.rb&31]) &^ (CacheLineSize - 1)
	return c.storeSlow(in, ea, zeroLine[:])
}

// zeroLine is what dcbz stores; storeSlow only reads it, and a line on the stack would
// escape to the heap at every dcbz.
var zeroLine [CacheLineSize]byte

func execLmw(c *CPU, in *inst) bool {
	ea := c.ra0(in) + in.imm
	n := 32 - uint32(in.rt)
	buf := make([]byte, 4*n)
	if c.loadSlow(in, ea, buf) {
		return true
	}
	for i := range n {
		c.GPR[(uint32(in.rt)+i)&31] = binary.BigEndian.Uint32(buf[4*i:])
	}
	return false
}

func execStmw(c *CPU, in *inst) bool {
	ea := c.ra0(in) + in.imm
	n := 32 - uint32(in.rt)
	buf := make([]byte, 4*n)
	for i := range n {
		binary.BigEndian.PutUint32(buf[4*i:], c.GPR[(uint32(in.rt)+i)&31])
	}
	return c.storeSlow(in, ea, buf)
}

// loadString fills registers from RT on, four bytes each, wrapping past r31; the last
// register's unfilled low bytes are zero.
func (c *CPU) loadString(in *inst, ea, n uint32) bool {
	if n == 0 {
		return false
	}
	buf := make([]byte, (n+3)&^3)
	if c.loadSlow(in, ea, buf[:n]) {
		return true
	}
	for i := uint32(0); i < uint32(len(buf))/4; i++ {
		c.GPR[(uint32(in.rt)+i)&31] = binary.BigEndian.Uint32(buf[4*i:])
	}
	return false
}

func (c *CPU) storeString(in *inst, ea, n uint32) bool {
	if n == 0 {
		return false
	}
	buf := make([]byte, (n+3)&^3)
	for i := uint32(0); i < uint32(len(buf))/4; i++ {
		binary.BigEndian.PutUint32(buf[4*i:], c.GPR[(uint32(in.rt)+i)&31])
	}
	return c.storeSlow(in, ea, buf[:n])
}

func nbBytes(in *inst) uint32 {
	if in.rb == 0 {
		return 32
	}
	return uint32(in.rb)
}

func execLswi(c *CPU, in *inst) bool  { return c.loadString(in, c.ra0(in), nbBytes(in)) }
func execStswi(c *CPU, in *inst) bool { return c.storeString(in, c.ra0(in), nbBytes(in)) }
func execLswx(c *CPU, in *inst) bool {
	return c.loadString(in, c.ra0(in)+c.GPR[in.rb&31], c.XER&0x7f)
}
func execStswx(c *CPU, in *inst) bool {
	return c.storeString(in, c.ra0(in)+c.GPR[in.rb&31], c.XER&0x7f)
}

// execDlmzb finds the leftmost zero byte of RS||RB: RA and XER[TBC] get its 1-based index
// (8 when there is none); Rc sets CR0 to LT when it is in RB, GT in RS, EQ when none.
func execDlmzb(c *CPU, in *inst) bool {
	var b [8]byte
	binary.BigEndian.PutUint32(b[:], c.GPR[in.rt&31])
	binary.BigEndian.PutUint32(b[4:], c.GPR[in.rb&31])
	n, f := uint32(8), uint32(2)
	for i, v := range b {
		if v == 0 {
			n, f = uint32(i+1), 4
			if i >= 4 {
				f = 8
			}
			break
		}
	}
	c.GPR[in.ra&31] = n
	c.XER = c.XER&^0x7f | n
	if in.w&bitRc != 0 {
		c.setCRField(0, f|c.XER>>31)
	}
	return false
}

func init() {
	registerSem([]semEntry{
		{op: opMfspr, fn: execMfspr},
		{op: opMtspr, fn: execMtspr},
		{op: opLwarx, fn: execLwarx},
		{op: opStwcxDot, fn: execStwcx},
		{op: opDcbz, fn: execDcbz},
		{op: opLmw, fn: execLmw},
		{op: opStmw, fn: execStmw},
		{op: opLswi, fn: execLswi},
		{op: opLswx, fn: execLswx},
		{op: opStswi, fn: execStswi},
		{op: opStswx, fn: execStswx},
		{op: opDlmzb, fn: execDlmzb},
		{op: opSync, fn: execNop}, {op: opMbar, fn: execNop}, {op: opIsync, fn: execNop},
		{op: opDcbt, fn: execNop}, {op: opDcbtst, fn: execNop}, {op: opDcbf, fn: execNop},
		{op: opDcbst, fn: execNop}, {op: opDcba, fn: execNop}, {op: opIcbi, fn: execNop},
		{op: opIcbt, fn: execNop},
	})
}
