package bgl

// Entry marks (ppc.CPU.MarkEntry) through the debug interface: a tool learns whether code
// it placed on a node — a trampoline's first word — ever began to run, at no cost to the
// node: the node never stops for a mark and its clock does not move. Reading a mark is
// allowed after the node ended, since that is when a tool asks.

// MarkEntry arms a one-shot entry mark at addr on rank's node.
func (d *Debug) MarkEntry(rank int, addr uint32) error {
	n, err := d.live("mark", rank)
	if err == nil {
		n.cpu.MarkEntry(addr)
	}
	return err
}

// ClearEntryMark disarms the mark at addr on rank's node and forgets whether it was
// reached.
func (d *Debug) ClearEntryMark(rank int, addr uint32) error {
	n, err := d.node("mark", rank)
	if err == nil {
		n.cpu.ClearEntryMark(addr)
	}
	return err
}

// EntryReached reports whether code at addr began to run on rank's node since the mark
// there was armed.
func (d *Debug) EntryReached(rank int, addr uint32) (bool, error) {
	n, err := d.node("mark", rank)
	if err != nil {
		return false, err
	}
	return n.cpu.EntryReached(addr), nil
}
