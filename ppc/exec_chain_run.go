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
	var acc uint32 // the last forwarding result (see forward)
	for {
		ops := b.ops
		next := b.end
		for i := range ops {
			u := &ops[i]
			switch u.op {
			case inlNone:
			case inlAddi:
				acc = g[u.ra&31] + u.imm
				g[u.rt&31] = acc
				continue
			case inlAddiF:
				acc += u.imm
				g[u.rt&31] = acc
				continue
			case inlLi:
				acc = u.imm
				g[u.rt&31] = acc
				continue
			case inlAddis:
				acc = g[u.ra&31] + u.imm<<16
				g[u.rt&31] = acc
				continue
			case inlLis:
				acc = u.imm << 16
				g[u.rt&31] = acc
				continue
			case inlAdd:
				acc = g[u.ra&31] + g[u.rb&31]
				g[u.rt&31] = acc
				continue
			case inlAddF:
				acc += g[u.rb&31]
				g[u.rt&31] = acc
				continue
			case inlSubf:
				acc = g[u.rb&31] - g[u.ra&31]
				g[u.rt&31] = acc
				continue
			case inlSubfFA:
				acc = g[u.rb&31] - acc
				g[u.rt&31] = acc
				continue
			case inlSubfFB:
				acc -= g[u.ra&31]
				g[u.rt&31] = acc
				continue
			case inlOr:
				acc = g[u.rt&31] | g[u.rb&31]
				g[u.ra&31] = acc
				continue
			case inlOrF:
				acc |= g[u.rb&31]
				g[u.ra&31] = acc
				continue
			case inlOrDot:
				acc = g[u.rt&31] | g[u.rb&31]
				g[u.ra&31] = acc
				c.cr0(acc)
				continue
			case inlXor:
				acc = g[u.rt&31] ^ g[u.rb&31]
				g[u.ra&31] = acc
				continue
			case inlXorF:
				acc ^= g[u.rb&31]
				g[u.ra&31] = acc
				continue
			case inlAnd:
				acc = g[u.rt&31] & g[u.rb&31]
				g[u.ra&31] = acc
				continue
			case inlAndF:
				acc &= g[u.rb&31]
				g[u.ra&31] = acc
				continue
			case inlAndc:
				acc = g[u.rt&31] &^ g[u.rb&31]
				g[u.ra&31] = acc
				continue
			case inlNor:
				acc = ^(g[u.rt&31] | g[u.rb&31])
				g[u.ra&31] = acc
				continue
			case inlRlwinm:
				acc = bits.RotateLeft32(g[u.rt&31], int(u.rb)) & u.imm
				g[u.ra&31] = acc
				continue
			case inlRlwinmF:
				acc = bits.RotateLeft32(acc, int(u.rb)) & u.imm
				g[u.ra&31] = acc
				continue
			case inlRlwimi:
				g[u.ra&31] = bits.RotateLeft32(g[u.rt&31], int(u.rb))&u.imm | g[u.ra&31]&^u.imm
				continue
			case inlMullw:
				acc = g[u.ra&31] * g[u.rb&31]
				g[u.rt&31] = acc
				continue
			case inlMullwF:
				acc *= g[u.rb&31]
				g[u.rt&31] = acc
				continue
			case inlMulli:
				acc = uint32(int32(g[u.ra&31]) * int32(u.imm))
				g[u.rt&31] = acc
				continue
			case inlOri:
				acc = g[u.rt&31] | u.imm&0xffff
				g[u.ra&31] = acc
				continue
			case inlOris:
				acc = g[u.rt&31] | u.imm<<16
				g[u.ra&31] = acc
				continue
			case inlXori:
				acc = g[u.rt&31] ^ u.imm&0xffff
				g[u.ra&31] = acc
				continue
			case inlAndiDot:
				acc = g[u.rt&31] & u.imm & 0xffff
				g[u.ra&31] = acc
				c.cr0(acc)
				continue
			case inlAddic, inlAddicDot:
				var carry uint32
				acc, carry = bits.Add32(g[u.ra&31], u.imm, 0)
				c.XER = c.XER&^XerCA | carry<<29
				g[u.rt&31] = acc
				if u.op == inlAddicDot {
					c.cr0(acc)
				}
				continue
			case inlSlw:
				n := g[u.rb&31] & 63
				acc = 0
				if n < 32 {
					acc = g[u.rt&31] << n
				}
				g[u.ra&31] = acc
				continue
			case inlSrw:
				n := g[u.rb&31] & 63
				acc = 0
				if n < 32 {
					acc = g[u.rt&31] >> n
				}
				g[u.ra&31] = acc
				continue
			case inlSrawi:
				s := int32(g[u.rt&31])
				n := uint32(u.rb & 31)
				ca := uint32(0)
				if s < 0 && uint32(s)&(1<<n-1) != 0 {
					ca = XerCA
				}
				c.XER = c.XER&^XerCA | ca
				acc = uint32(s >> n)
				g[u.ra&31] = acc
				continue
			case inlNeg:
				acc = -g[u.ra&31]
				g[u.rt&31] = acc
				continue
			case inlExtsb:
				acc = uint32(int32(int8(g[u.rt&31])))
				g[u.ra&31] = acc
				continue
			case inlExtsh:
				acc = uint32(int32(int16(g[u.rt&31])))
				g[u.ra&31] = acc
				continue
			case inlCntlzw:
				acc = uint32(bits.LeadingZeros32(g[u.rt&31]))
				g[u.ra&31] = acc
				continue
			case inlCmpi:
				c.setCRField(uint32(u.rt), cmpSigned(int32(g[u.ra&31]), int32(u.imm))|c.XER>>31)
				continue
			case inlCmpiF:
				c.setCRField(uint32(u.rt), cmpSigned(int32(acc), int32(u.imm))|c.XER>>31)
				continue
			case inlCmpli:
				c.setCRField(uint32(u.rt), cmpUnsigned(g[u.ra&31], u.imm&0xffff)|c.XER>>31)
				continue
			case inlCmpliF:
				c.setCRField(uint32(u.rt), cmpUnsigned(acc, u.imm&0xffff)|c.XER>>31)
				continue
			case inlCmp:
				c.setCRField(uint32(u.rt), cmpSigned(int32(g[u.ra&31]), int32(g[u.rb&31]))|c.XER>>31)
				continue
			case inlCmpF:
				c.setCRField(uint32(u.rt), cmpSigned(int32(acc), int32(g[u.rb&31]))|c.XER>>31)
				continue
			case inlCmpl:
				c.setCRField(uint32(u.rt), cmpUnsigned(g[u.ra&31], g[u.rb&31])|c.XER>>31)
				continue
			case inlCmplF:
				c.setCRField(uint32(u.rt), cmpUnsigned(acc, g[u.rb&31])|c.XER>>31)
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
					acc = binary.BigEndian.Uint32(c.tlb.rPage[o : o+4])
					g[u.rt&31] = acc
					continue
				}
			case inlLwzu:
				if ea := g[u.ra&31] + u.imm; ea>>pageShift == c.tlb.rTag && ea&pageMask <= PageSize-4 {
					o := ea & pageMask
					acc = binary.BigEndian.Uint32(c.tlb.rPage[o : o+4])
					g[u.rt&31] = acc
					g[u.ra&31] = ea
					continue
				}
			case inlLwzx:
				if ea := g[u.ra&31] + g[u.rb&31]; ea>>pageShift == c.tlb.rTag && ea&pageMask <= PageSize-4 {
					o := ea & pageMask
					acc = binary.BigEndian.Uint32(c.tlb.rPage[o : o+4])
					g[u.rt&31] = acc
					continue
				}
			case inlLhz:
				if ea := g[u.ra&31] + u.imm; ea>>pageShift == c.tlb.rTag && ea&pageMask <= PageSize-2 {
					o := ea & pageMask
					acc = uint32(binary.BigEndian.Uint16(c.tlb.rPage[o : o+2]))
					g[u.rt&31] = acc
					continue
				}
			case inlLbz:
				if ea := g[u.ra&31] + u.imm; ea>>pageShift == c.tlb.rTag {
					acc = uint32(c.tlb.rPage[ea&pageMask])
					g[u.rt&31] = acc
					continue
				}
			case inlLbzu:
				if ea := g[u.ra&31] + u.imm; ea>>pageShift == c.tlb.rTag {
					acc = uint32(c.tlb.rPage[ea&pageMask])
					g[u.rt&31] = acc
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
			acc = g[u.rt&31] // a load's general path: its result, for a forwarded next

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
	} else {
		c.Count.BranchesNotTaken++
	}
	return ok
}

// chainNext returns the block at pc to run after b, or nil to go back to Run: the Memory
// changed since the chain started (gen), the block is not predecoded or cached yet, or
// the budget left does not cover it. A pc in b's virtual page is in b's physical page.
func (c *CPU) chainNext(b *block, pc uint32, gen uint64, left uint64) *block {
	if c.Mem.gen != gen || c.armed != nil && c.markedAt(pc) {
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
