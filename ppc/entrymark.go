package ppc

// Entry marks: a one-shot record that code at an address began to run, for a tool that
// wants to know whether a piece of code it placed was ever reached (a trampoline that
// never fired) without changing what the program does or when.
//
// A mark is not a breakpoint: the CPU never stops for it, charges nothing for it and
// keeps its chained and translated paths. The Run loop consumes a mark when a block
// starts at the marked address; chainNext hands control back to the Run loop before
// entering such a block, so neither the chained interpreter nor translated code (whose
// links between blocks are made there, after a first entry) runs past an armed mark.
// The mark therefore sees code entered by a branch, a return or a resume there, which
// is how trampolines are entered; an address reached only by falling through from the
// instruction before it lies inside a block and is not seen.

// MarkEntry arms a one-shot mark at addr and forgets whether addr was reached before.
func (c *CPU) MarkEntry(addr uint32) {
	if c.armed == nil {
		c.armed = map[uint32]struct{}{}
	}
	c.armed[addr] = struct{}{}
	delete(c.reached, addr)
}

// ClearEntryMark disarms the mark at addr and forgets whether it was reached.
func (c *CPU) ClearEntryMark(addr uint32) {
	c.disarm(addr)
	delete(c.reached, addr)
}

// EntryReached reports whether code at a marked addr began to run since MarkEntry.
func (c *CPU) EntryReached(addr uint32) bool { return c.reached[addr] }

// reach consumes the mark at pc, if one is armed there.
func (c *CPU) reach(pc uint32) {
	if _, ok := c.armed[pc]; !ok {
		return
	}
	c.disarm(pc)
	if c.reached == nil {
		c.reached = map[uint32]bool{}
	}
	c.reached[pc] = true
}

func (c *CPU) disarm(addr uint32) {
	delete(c.armed, addr)
	if len(c.armed) == 0 {
		c.armed = nil
	}
}

// markedAt reports whether an armed mark waits at pc.
func (c *CPU) markedAt(pc uint32) bool {
	_, ok := c.armed[pc]
	return ok
}
