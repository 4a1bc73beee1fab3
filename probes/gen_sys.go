package probes

import (
	"encoding/binary"
	"math"

	"github.com/dpclsh/dpclsh/bgl/abi"
)

// A send packet (the bytes HcAisSend hands to the tool daemon) is a header {tag uint32,
// count uint32} followed by count 16-byte records {kind uint32, 0 uint32, value 8 bytes},
// all big-endian; ints are sign-extended to 64 bits, doubles are IEEE bits.
const (
	SendHeaderSize = 8
	SendRecordSize = 16
	SendInt        = 1
	SendInt64      = 2
	SendDouble     = 3
)

var sendKinds = [...]uint32{Int: SendInt, Int64: SendInt64, Double: SendDouble}

// timebase reads TBU:TBL consistently (re-read when TBL wrapped between the reads).
func (g *gen) timebase(e *Exp) val {
	v := g.alloc(e, Int64)
	if e.Idx == 1 {
		g.pointTime = true
		g.a.lwz(v.hi, FrameTBU, 1)
		g.a.lwz(v.r, FrameTBL, 1)
		return v
	}
	g.useR0()
	g.cr = true
	again := g.a.newLabel()
	g.a.bind(again)
	g.a.mfspr(v.hi, sprTBU)
	g.a.mfspr(v.r, sprTBL)
	g.a.mfspr(0, sprTBU)
	g.a.cmpw(0, v.hi, 0)
	g.a.bc(boFalse, crEQ, again)
	return v
}

// spilled is what spill saved: reload it with restore.
type spilled struct {
	regs []spillSlot
}

type spillSlot struct {
	r   uint32
	off int32
	fp  bool
}

// spill saves every allocated register to scratch around a call or hypercall, which
// clobber volatile registers.
func (g *gen) spill() *spilled {
	s := &spilled{}
	for r := uint32(firstGPR); r <= lastGPR; r++ {
		if g.gfree&(1<<r) == 0 {
			off := g.scratch(4)
			g.a.stw(r, off, 1)
			s.regs = append(s.regs, spillSlot{r, off, false})
		}
	}
	for f := uint32(firstFPR); f <= lastFPR; f++ {
		if g.ffree&(1<<f) == 0 {
			off := g.scratch(8)
			g.a.stfd(f, off, 1)
			s.regs = append(s.regs, spillSlot{f, off, true})
		}
	}
	return s
}

func (g *gen) restore(s *spilled) {
	for _, r := range s.regs {
		if r.fp {
			g.a.lfd(r.r, r.off, 1)
		} else {
			g.a.lwz(r.r, r.off, 1)
		}
	}
}

// result moves a call's return registers (r3, r4) into fresh registers after the spilled
// ones are reloaded, passing through scratch so no reload overwrites them (directly when
// nothing was spilled).
func (g *gen) result(n *Exp, t Type, s *spilled) val {
	if len(s.regs) == 0 {
		v := g.alloc(n, t)
		if t == Int64 {
			g.move(v, val{t: Int64, hi: 3, r: 4})
		} else {
			g.move(v, val{t: Int, r: 3})
		}
		return v
	}
	off := g.scratch(8)
	g.a.stw(3, off, 1)
	g.a.stw(4, off+4, 1)
	g.restore(s)
	v := g.alloc(n, t)
	if t == Int64 {
		g.a.lwz(v.hi, off, 1)
		g.a.lwz(v.r, off+4, 1)
	} else {
		g.a.lwz(v.r, off, 1)
	}
	return v
}

func (g *gen) counter(e *Exp) val {
	mark := g.sp
	restore := g.spill()
	g.hypercall(abi.HcCounter)
	g.a.li32(3, uint32(counterID(e.Name)))
	g.a.sc()
	v := g.result(e, Int64, restore)
	g.sp = mark
	return v
}

func (g *gen) rank(e *Exp) val {
	mark := g.sp
	restore := g.spill()
	g.hypercall(abi.HcRank)
	g.a.sc()
	v := g.result(e, Int, restore)
	g.sp = mark
	return v
}

// hypercall loads the number into r0 and records what an sc clobbers: r0, r3..r5, CR0.
func (g *gen) hypercall(num abi.Sysno) {
	g.sc = true
	g.cr = true
	g.clobG |= 1 | 7<<3
	g.a.li32(0, uint32(num))
}

