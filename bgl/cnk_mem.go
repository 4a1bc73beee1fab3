package bgl

import (
	"sort"

	"github.com/dpclsh/dpclsh/bgl/abi"
	"github.com/dpclsh/dpclsh/ppc"
)

// mmap(2) flag and protection bits (PowerPC uses the generic values for these).
const (
	protRead     = 1
	protWrite    = 2
	protExec     = 4
	mapShared    = 0x01
	mapPrivate   = 0x02
	mapFixed     = 0x10
	mapAnonymous = 0x20
	pageMask     = abi.PageSize - 1
)

// mapping is one anonymous mmap region (page aligned).
type mapping struct{ start, size uint32 }

func (m mapping) end() uint64 { return uint64(m.start) + uint64(m.size) }

func pageUp(v uint32) uint64 { return (uint64(v) + pageMask) &^ pageMask }

func permOf(prot uint32) ppc.Perm {
	var p ppc.Perm
	if prot&protRead != 0 {
		p |= ppc.PermR
	}
	if prot&protWrite != 0 {
		p |= ppc.PermR | ppc.PermW
	}
	if prot&protExec != 0 {
		p |= ppc.PermR | ppc.PermX
	}
	return p
}

// occupied reports whether [start, end) overlaps a reserved region or an mmap.
func (p *Proc) occupied(start, end uint64) bool {
	for _, r := range p.layout.reserved {
		if start < r.End() && uint64(r.Start) < end {
			return true
		}
	}
	for _, m := range p.maps {
		if start < m.end() && uint64(m.start) < end {
			return true
		}
	}
	return false
}

// sysBrk implements brk(2): the heap grows page by page and never into a reserved region
// or an mmap; a refused request returns the current break, as Linux does.
func sysBrk(p *Proc, a Args) Result {
	want := a[0]
	if want < p.brkStart {
		return ok(p.brk)
	}
	oldEnd, newEnd := pageUp(p.brk), pageUp(want)
	switch {
	case newEnd > oldEnd:
		if newEnd > uint64(p.layout.mmapTop) || p.occupied(oldEnd, newEnd) || !p.commit(int64(newEnd-oldEnd)) {
			return ok(p.brk)
		}
		if err := p.Mem.Map(uint32(oldEnd), uint32(newEnd-oldEnd), ppc.PermRW); err != nil {
			return ok(p.brk)
		}
	case newEnd < oldEnd:
		p.commit(-int64(oldEnd - newEnd))
		_ = p.Mem.Unmap(uint32(newEnd), uint32(oldEnd-newEnd))
	}
	p.brk = want
	return ok(p.brk)
}

// findFree returns the highest page-aligned address below mmapTop where size bytes fit
// above the heap, or false.
func (p *Proc) findFree(size uint32) (uint32, bool) {
	busy := make([]mapping, 0, len(p.maps)+len(p.layout.reserved))
	busy = append(busy, p.maps...)
	for _, r := range p.layout.reserved {
		busy = append(busy, mapping{r.Start, r.Size})
	}
	sort.Slice(busy, func(i, j int) bool { return busy[i].start > busy[j].start })
	floor := pageUp(p.brk)
	end := uint64(p.layout.mmapTop)
	for _, b := range busy {
		if b.end() <= end && end-b.end() >= uint64(size) {
			break
		}
		end = min(end, uint64(b.start))
	}
	if end < uint64(size) || end-uint64(size) < floor {
		return 0, false
	}
	return uint32(end - uint64(size)), true
}

func (p *Proc) addMapping(m mapping) {
	i := sort.Search(len(p.maps), func(i int) bool { return p.maps[i].start >= m.start })
	p.maps = append(p.maps, mapping{})
	copy(p.maps[i+1:], p.maps[i:])
	p.maps[i] = m
}

// removeMappings cuts [start, end) out of the mmap list, splitting regions as munmap does.
func (p *Proc) removeMappings(start, end uint64) {
	var out []mapping
	for _, m := range p.maps {
		if m.end() <= start || uint64(m.start) >= end {
			out = append(out, m)
			continue
		}
		if uint64(m.start) < start {
			out = append(out, mapping{m.start, uint32(start - uint64(m.start))})
		}
		if m.end() > end {
			out = append(out, mapping{uint32(end), uint32(m.end() - end)})
		}
	}
	p.maps = out
}

