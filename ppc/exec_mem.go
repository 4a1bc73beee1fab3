package ppc

import "encoding/binary"

// Loads and stores. Every access goes through a fast path for a whole access inside one
// page and falls back to Memory's general path, which also yields the fault.

func (c *CPU) memFault(in *inst, err error, write bool) bool {
	addr := uint32(0)
	if me, ok := err.(*MemError); ok {
		addr = me.Addr
	}
	return c.raise(in, FaultAccess, addr, write)
}

func (c *CPU) loadSlow(in *inst, ea uint32, p []byte) bool {
	if err := c.Mem.Read(ea, p); err != nil {
		return c.memFault(in, err, false)
	}
	return false
}

// Loads try the CPU's last-read page first; readFill refills it from the page table.

func (c *CPU) ld32(in *inst, ea uint32) (uint32, bool) {
	if ea>>pageShift == c.tlb.rTag && ea&pageMask <= PageSize-4 {
		o := ea & pageMask
		return binary.BigEndian.Uint32(c.tlb.rPage[o : o+4]), false
	}
	var b [4]byte
	f := c.readFill(in, ea, b[:])
	return binary.BigEndian.Uint32(b[:]), f
}

func (c *CPU) ld16(in *inst, ea uint32) (uint32, bool) {
	if ea>>pageShift == c.tlb.rTag && ea&pageMask <= PageSize-2 {
		o := ea & pageMask
		return uint32(binary.BigEndian.Uint16(c.tlb.rPage[o : o+2])), false
	}
	var b [2]byte
	f := c.readFill(in, ea, b[:])
	return uint32(binary.BigEndian.Uint16(b[:])), f
}

func (c *CPU) ld8(in *inst, ea uint32) (uint32, bool) {
	if ea>>pageShift == c.tlb.rTag {
		return uint32(c.tlb.rPage[ea&pageMask]), false
	}
	var b [1]byte
	f := c.readFill(in, ea, b[:])
	return uint32(b[0]), f
}

func (c *CPU) ld64(in *inst, ea uint32) (uint64, bool) {
	if ea>>pageShift == c.tlb.rTag && ea&pageMask <= PageSize-8 {
		o := ea & pageMask
		return binary.BigEndian.Uint64(c.tlb.rPage[o : o+8]), false
	}
	var b [8]byte
	f := c.readFill(in, ea, b[:])
	return binary.BigEndian.Uint64(b[:]), f
}

// readFill reads p at ea through the page table and makes ea's page the last-read page
// (a mapped page never written is cached as the shared zero page: the store that
// allocates it moves the Memory's generation, which flushes the caches).
func (c *CPU) readFill(in *inst, ea uint32, p []byte) bool {
	vpn, k := ea>>pageShift, ea>>pageShift&(victimLen-1)
	if c.victim.rTag[k] == vpn && ea&pageMask+uint32(len(p)) <= PageSize {
		c.tlb.rTag, c.tlb.rPage = vpn, c.victim.rPage[k]
		copy(p, c.tlb.rPage[ea&pageMask:])
		return false
	}
	if c.loadSlow(in, ea, p) {
		return true
	}
	if pg, err := c.Mem.readPage(ea, PermR); err == nil {
		data := &zeroPage // mapped, never written: the first store allocates it and moves gen
		if pg != nil {
			data = pg.data
		}
		c.tlb.rTag, c.tlb.rPage = vpn, data
		c.victim.rTag[k], c.victim.rPage[k] = vpn, data
	}
	return false
}

