package ppc

import "sync/atomic"

// Translated execution: blocks run as amd64 machine code (native_*_amd64.go) where the
// host allows it, the interpreter everywhere else and for whatever the translator leaves.

// DefaultTranslation says whether CPUs made by NewCPU run translated code; SetTranslation
// changes one CPU. Set it before any CPU is made.
var DefaultTranslation = true

// nativeCode is a block's translation: the entry of its machine code and how many of the
// block's instructions it covers (entry 0: none, the interpreter runs the block). Its
// code jumps straight to the translation of a block in the same page at targets[k] once
// the dispatcher has put that translation's entry in links[k] (the code reads the slot:
// its address is part of the code, and the block keeps this struct alive as long as
// its code can run).
type nativeCode struct {
	entry   uintptr
	insts   int
	targets [2]uint32
	links   [2]uintptr
	// dynamic: the block ends in bclr or bcctr, whose code looks its target up in dyn.
	dynamic bool
	dyn     atomic.Pointer[dynLink]
}

// dynLinks is how many targets of one bclr or bcctr its code can go to directly: a
// function returning to three call sites in its page goes straight back to each.
const dynLinks = 4

// dynLink records up to dynLinks targets of a bclr or bcctr in the block's page and their
// translations. It is never changed once published: a new one replaces it, and the old
// one stays valid for code already reading it (the collector frees it only after every
// goroutine has passed a safe point, which translated code never is).
type dynLink struct {
	pc    [dynLinks]uint32
	entry [dynLinks]uintptr
}

// nativeSlice bounds the instructions translated code runs before it returns to Go:
// a goroutine in translated code cannot be preempted, so a guest spinning in a loop of
// linked blocks under a large budget must not hold off the collector's stop-the-world.
const nativeSlice = 1 << 16

// noLink is a target no block has (not word-aligned).
const noLink = 1

// link makes the code of nc, the translation of the block at from, go on into nb's
// translation when its block ends at pc.
func (nc *nativeCode) link(from, pc uint32, nb *block) {
	if nc.dynamic {
		if pc>>pageShift == from>>pageShift {
			nc.linkDynamic(pc, nb)
		}
		return
	}
	for k, target := range nc.targets {
		if target == pc && atomic.LoadUintptr(&nc.links[k]) == 0 {
			if tn := nb.native.Load(); tn != nil && tn.entry != 0 {
				atomic.StoreUintptr(&nc.links[k], tn.entry)
			}
		}
	}
}

// noNative marks a block whose first instruction is not translated.
var noNative = &nativeCode{}

// SetTranslation turns translated execution on or off for c. It stays off on hosts
// without a translator (anything but linux/amd64); results are the same either way.
func (c *CPU) SetTranslation(on bool) { c.translate = on && nativeSupported }

// Translation reports whether c runs translated code.
func (c *CPU) Translation() bool { return c.translate }

// TranslatedInstructions returns how many of c's instructions ran as translated code
// (the others ran in the interpreter).
func (c *CPU) TranslatedInstructions() uint64 { return c.translated }

// linkDynamic records nb as a target of nc's closing bclr or bcctr while a place is free
// (the first targets seen stay: no churn on a return that alternates between many
// callers). pc is in the page of nc's block.
func (nc *nativeCode) linkDynamic(pc uint32, nb *block) {
	tn := nb.native.Load()
	if tn == nil || tn.entry == 0 {
		return
	}
	d := &dynLink{}
	for k := range d.pc {
		d.pc[k] = noLink
	}
	if old := nc.dyn.Load(); old != nil {
		*d = *old
	}
	for k, p := range d.pc {
		switch p {
		case pc:
			return
		case noLink:
			d.pc[k], d.entry[k] = pc, tn.entry
			nc.dyn.Store(d)
			return
		}
	}
}

// runNative runs b and the blocks that follow it as translated code while the budget
// covers them (left is at least len(b.insts)), like runChain. The code counts each block
// it completes and goes on by itself to linked blocks of the same page while the budget
// left (CPU.nativeLeft) covers any block; it returns the block it stopped in, where, and
// the next pc. A block without a translation runs in the chained interpreter; a
// translation that covers only a prefix of its block, or leaves before a load or store
// its page cache cannot serve, hands the rest of the block to runBlock, which counts all
// of it: the counters and PC are then exactly the interpreter's. It returns true when
// the CPU must stop.
func (c *CPU) runNative(b *block, left uint64) bool {
	gen := c.Mem.gen
	for {
		nc := b.native.Load()
		if nc == nil {
			nc = translate(b)
		}
		if nc.entry == 0 {
			return c.runChain(b, uint64(len(b.insts)))
		}
		lim := min(left, nativeSlice)
		c.nativeLeft = lim
		r := nativeEnter(nc.entry, c)
		left -= lim - c.nativeLeft
		next, n, word := uint32(r), int(r>>32&0xff), uint32(r>>40)
		if word != b.start&pageMask>>2 { // it went on into linked blocks of the page
			b = b.cp.blocks[word].Load()
			nc = b.native.Load()
		}
		c.PC = next
		if n < len(b.insts) {
			c.translated += uint64(n)
			return c.runBlock(b, n, uint64(len(b.insts)))
		}
		nb := c.chainNext(b, next, gen, left)
		if nb == nil {
			return false
		}
		if nc != nil {
			nc.link(b.start, next, nb)
		}
		b = nb
	}
}