func (g *gen) send(e *Exp) {
	mark := g.sp
	count := sendCount(e)
	size := int32(SendHeaderSize + SendRecordSize*count)
	pkt := g.scratch(size)
	g.useR0()
	i := 0
	for _, k := range e.Kids {
		off := pkt + SendHeaderSize + int32(SendRecordSize*i)
		if k.Kind == KWhole {
			g.sendArray(k, off)
			i += k.Arr.N
			continue
		}
		if k.Kind == KUstack {
			g.sendUstack(k, off)
			i += k.Idx
			continue
		}
		i++
		v := g.exp(k)
		g.a.li32(0, sendKinds[v.t])
		g.a.stw(0, off, 1)
		switch v.t {
		case Int:
			g.a.srawi(0, v.r, 31)
			g.a.stw(0, off+8, 1)
			g.a.stw(v.r, off+12, 1)
		case Int64:
			g.a.stw(v.hi, off+8, 1)
			g.a.stw(v.r, off+12, 1)
		case Double:
			g.a.stfd(v.f, off+8, 1)
		}
		g.free(v)
	}
	g.a.li32(0, g.t.Tag)
	g.a.stw(0, pkt, 1)
	g.a.li32(0, uint32(count))
	g.a.stw(0, pkt+4, 1)
	restore := g.spill()
	g.hypercall(abi.HcAisSend)
	g.a.addi(3, 1, pkt)
	g.a.li32(4, uint32(size))
	g.a.sc()
	g.restore(restore)
	g.sp = mark
}

// call calls a program function by absolute address through CTR, arguments per the SysV
// PPC32 ABI (ints in r3..r10, int64 in aligned pairs, doubles in f1..f8).
func (g *gen) call(e *Exp) val {
	addr, ok := e.Addr, e.Addr != 0
	if !ok && g.t.Resolve != nil {
		addr, ok = g.t.Resolve(e.Name)
	}
	if !ok {
		g.fail(e, "function %s not found in the program", e.Name)
	}
	mark := g.sp
	args := g.scratch(int32(8 * len(e.Kids)))
	types := make([]Type, len(e.Kids))
	for i, k := range e.Kids {
		v := g.exp(k)
		types[i] = v.t
		g.storeVal(v, args+int32(8*i))
		g.free(v)
	}
	restore := g.spill()
	g.loadArgs(types, args)
	g.calls, g.ctr, g.cr, g.xer, g.fpscr = true, true, true, true, true
	g.clobG |= volatileGPRs
	g.clobF |= volatileFPRs
	g.a.li32(0, addr)
	g.a.mtspr(sprCTR, 0)
	g.a.bctrl()
	v := g.result(e, Int, restore)
	g.sp = mark
	return v
}

func (g *gen) loadVal(v val, off int32) {
	switch v.t {
	case Int:
		g.a.lwz(v.r, off, 1)
	case Int64:
		g.a.lwz(v.hi, off, 1)
		g.a.lwz(v.r, off+4, 1)
	case Double:
		g.a.lfd(v.f, off, 1)
	}
}

func (g *gen) storeVal(v val, off int32) {
	switch v.t {
	case Int:
		g.a.stw(v.r, off, 1)
	case Int64:
		g.a.stw(v.hi, off, 1)
		g.a.stw(v.r, off+4, 1)
	case Double:
		g.a.stfd(v.f, off, 1)
	}
}

// loadArgs moves stored arguments into their ABI registers and sets CR bit 6 as a
// variadic callee expects (set when doubles travel in FPRs).
func (g *gen) loadArgs(types []Type, base int32) {
	gpr, fpr := uint32(3), uint32(1)
	for i, t := range types {
		off := base + int32(8*i)
		switch t {
		case Int:
			g.a.lwz(gpr, off, 1)
			gpr++
		case Int64:
			gpr += 1 - gpr%2 // pairs start at an odd register
			g.a.lwz(gpr, off, 1)
			g.a.lwz(gpr+1, off+4, 1)
			gpr += 2
		case Double:
			g.a.lfd(fpr, off, 1)
			fpr++
		}
	}
	if fpr > 1 {
		g.a.creqv(6, 6, 6)
	} else {
		g.a.crxor(6, 6, 6)
	}
}

// DecodeSend decodes a send packet: the probe's tag and its values.
func DecodeSend(b []byte) (tag uint32, vals []Value, err error) {
	if len(b) < SendHeaderSize {
		return 0, nil, errorf("decode send: %d bytes is shorter than the header", len(b))
	}
	tag, n := binary.BigEndian.Uint32(b), binary.BigEndian.Uint32(b[4:])
	b = b[SendHeaderSize:]
	if uint64(len(b)) != uint64(n)*SendRecordSize {
		return 0, nil, errorf("decode send: %d record bytes for %d values", len(b), n)
	}
	vals = make([]Value, 0, n)
	for off := 0; off < len(b); off += SendRecordSize {
		kind := binary.BigEndian.Uint32(b[off:])
		bits := binary.BigEndian.Uint64(b[off+8:])
		switch kind {
		case SendInt:
			vals = append(vals, IntValue(int32(bits)))
		case SendInt64:
			vals = append(vals, Int64Value(int64(bits)))
		case SendDouble:
			vals = append(vals, DoubleValue(math.Float64frombits(bits)))
		default:
			return 0, nil, errorf("decode send: value %d has unknown kind %d", off/SendRecordSize, kind)
		}
	}
	return tag, vals, nil
}