// storeSlow writes p through Memory. It returns true when the block must end: a fault, or
// the Memory changed shape (a page was allocated or copied, or predecoded code dropped);
// then PC is set past the store. A store inside one page makes it the last-written page.
func (c *CPU) storeSlow(in *inst, ea uint32, p []byte) bool {
	vpn, k := ea>>pageShift, ea>>pageShift&(victimLen-1)
	if c.victim.wTag[k] == vpn && ea&pageMask+uint32(len(p)) <= PageSize {
		c.tlb.wTag, c.tlb.wPage = vpn, c.victim.wPage[k]
		if c.tlb.rTag == vpn {
			c.tlb.rPage = c.tlb.wPage
		}
		copy(c.tlb.wPage[ea&pageMask:], p)
		return false
	}
	m := c.Mem
	gen := m.gen
	if err := m.Write(ea, p); err != nil {
		return c.memFault(in, err, true)
	}
	if (ea&pageMask)+uint32(len(p)) <= PageSize {
		if pg, _ := m.writePage(ea, false); pg != nil && pg.code.Load() == nil {
			c.tlb.wTag, c.tlb.wPage = vpn, pg.data
			c.victim.wTag[k], c.victim.wPage[k] = vpn, pg.data
			if c.tlb.rTag == c.tlb.wTag {
				c.tlb.rPage = pg.data
			}
		}
	}
	if m.gen != gen {
		c.PC = in.pc + 4
		return true
	}
	return false
}

func (c *CPU) st32(in *inst, ea, v uint32) bool {
	if ea>>pageShift == c.tlb.wTag && ea&pageMask <= PageSize-4 {
		o := ea & pageMask
		binary.BigEndian.PutUint32(c.tlb.wPage[o:o+4], v)
		return false
	}
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], v)
	return c.storeSlow(in, ea, b[:])
}

func (c *CPU) st16(in *inst, ea, v uint32) bool {
	if ea>>pageShift == c.tlb.wTag && ea&pageMask <= PageSize-2 {
		o := ea & pageMask
		binary.BigEndian.PutUint16(c.tlb.wPage[o:o+2], uint16(v))
		return false
	}
	var b [2]byte
	binary.BigEndian.PutUint16(b[:], uint16(v))
	return c.storeSlow(in, ea, b[:])
}

func (c *CPU) st8(in *inst, ea, v uint32) bool {
	if ea>>pageShift == c.tlb.wTag {
		c.tlb.wPage[ea&pageMask] = byte(v)
		return false
	}
	return c.storeSlow(in, ea, []byte{byte(v)})
}

func (c *CPU) st64(in *inst, ea uint32, v uint64) bool {
	if ea>>pageShift == c.tlb.wTag && ea&pageMask <= PageSize-8 {
		o := ea & pageMask
		binary.BigEndian.PutUint64(c.tlb.wPage[o:o+8], v)
		return false
	}
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], v)
	return c.storeSlow(in, ea, b[:])
}

// access performs a load or store at ea; it returns true to end the block.
type access func(c *CPU, in *inst, ea uint32) bool

// Addressing modes: D is (RA|0)+d, X is (RA|0)+(RB); the U forms use RA and write EA back.
func modeD(f access) semFn {
	return func(c *CPU, in *inst) bool { return f(c, in, c.ra0(in)+in.imm) }
}

func modeX(f access) semFn {
	return func(c *CPU, in *inst) bool { return f(c, in, c.ra0(in)+c.GPR[in.rb&31]) }
}

func update(c *CPU, in *inst, ea uint32, f access) bool {
	end := f(c, in, ea)
	if c.stop.Fault != nil {
		return true
	}
	c.GPR[in.ra&31] = ea
	return end
}

func modeDU(f access) semFn {
	return func(c *CPU, in *inst) bool { return update(c, in, c.GPR[in.ra&31]+in.imm, f) }
}

func modeXU(f access) semFn {
	return func(c *CPU, in *inst) bool { return update(c, in, c.GPR[in.ra&31]+c.GPR[in.rb&31], f) }
}

// prepLoadUpdate rejects the invalid update loads (RA = 0 or RA = RT), which the 440
// treats as illegal, as qemu does.
func prepLoadUpdate(in *inst) {
	if in.ra == 0 || in.ra == in.rt {
		in.fn, in.ends = execIllegal, true
	}
}

// prepStoreUpdate rejects update stores and FP update loads with RA = 0.
func prepStoreUpdate(in *inst) {
	if in.ra == 0 {
		in.fn, in.ends = execIllegal, true
	}
}

func loadGPR(ld func(c *CPU, in *inst, ea uint32) (uint32, bool), ext func(uint32) uint32) access {
	return func(c *CPU, in *inst, ea uint32) bool {
		v, f := ld(c, in, ea)
		if f {
			return true
		}
		c.GPR[in.rt&31] = ext(v)
		return false
	}
}

