package ppc

import (
	"encoding/binary"
	"math/bits"
	"sync/atomic"
)

// semFn executes one predecoded instruction. It returns true when the block must end after
// it: the function has set c.PC (a branch, sc, a fault via raise, or a store that changed
// code), and c.stop when the CPU must stop.
type semFn func(c *CPU, in *inst) bool

// inst is a predecoded instruction: its semantics, its word and address, and fields pulled
// out once (imm: the sign-extended 16-bit immediate, a branch target, or a rotate mask).
type inst struct {
	fn             semFn
	w, pc, imm     uint32
	rt, ra, rb, rc uint8
	class          Class
	ends           bool
	inline         inlineOp // nonzero: runBlock executes it without calling fn
	chain          inlineOp // the form runChain executes (inlNone: call fn)
}

// cacheLen is the number of per-CPU block cache entries.
const cacheLen = 256

// maxBlock bounds a block's length so the budget check stays cheap and fine-grained.
const maxBlock = 64

// block is a straight-line run of instructions ending at a branch, sc, trap, an undecodable
// word or the page end, with its totals for the counters.
type block struct {
	insts                []inst
	ops                  []uop                      // the same instructions as micro-ops, for runChain
	native               atomic.Pointer[nativeCode] // its translation, made on first run
	cp                   *codePage
	cycles               uint64
	loads, stores, fpops uint64
	start, end           uint32 // end: the address after the last instruction
}

// codePage holds the blocks predecoded from one physical page, by starting word. It is
// shared by every CPU that maps the page and dropped when the page is written.
type codePage struct {
	blocks [PageSize / 4]atomic.Pointer[block]
}

// blockCache is a small per-CPU direct-mapped cache in front of the page table walk. It is
// flushed whenever the Memory's code generation moves (code written, page copied, unmapped
// or reprotected). Its entries are allocated when the CPU first runs (syncMem), apart
// from the CPU: a CPU of 4 KiB would take the allocator's 4.75 KiB size, the two halves
// take 4.25 KiB, and a process that never runs takes none of the 2 KiB.
type blockCache struct {
	gen     uint64
	mem     *Memory
	entries *[cacheLen]*block
}

// pageCache remembers the last page read and the last page written (a one-entry TLB each)
// by virtual page number. The write entry only ever holds a private, writable page without
// predecoded code, so stores through it need no further checks.
type pageCache struct {
	rTag, wTag   uint32
	rPage, wPage *[PageSize]byte
}

// noTag is a page number no address has.
const noTag = 1 << 31

// victimLen is the number of entries of the victim page cache (a power of two). 64, not
// 16: the software TLB of translated code is this cache, and with 16 a quarter of 64-rank
// CoMD's instructions ran interpreted after a miss (81% translated against 98%).
const victimLen = 64

// victimCache holds, direct-mapped by page number, pages the one-entry caches served
// before: a program alternating between its stack, data and heap pages refills the
// one-entry caches from here instead of walking the page table. Its write side obeys the
// same rule as pageCache's.
type victimCache struct {
	rTag, wTag   [victimLen]uint32
	rPage, wPage [victimLen]*[PageSize]byte
}

// flush empties the cache.
func (v *victimCache) flush() {
	for i := range v.rTag {
		v.rTag[i], v.wTag[i] = noTag, noTag
	}
}

// syncMem flushes the CPU's caches when its Memory changed shape since they were filled.
func (c *CPU) syncMem() {
	m := c.Mem
	if c.cache.gen != m.gen || c.cache.mem != m {
		if c.cache.entries == nil {
			c.cache.entries = new([cacheLen]*block)
		} else {
			*c.cache.entries = [cacheLen]*block{}
		}
		c.cache.gen, c.cache.mem = m.gen, m
		c.tlb = pageCache{rTag: noTag, wTag: noTag}
		c.victim.flush()
	}
}

