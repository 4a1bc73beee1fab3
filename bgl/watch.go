package bgl

import (
	"fmt"

	"github.com/dpclsh/dpclsh/ppc"
)

// Watchpoints (gdb's watch, DynInst's watchpoints) through page protection: a watched
// page loses the permission the watch is about (W for writes, R for reads), so only
// accesses to watched pages leave the fast path — translated code included, since it
// honours page permissions like the interpreter. Such an access faults; the node restores
// the page's permissions, reads the watched bytes, executes the one instruction, reads
// them again, protects the page again and reports an EventWatch when the access concerns
// the watch. Unwatched pages, and runs without watches, are untouched: same instructions,
// same virtual time.

// WatchTrapCycles is what each access to a watched page costs its node in virtual time,
// on top of the instruction itself (a data-storage interrupt into the kernel and back,
// with two single steps' worth of bookkeeping) — whether or not it touches the watched
// bytes themselves.
const WatchTrapCycles = 1200

// Watch is a watched range of a node's memory: 1 to 8 bytes, read as a big-endian value.
type Watch struct {
	Addr, Size  uint32
	Read, Write bool
}

// watchSet is a node's watches and the permissions their pages had.
type watchSet struct {
	list []Watch
	perm map[uint32]ppc.Perm // page -> its permissions without the watches
}

// Watch starts watching w on rank. Its pages keep their contents; only their
// permissions change until Unwatch.
func (d *Debug) Watch(rank int, w Watch) error {
	n, err := d.node("watch", rank)
	if err != nil {
		return err
	}
	if w.Size < 1 || w.Size > 8 || (!w.Read && !w.Write) {
		return &DebugError{d.io.Index, rank, "watch", fmt.Sprintf("bad watch of %d bytes at 0x%x (1 to 8 bytes, read or write)", w.Size, w.Addr)}
	}
	mem := n.cpu.Mem
	if !mem.Mapped(w.Addr, w.Size) {
		return &DebugError{d.io.Index, rank, "watch", fmt.Sprintf("0x%x+%d is not mapped", w.Addr, w.Size)}
	}
	if n.watch == nil {
		n.watch = &watchSet{perm: map[uint32]ppc.Perm{}}
	}
	for _, pg := range watchPages(w) {
		if _, ok := n.watch.perm[pg]; !ok {
			n.watch.perm[pg] = mem.Perm(pg)
		}
	}
	n.watch.list = append(n.watch.list, w)
	return n.watch.protect(mem)
}

// Unwatch stops every watch of rank at addr; the pages get their permissions back.
func (d *Debug) Unwatch(rank int, addr uint32) error {
	n, err := d.node("unwatch", rank)
	if err != nil || n.watch == nil {
		return err
	}
	kept := n.watch.list[:0]
	for _, w := range n.watch.list {
		if w.Addr != addr {
			kept = append(kept, w)
		}
	}
	n.watch.list = kept
	mem := n.cpu.Mem
	for pg, p := range n.watch.perm {
		if err := mem.Protect(pg, ppc.PageSize, p); err != nil {
			return err
		}
	}
	n.watch.perm = map[uint32]ppc.Perm{}
	for _, w := range kept {
		for _, pg := range watchPages(w) {
			n.watch.perm[pg] = mem.Perm(pg)
		}
	}
	return n.watch.protect(mem)
}

func watchPages(w Watch) []uint32 {
	var out []uint32
	for pg := w.Addr &^ (ppc.PageSize - 1); pg < w.Addr+w.Size; pg += ppc.PageSize {
		out = append(out, pg)
	}
	return out
}

// protect takes from each watched page the permissions its watches are about.
func (s *watchSet) protect(mem *ppc.Memory) error {
	for pg, p := range s.perm {
		for _, w := range s.list {
			for _, wp := range watchPages(w) {
				if wp == pg && w.Write {
					p &^= ppc.PermW
				}
				if wp == pg && w.Read {
					p &^= ppc.PermR
				}
			}
		}
		if p == 0 {
			p = ppc.PermX // Protect refuses no permissions; an X-only data page still faults
		}
		if err := mem.Protect(pg, ppc.PageSize, p); err != nil {
			return err
		}
	}
	return nil
}

// watched handles an access fault on a watched page whose own permissions allow the
// access: it steps the instruction with the page open and reports the watches it
// concerns. It reports false for any other fault.
func (n *node) watched(j *Job, f *ppc.Fault) bool {
	if n.watch == nil || f.Kind != ppc.FaultAccess {
		return false
	}
	pg := f.Addr &^ (ppc.PageSize - 1)
	orig, ok := n.watch.perm[pg]
	if !ok || (f.Write && orig&ppc.PermW == 0) || (!f.Write && orig&ppc.PermR == 0) {
		return false
	}
	mem := n.cpu.Mem
	if err := mem.Protect(pg, ppc.PageSize, orig); err != nil {
		return false
	}
	olds := n.watch.values(mem)
	st := n.cpu.Step()
	news := n.watch.values(mem)
	if err := n.watch.protect(mem); err != nil {
		panic(fmt.Sprintf("bgl: watch: re-protecting page 0x%x: %v", pg, err))
	}
	n.cpu.TBBase += WatchTrapCycles
	for i, w := range n.watch.list {
		hit := f.Addr >= w.Addr && f.Addr < w.Addr+w.Size
		if (f.Write && w.Write && (hit || olds[i] != news[i])) || (!f.Write && w.Read && hit) {
			n.emit(Event{Kind: EventWatch, PC: f.PC, Word: f.Word, Addr: w.Addr, Size: w.Size,
				Write: f.Write, Old: olds[i], New: news[i]})
		}
	}
	if st.Kind != ppc.StopBudget {
		n.handle(j, st)
	}
	return true
}

// values reads every watch's bytes as a big-endian number.
func (s *watchSet) values(mem *ppc.Memory) []uint64 {
	out := make([]uint64, len(s.list))
	for i, w := range s.list {
		b := make([]byte, w.Size)
		if mem.Read(w.Addr, b) == nil {
			for _, c := range b {
				out[i] = out[i]<<8 | uint64(c)
			}
		}
	}
	return out
}