func (p *Proc) reservedOverlap(start, end uint64) bool {
	for _, r := range p.layout.reserved {
		if start < r.End() && uint64(r.Start) < end {
			return true
		}
	}
	return start < pageUp(p.brk)
}

// sysMmap implements mmap(2) for anonymous private or shared memory (one process: the two
// are the same). File mappings are refused with ENODEV and an event.
func sysMmap(p *Proc, a Args) Result {
	addr, length, prot, flags := a[0], a[1], a[2], a[3]
	if flags&mapAnonymous == 0 {
		r := p.missing(abi.SysMmap, "file mappings are not supported on compute nodes")
		r.Err = abi.ENODEV
		return r
	}
	if length == 0 || flags&(mapShared|mapPrivate) == 0 {
		return fail(abi.EINVAL)
	}
	size64 := pageUp(length)
	if size64 > 1<<32-abi.PageSize {
		return fail(abi.ENOMEM)
	}
	size := uint32(size64)
	var start uint32
	if flags&mapFixed != 0 {
		if addr&pageMask != 0 {
			return fail(abi.EINVAL)
		}
		if p.reservedOverlap(uint64(addr), uint64(addr)+size64) {
			return fail(abi.ENOMEM)
		}
		if !p.commit(int64(size64) - int64(p.mappedIn(uint64(addr), uint64(addr)+size64))) {
			return fail(abi.ENOMEM)
		}
		start = addr
		p.removeMappings(uint64(start), uint64(start)+size64)
		_ = p.Mem.Unmap(start, size)
	} else {
		var found bool
		if start, found = p.findFree(size); !found || !p.commit(int64(size)) {
			return fail(abi.ENOMEM)
		}
	}
	if perm := permOf(prot); perm != 0 {
		if err := p.Mem.Map(start, size, perm); err != nil {
			return fail(abi.ENOMEM)
		}
	}
	p.addMapping(mapping{start, size})
	return ok(start)
}

// sysMmap2 is mmap with the offset in pages; anonymous memory ignores it.
func sysMmap2(p *Proc, a Args) Result { return sysMmap(p, a) }

// sysMunmap implements munmap(2) for anonymous memory; image and stack pages stay.
func sysMunmap(p *Proc, a Args) Result {
	addr, length := a[0], a[1]
	if addr&pageMask != 0 || length == 0 {
		return fail(abi.EINVAL)
	}
	end := uint64(addr) + pageUp(length)
	p.commit(-int64(p.mappedIn(uint64(addr), end)))
	for _, m := range p.maps {
		s, e := max(uint64(m.start), uint64(addr)), min(m.end(), end)
		if s < e {
			_ = p.Mem.Unmap(uint32(s), uint32(e-s))
		}
	}
	p.removeMappings(uint64(addr), end)
	return ok(0)
}

// sysMprotect implements mprotect(2). PROT_NONE unmaps the pages (their contents are lost:
// glibc only uses it for guard pages).
func sysMprotect(p *Proc, a Args) Result {
	addr, length, prot := a[0], a[1], a[2]
	if addr&pageMask != 0 {
		return fail(abi.EINVAL)
	}
	size := pageUp(length)
	if size == 0 {
		return ok(0)
	}
	perm := permOf(prot)
	var err error
	switch {
	case perm == 0:
		err = p.Mem.Unmap(addr, uint32(size))
	case p.inMappings(uint64(addr), uint64(addr)+size):
		err = p.Mem.Map(addr, uint32(size), perm)
	default:
		err = p.Mem.Protect(addr, uint32(size), perm)
	}
	if err != nil {
		return fail(abi.ENOMEM)
	}
	return ok(0)
}

// mappedIn counts the bytes of [start, end) that anonymous mmaps cover.
func (p *Proc) mappedIn(start, end uint64) uint64 {
	var n uint64
	for _, m := range p.maps {
		if s, e := max(uint64(m.start), start), min(m.end(), end); s < e {
			n += e - s
		}
	}
	return n
}

// inMappings reports whether [start, end) lies wholly inside anonymous mmaps.
func (p *Proc) inMappings(start, end uint64) bool {
	for _, m := range p.maps {
		if uint64(m.start) <= start && start < m.end() {
			start = m.end()
		}
	}
	return start >= end
}

// sysMremap refuses to move or grow mappings; glibc's realloc then allocates, copies and
// frees, which gives the same program behaviour.
func sysMremap(p *Proc, a Args) Result { return fail(abi.ENOMEM) }