func (c *CPU) lookup(pc uint32) *block {
	c.syncMem()
	slot := &c.cache.entries[pc>>2&(cacheLen-1)]
	if b := *slot; b != nil && b.start == pc {
		return b
	}
	b := c.lookupSlow(pc)
	c.syncMem()
	if b != nil {
		c.cache.entries[pc>>2&(cacheLen-1)] = b
	}
	if c.tlb.wTag == pc>>pageShift {
		c.tlb.wTag = noTag // the page now holds code: stores must see it
	}
	if k := pc >> pageShift & (victimLen - 1); c.victim.wTag[k] == pc>>pageShift {
		c.victim.wTag[k] = noTag
	}
	return b
}

func (c *CPU) lookupSlow(pc uint32) *block {
	m := c.Mem
	pg, err := m.readPage(pc, PermX)
	if err != nil || pc&3 != 0 {
		c.PC = pc
		c.stop = Stop{Kind: StopFault, Fault: &Fault{Kind: FaultAccess, PC: pc, Addr: pc}}
		return nil
	}
	if pg == nil {
		// Executable but never written: all zero words, which are illegal. Give it a real
		// page so it can hold predecoded code.
		if pg, err = m.writePage(pc, true); err != nil {
			return nil
		}
	}
	cp := pg.code.Load()
	if cp == nil {
		cp = new(codePage)
		if !pg.code.CompareAndSwap(nil, cp) {
			cp = pg.code.Load()
		}
	}
	slot := &cp.blocks[pc&pageMask>>2]
	if b := slot.Load(); b != nil {
		return b
	}
	b := c.decodeBlock(pg, pc)
	b.cp = cp
	// One block per slot, whoever decoded it first: translated blocks of the page jump
	// into each other's code, which reads link slots the block keeps alive.
	if !slot.CompareAndSwap(nil, b) {
		b = slot.Load()
	}
	return b
}

func (c *CPU) decodeBlock(pg *page, pc uint32) *block {
	b := &block{start: pc}
	costs := &DefaultCosts
	for a := pc; ; a += 4 {
		w := binary.BigEndian.Uint32(pg.data[a&pageMask:])
		in := predecode(w, a)
		if isTimebaseRead(w) {
			// mfspr TBL/TBU add the cycles of the block's instructions before them to
			// the counters, which advance per block: the timebase reads exactly.
			in.imm = uint32(b.cycles)
		}
		b.insts = append(b.insts, in)
		b.ops = append(b.ops, in.uop())
		b.cycles += uint64(costs[in.class])
		ld, st, fp := in.events()
		b.loads, b.stores, b.fpops = b.loads+ld, b.stores+st, b.fpops+fp
		if in.ends || (a+4)&pageMask == 0 || len(b.insts) == maxBlock {
			b.end = a + 4
			forward(b.ops)
			return b
		}
	}
}

// untilBreakpoint returns how many instructions of b run before a breakpoint (at least one:
// the caller has already stopped for a breakpoint at the current PC).
func (b *block) untilBreakpoint(bps map[uint32]bool) uint64 {
	for i := 1; i < len(b.insts); i++ {
		if bps[b.insts[i].pc] {
			return uint64(i)
		}
	}
	return uint64(len(b.insts))
}

