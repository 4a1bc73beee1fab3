package ppc

// Translated execution: blocks run as amd64 machine code (native_*_amd64.go) where the
// host allows it, the interpreter everywhere else and for whatever the translator leaves.

// DefaultTranslation says whether CPUs made by NewCPU run translated code; SetTranslation
// changes one CPU. Set it before any CPU is made.
var DefaultTranslation = true

// nativeCode is a block's translation: the entry of its machine code and how many of the
// block's instructions it covers (entry 0: none, the interpreter runs the block).
type nativeCode struct {
	entry uintptr
	insts int
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

// runNative runs b and the blocks that follow it as translated code while the budget
// covers them (left is at least len(b.insts)), like runChain. A block without a
// translation runs in the chained interpreter; a translation that covers only a prefix
// of its block, or leaves before a load or store its page cache cannot serve, hands the
// rest of the block to runBlock, which also counts it: the counters and PC are then
// exactly the interpreter's. It returns true when the CPU must stop.
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
		r := nativeEnter(nc.entry, c)
		n, next := int(r>>32), uint32(r)
		c.translated += uint64(n)
		if n < len(b.insts) {
			c.PC = next
			return c.runBlock(b, n, uint64(len(b.insts)))
		}
		c.countBlock(b)
		left -= uint64(n)
		c.PC = next
		if b = c.chainNext(b, next, gen, left); b == nil {
			return false
		}
	}
}
