package ppc

import (
	"encoding/binary"
	"math/bits"
)

// runChain runs b and the blocks that follow it while the budget covers them: left is the
// budget remaining, at least len(b.insts). It returns true when the CPU must stop (c.stop
// says why) and false when Run should continue (budget, a block not yet predecoded or
// cached, or the Memory changed). This is the interpreter's inner loop: one function so
// the registers stay in machine registers and every micro-op is one jump-table dispatch.
func (c *CPU) runChain(b *block, left uint64) bool {
	gen := c.Mem.gen
	g := &c.GPR
	for {
		ops := b.ops
		next := b.end
		for i := range ops {
			u := &ops[i]
			switch u.op {
			case inlNone:
			case inlAddi:
				g[u.rt&31] = g[u.ra&31] + u.imm
				continue
			case inlLi:
				g[u.rt&31] = u.imm
				continue
			case inlAddis:
				g[u.rt&31] = g[u.ra&31] + u.imm<<16
				continue
			case inlLis:
				g[u.rt&31] = u.imm << 16
				continue
			case inlAdd:
				g[u.rt&31] = g[u.ra&31] + g[u.rb&31]
				continue
			case inlSubf:
				g[u.rt&31] = g[u.rb&31] - g[u.ra&31]
				continue
			case inlOr:
				g[u.ra&31] = g[u.rt&31] | g[u.rb&31]
				continue
			case inlOrDot:
				r := g[u.rt&31] | g[u.rb&31]
				g[u.ra&31] = r
				c.cr0(r)
				continue
			case inlXor:
				g[u.ra&31] = g[u.rt&31] ^ g[u.rb&31]
				continue
			case inlAnd:
				g[u.ra&31] = g[u.rt&31] & g[u.rb&31]
				continue
			case inlAndc:
				g[u.ra&31] = g[u.rt&31] &^ g[u.rb&31]
				continue
			case inlNor:
				g[u.ra&31] = ^(g[u.rt&31] | g[u.rb&31])
				continue
			case inlRlwinm:
				g[u.ra&31] = bits.RotateLeft32(g[u.rt&31], int(u.rb)) & u.imm
				continue
			case inlRlwimi:
				g[u.ra&31] = bits.RotateLeft32(g[u.rt&31], int(u.rb))&u.imm | g[u.ra&31]&^u.imm
				continue
			case inlMullw:
				g[u.rt&31] = g[u.ra&31] * g[u.rb&31]
				continue
			case inlMulli:
				g[u.rt&31] = uint32(int32(g[u.ra&31]) * int32(u.imm))
				continue
			case inlOri:
				g[u.ra&31] = g[u.rt&31] | u.imm&0xffff
				continue
			case inlOris:
				g[u.ra&31] = g[u.rt&31] | u.imm<<16
				continue
			case inlXori:
				g[u.ra&31] = g[u.rt&31] ^ u.imm&0xffff
				continue
			case inlAndiDot:
				r := g[u.rt&31] & u.imm & 0xffff
				g[u.ra&31] = r
				c.cr0(r)
				continue
			case inlAddic, inlAddicDot:
				s, carry := bits.Add32(g[u.ra&31], u.imm, 0)
				c.XER = c.XER&^XerCA | carry<<29
				g[u.rt&31] = s
				if u.op == inlAddicDot {
					c.cr0(s)
				}
				continue
			case inlSlw:
				n := g[u.rb&31] & 63
				var r uint32
				if n < 32 {
					r = g[u.rt&31] << n
				}
				g[u.ra&31] = r
				continue
			case inlSrw:
				n := g[u.rb&31] & 63
				var r uint32
				if n < 32 {
					r = g[u.rt&31] >> n
				}
				g[u.ra&31] = r
				continue
			case inlSrawi:
				s := int32(g[u.rt&31])
				n := uint32(u.rb & 31)
				ca := uint32(0)
				if s < 0 && uint32(s)&(1<<n-1) != 0 {
					ca = XerCA
				}
				c.XER = c.XER&^XerCA | ca
				g[u.ra&31] = uint32(s >> n)
				continue
			case inlNeg:
				g[u.rt&31] = -g[u.ra&31]
				continue
			case inlExtsb:
				g[u.ra&31] = uint32(int32(int8(g[u.rt&31])))
				continue
			case inlExtsh:
				g[u.ra&31] = uint32(int32(int16(g[u.rt&31])))
				continue
			case inlCntlzw:
				g[u.ra&31] = uint32(bits.LeadingZeros32(g[u.rt&31]))
				continue
			case inlCmpi:
				c.setCRField(uint32(u.rt>>2), cmpSigned(int32(g[u.ra&31]), int32(u.imm))|c.XER>>31)
				continue
			case inlCmpli:
				c.setCRField(uint32(u.rt>>2), cmpUnsigned(g[u.ra&31], u.imm&0xffff)|c.XER>>31)
				continue
			case inlCmp:
				c.setCRField(uint32(u.rt>>2), cmpSigned(int32(g[u.ra&31]), int32(g[u.rb&31]))|c.XER>>31)
				continue
			case inlCmpl:
				c.setCRField(uint32(u.rt>>2), cmpUnsigned(g[u.ra&31], g[u.rb&31])|c.XER>>31)
				continue
			case inlMflr:
				g[u.rt&31] = c.LR
				continue
			case inlMtlr:
				c.LR = g[u.rt&31]
				continue
			case inlMtctr:
				c.CTR = g[u.rt&31]
				continue
			case inlMfctr:
				g[u.rt&31] = c.CTR
				continue
			case inlMfcr:
				g[u.rt&31] = c.CR
				continue
			case inlLwz:
				if ea := g[u.ra&31] + u.imm; ea>>pageShift == c.tlb.rTag && ea&pageMask <= PageSize-4 {
					o := ea & pageMask
					g[u.rt&31] = binary.BigEndian.Uint32(c.tlb.rPage[o : o+4])
					continue
				}
			case inlLwzu:
				if ea := g[u.ra&31] + u.imm; ea>>pageShift == c.tlb.rTag && ea&pageMask <= PageSize-4 {
					o := ea & pageMask
					g[u.rt&31] = binary.BigEndian.Uint32(c.tlb.rPage[o : o+4])
					g[u.ra&31] = ea
					continue
				}
			case inlLwzx:
				if ea := g[u.ra&31] + g[u.rb&31]; ea>>pageShift == c.tlb.rTag && ea&pageMask <= PageSize-4 {
					o := ea & pageMask
					g[u.rt&31] = binary.BigEndian.Uint32(c.tlb.rPage[o : o+4])
					continue
				}
			case inlLhz:
				if ea := g[u.ra&31] + u.imm; ea>>pageShift == c.tlb.rTag && ea&pageMask <= PageSize-2 {
					o := ea & pageMask
					g[u.rt&31] = uint32(binary.BigEndian.Uint16(c.tlb.rPage[o : o+2]))
					continue
				}
			case inlLbz:
				if ea := g[u.ra&31] + u.imm; ea>>pageShift == c.tlb.rTag {
					g[u.rt&31] = uint32(c.tlb.rPage[ea&pageMask])
					continue
				}
			case inlLbzu:
				if ea := g[u.ra&31] + u.imm; ea>>pageShift == c.tlb.rTag {
					g[u.rt&31] = uint32(c.tlb.rPage[ea&pageMask])
					g[u.ra&31] = ea
					continue
				}
			case inlStw:
				if ea := g[u.ra&31] + u.imm; ea>>pageShift == c.tlb.wTag && ea&pageMask <= PageSize-4 {
					o := ea & pageMask
					binary.BigEndian.PutUint32(c.tlb.wPage[o:o+4], g[u.rt&31])
					continue
				}
			case inlStwu:
				if ea := g[u.ra&31] + u.imm; ea>>pageShift == c.tlb.wTag && ea&pageMask <= PageSize-4 {
					o := ea & pageMask
					binary.BigEndian.PutUint32(c.tlb.wPage[o:o+4], g[u.rt&31])
					g[u.ra&31] = ea
					continue
				}
			case inlStwx:
				if ea := g[u.ra&31] + g[u.rb&31]; ea>>pageShift == c.tlb.wTag && ea&pageMask <= PageSize-4 {
					o := ea & pageMask
					binary.BigEndian.PutUint32(c.tlb.wPage[o:o+4], g[u.rt&31])
					continue
				}
			case inlSth:
				if ea := g[u.ra&31] + u.imm; ea>>pageShift == c.tlb.wTag && ea&pageMask <= PageSize-2 {
					o := ea & pageMask
					binary.BigEndian.PutUint16(c.tlb.wPage[o:o+2], uint16(g[u.rt&31]))
					continue
				}
			case inlStb:
				if ea := g[u.ra&31] + u.imm; ea>>pageShift == c.tlb.wTag {
					c.tlb.wPage[ea&pageMask] = byte(g[u.rt&31])
					continue
				}
			case inlStbu:
				if ea := g[u.ra&31] + u.imm; ea>>pageShift == c.tlb.wTag {
					c.tlb.wPage[ea&pageMask] = byte(g[u.rt&31])
					g[u.ra&31] = ea
					continue
				}
			case inlB:
				if u.rb != 0 {
					c.LR = b.end
				}
				next = u.imm
				c.Count.Branches++
				continue
			case inlBC:
				if u.rb != 0 {
					c.LR = b.end
				}
				if c.branchCond(u, true) {
					next = u.imm
				}
				continue
			case inlBCLR:
				target := c.LR &^ 3
				if c.branchCond(u, true) {
					next = target
				}
				if u.rb != 0 {
					c.LR = b.end
				}
				continue
			case inlBCCTR:
				if c.branchCond(u, false) {
					next = c.CTR &^ 3
				}
				if u.rb != 0 {
					c.LR = b.end
				}
				continue
			}
			in := &b.insts[i]
			if in.fn(c, in) {
				if i != len(ops)-1 || c.stop.Kind != StopBudget {
					return c.leaveBlock(b, i)
				}
				next = c.PC // a branch ending the block
			}
		}
		c.countBlock(b)
		left -= uint64(len(ops))
		c.PC = next
		if b = c.chainNext(b, next, gen, left); b == nil {
			return false
		}
	}
}