// runBlock executes instructions from..limit-1 of b (the ones before from ran as
// translated code) and updates the counters for all of them; it returns true when the
// CPU must stop (c.stop says why). The most frequent register forms and
// page-cache hits of lwz/stw/stwu run in the switch (one jump-table dispatch, no call); the
// rest call their semantics. This is the interpreter's inner loop, kept in one function.
func (c *CPU) runBlock(b *block, from int, limit uint64) bool {
	insts := b.insts
	if uint64(len(insts)) > limit {
		insts = insts[:limit]
	}
	g := &c.GPR
	for i := from; i < len(insts); i++ {
		in := &insts[i]
		switch in.inline {
		case inlNone:
		case inlAddi:
			g[in.rt&31] = c.ra0(in) + in.imm
			continue
		case inlAddis:
			g[in.rt&31] = c.ra0(in) + in.imm<<16
			continue
		case inlAdd:
			g[in.rt&31] = g[in.ra&31] + g[in.rb&31]
			continue
		case inlSubf:
			g[in.rt&31] = g[in.rb&31] - g[in.ra&31]
			continue
		case inlOr:
			g[in.ra&31] = g[in.rt&31] | g[in.rb&31]
			continue
		case inlXor:
			g[in.ra&31] = g[in.rt&31] ^ g[in.rb&31]
			continue
		case inlAnd:
			g[in.ra&31] = g[in.rt&31] & g[in.rb&31]
			continue
		case inlRlwinm:
			g[in.ra&31] = bits.RotateLeft32(g[in.rt&31], int(in.rb)) & in.imm
			continue
		case inlMullw:
			g[in.rt&31] = g[in.ra&31] * g[in.rb&31]
			continue
		case inlOri:
			g[in.ra&31] = g[in.rt&31] | in.w&0xffff
			continue
		case inlCmpi:
			c.setCRField(uint32(in.rt>>2), cmpSigned(int32(g[in.ra&31]), int32(in.imm))|c.XER>>31)
			continue
		case inlCmpli:
			c.setCRField(uint32(in.rt>>2), cmpUnsigned(g[in.ra&31], in.w&0xffff)|c.XER>>31)
			continue
		case inlCmp:
			c.setCRField(uint32(in.rt>>2), cmpSigned(int32(g[in.ra&31]), int32(g[in.rb&31]))|c.XER>>31)
			continue
		case inlCmpl:
			c.setCRField(uint32(in.rt>>2), cmpUnsigned(g[in.ra&31], g[in.rb&31])|c.XER>>31)
			continue
		case inlMflr:
			g[in.rt&31] = c.LR
			continue
		case inlMtlr:
			c.LR = g[in.rt&31]
			continue
		case inlMtctr:
			c.CTR = g[in.rt&31]
			continue
		case inlLwz:
			if ea := c.ra0(in) + in.imm; ea>>pageShift == c.tlb.rTag && ea&pageMask <= PageSize-4 {
				o := ea & pageMask
				g[in.rt&31] = binary.BigEndian.Uint32(c.tlb.rPage[o : o+4])
				continue
			}
		case inlStw:
			if ea := c.ra0(in) + in.imm; ea>>pageShift == c.tlb.wTag && ea&pageMask <= PageSize-4 {
				o := ea & pageMask
				binary.BigEndian.PutUint32(c.tlb.wPage[o:o+4], g[in.rt&31])
				continue
			}
		case inlStwu:
			if ea := g[in.ra&31] + in.imm; ea>>pageShift == c.tlb.wTag && ea&pageMask <= PageSize-4 {
				o := ea & pageMask
				binary.BigEndian.PutUint32(c.tlb.wPage[o:o+4], g[in.rt&31])
				g[in.ra&31] = ea
				continue
			}
		}
		if in.fn(c, in) {
			if i == len(b.insts)-1 && c.stop.Kind == StopBudget { // a branch ending the block
				c.countBlock(b)
				return false
			}
			return c.leaveBlock(b, i)
		}
	}
	if len(insts) == len(b.insts) {
		c.countBlock(b)
	} else {
		c.countPartial(b, len(insts))
	}
	c.PC = b.start + 4*uint32(len(insts))
	return false
}

// leaveBlock counts the instructions up to the i-th, which ended the block (PC is set; a
// fault or trap does not count its instruction), and reports whether the CPU stops.
func (c *CPU) leaveBlock(b *block, i int) bool {
	n := i + 1
	if c.stop.Fault != nil {
		n = i
	}
	if n == len(b.insts) {
		c.countBlock(b)
	} else {
		c.countPartial(b, n)
	}
	return c.stop.Kind != StopBudget
}

func (c *CPU) countBlock(b *block) {
	c.Count.Instructions += uint64(len(b.insts))
	c.Count.Cycles += b.cycles
	c.Count.Loads += b.loads
	c.Count.Stores += b.stores
	c.Count.FPOps += b.fpops
}

// countPartial counts the first n instructions of b (a block left early).
func (c *CPU) countPartial(b *block, n int) {
	for i := range b.insts[:n] {
		in := &b.insts[i]
		ld, st, fp := in.events()
		c.Count.Cycles += uint64(DefaultCosts[in.class])
		c.Count.Loads += ld
		c.Count.Stores += st
		c.Count.FPOps += fp
	}
	c.Count.Instructions += uint64(n)
}