func storeGPR(st func(c *CPU, in *inst, ea, v uint32) bool, conv func(uint32) uint32) access {
	return func(c *CPU, in *inst, ea uint32) bool { return st(c, in, ea, conv(c.GPR[in.rt&31])) }
}

func same(v uint32) uint32   { return v }
func sext16(v uint32) uint32 { return uint32(int32(int16(v))) }
func swap16(v uint32) uint32 { return uint32(v>>8&0xff | v&0xff<<8) }
func swap32(v uint32) uint32 {
	return v>>24 | v>>8&0xff00 | v<<8&0xff0000 | v<<24
}

func execLwz(c *CPU, in *inst) bool {
	ea := c.ra0(in) + in.imm
	if ea>>pageShift == c.tlb.rTag && ea&pageMask <= PageSize-4 {
		o := ea & pageMask
		c.GPR[in.rt&31] = binary.BigEndian.Uint32(c.tlb.rPage[o : o+4])
		return false
	}
	v, f := c.ld32(in, ea)
	if !f {
		c.GPR[in.rt&31] = v
	}
	return f
}

func execStw(c *CPU, in *inst) bool {
	ea := c.ra0(in) + in.imm
	if ea>>pageShift == c.tlb.wTag && ea&pageMask <= PageSize-4 {
		o := ea & pageMask
		binary.BigEndian.PutUint32(c.tlb.wPage[o:o+4], c.GPR[in.rt&31])
		return false
	}
	return c.st32(in, ea, c.GPR[in.rt&31])
}

func init() {
	type gprOp struct {
		op   Op
		acc  access
		x    bool // indexed form (X) instead of D
		upd  bool
		load bool
	}
	lwz, lhz := loadGPR((*CPU).ld32, same), loadGPR((*CPU).ld16, same)
	lha, lbz := loadGPR((*CPU).ld16, sext16), loadGPR((*CPU).ld8, same)
	stw, sth, stb := storeGPR((*CPU).st32, same), storeGPR((*CPU).st16, same), storeGPR((*CPU).st8, same)
	ops := []gprOp{
		{opLwzu, lwz, false, true, true}, {opLwzx, lwz, true, false, true}, {opLwzux, lwz, true, true, true},
		{opLhz, lhz, false, false, true}, {opLhzu, lhz, false, true, true}, {opLhzx, lhz, true, false, true}, {opLhzux, lhz, true, true, true},
		{opLha, lha, false, false, true}, {opLhau, lha, false, true, true}, {opLhax, lha, true, false, true}, {opLhaux, lha, true, true, true},
		{opLbz, lbz, false, false, true}, {opLbzu, lbz, false, true, true}, {opLbzx, lbz, true, false, true}, {opLbzux, lbz, true, true, true},
		{opStwu, stw, false, true, false}, {opStwx, stw, true, false, false}, {opStwux, stw, true, true, false},
		{opSth, sth, false, false, false}, {opSthu, sth, false, true, false}, {opSthx, sth, true, false, false}, {opSthux, sth, true, true, false},
		{opStb, stb, false, false, false}, {opStbu, stb, false, true, false}, {opStbx, stb, true, false, false}, {opStbux, stb, true, true, false},
		{opLwbrx, loadGPR((*CPU).ld32, swap32), true, false, true},
		{opLhbrx, loadGPR((*CPU).ld16, swap16), true, false, true},
		{opStwbrx, storeGPR((*CPU).st32, swap32), true, false, false},
		{opSthbrx, storeGPR((*CPU).st16, swap16), true, false, false},
	}
	entries := []semEntry{{op: opLwz, fn: execLwz}, {op: opStw, fn: execStw}}
	for _, o := range ops {
		e := semEntry{op: o.op}
		switch {
		case o.x && o.upd:
			e.fn = modeXU(o.acc)
		case o.x:
			e.fn = modeX(o.acc)
		case o.upd:
			e.fn = modeDU(o.acc)
		default:
			e.fn = modeD(o.acc)
		}
		if o.upd && o.load {
			e.prep = prepLoadUpdate
		} else if o.upd {
			e.prep = prepStoreUpdate
		}
		entries = append(entries, e)
	}
	registerSem(entries)
}