// branchCond evaluates BO (rt) and BI (ra) of a conditional branch micro-op, decrementing
// CTR when BO says so, and counts the branch when it is taken.
func (c *CPU) branchCond(u *uop, useCTR bool) bool {
	bo := u.rt
	ok := true
	if useCTR && bo&4 == 0 {
		c.CTR--
		ok = (c.CTR != 0) != (bo&2 != 0)
	}
	if bo&16 == 0 {
		ok = ok && (c.CR>>(31-u.ra&31)&1 != 0) == (bo&8 != 0)
	}
	if ok {
		c.Count.Branches++
	}
	return ok
}

// chainNext returns the block at pc to run after b, or nil to go back to Run: the Memory
// changed since the chain started (gen), the block is not predecoded or cached yet, or
// the budget left does not cover it. A pc in b's virtual page is in b's physical page.
func (c *CPU) chainNext(b *block, pc uint32, gen uint64, left uint64) *block {
	if c.Mem.gen != gen {
		return nil
	}
	var nb *block
	if pc>>pageShift == b.start>>pageShift {
		nb = b.cp.blocks[pc&pageMask>>2].Load()
	} else if e := c.cache.entries[pc>>2&(cacheLen-1)]; e != nil && e.start == pc {
		nb = e
	}
	if nb == nil || uint64(len(nb.ops)) > left {
		return nil
	}
	return nb
}
