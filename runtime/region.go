package runtime

import (
	"github.com/dpclsh/dpclsh/contexts"
)

// spanUse is one piece of trampoline memory, at the same address on every node: which
// ranks still hold it (placed, or unlinked and not yet freed by their daemon) and
// whether a point still links to it.
type spanUse struct {
	size    uint32
	linked  bool
	holders *contexts.Set
}

// alloc reserves size bytes of trampoline memory, reusing the first free piece that is
// big enough, else taking fresh memory.
func (a *App) alloc(size uint32) (uint32, error) {
	size = (size + trampLign - 1) &^ (trampLign - 1)
	for i, f := range a.free {
		if f.size >= size {
			if f.size == size {
				a.free = append(a.free[:i], a.free[i+1:]...)
			} else {
				a.free[i] = span{f.base + size, f.size - size}
			}
			a.reused++
			return f.base, nil
		}
	}
	base := a.next
	if uint64(base)+uint64(size) > a.region.End() {
		return 0, errorf("instrumentation region [0x%x,0x%x) is full", a.region.Start, a.region.End())
	}
	a.next += size
	return base, nil
}

// placed records that ranks now hold the piece at base (size bytes); linked says a
// point branches to it.
func (a *App) placed(base, size uint32, linked bool, ranks []int) {
	u := &spanUse{size: (size + trampLign - 1) &^ (trampLign - 1), linked: linked, holders: contexts.None(a.Size())}
	for _, r := range ranks {
		u.holders.Add(r)
	}
	a.spans[base] = u
	a.reclaim(base)
}

// unlinked records that no point branches to the piece at base any more.
func (a *App) unlinked(base uint32) {
	if u := a.spans[base]; u != nil {
		u.linked = false
		a.reclaim(base)
	}
}

// released applies an answer's frees and returns the pieces nobody holds to the free list.
func (a *App) released(freed map[uint32][]int) {
	for base, ranks := range freed {
		if u := a.spans[base]; u != nil {
			for _, r := range ranks {
				u.holders.Remove(r)
			}
			a.reclaim(base)
		}
	}
}

// forget drops ended ranks from every piece: their memory no longer matters.
func (a *App) forget(ranks []int) {
	for base, u := range a.spans {
		for _, r := range ranks {
			u.holders.Remove(r)
		}
		a.reclaim(base)
	}
}

func (a *App) reclaim(base uint32) {
	if u := a.spans[base]; u != nil && !u.linked && u.holders.Empty() {
		delete(a.spans, base)
		a.free = append(a.free, span{base, u.size})
	}
}

// RegionStats reports trampoline memory: bytes handed out from fresh memory, pieces in
// use, free pieces, and allocations served from freed memory.
func (a *App) RegionStats() (fresh uint32, inUse, free, reused int) {
	return a.next - a.region.Start - varArea, len(a.spans), len(a.free), a.reused
}
