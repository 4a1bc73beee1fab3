package ppc

import (
	"fmt"
	"sync/atomic"
)

// PageSize is the size of a simulated page; memory is allocated one page at a time on first
// write.
const PageSize = 4096

// The page table has three levels: the root (in Memory) holds 256 mids of 16 MiB, a mid
// 64 leaves of 256 KiB, a leaf 64 pages. Small levels keep copy-on-write cheap: a process
// that writes a few pages copies a few hundred bytes of table per region, not 9 KiB. A
// rank writes about eight pages in four places (data, heap, the stack's two top pages,
// which straddle a boundary), so its private table is the root (2 KiB) and a few
// 576-byte mids and leaves: 256-page leaves (2.3 KiB each) cost 41,552 bytes per rank of
// runtime/testdata/bin/loop.elf against 38,672 now.
const (
	pageShift = 12
	leafBits  = 6
	midBits   = 6
	leafShift = pageShift + leafBits // a leaf covers 256 KiB
	midShift  = leafShift + midBits  // a mid covers 16 MiB
	leafLen   = 1 << leafBits
	midLen    = 1 << midBits
	rootLen   = 1 << (32 - midShift)
	pageMask  = PageSize - 1
)

// Perm is a set of page permissions.
type Perm uint8

// Page permissions. A page with no permission bits is not mapped.
const (
	PermR Perm = 1 << iota
	PermW
	PermX
	PermRW  = PermR | PermW
	PermRX  = PermR | PermX
	PermRWX = PermR | PermW | PermX
)

// permMask selects the permission bits of a leaf entry; flagShared marks a page that other
// Memories may also reference, so it must be copied before it is written.
const (
	permMask   Perm = PermRWX
	flagShared Perm = 1 << 7
)

func (p Perm) String() string {
	b := []byte("---")
	for i, c := range "rwx" {
		if p&(1<<i) != 0 {
			b[i] = byte(c)
		}
	}
	return string(b)
}

// page is one physical page: its bytes, which come from a slab (see allocPage) and hold no
// pointers, and its predecoded code, shared by every Memory mapping the page.
type page struct {
	code atomic.Pointer[codePage]
	data *[PageSize]byte
}

// leaf is the last level of the page table: 256 page slots and their flags.
type leaf struct {
	pages [leafLen]*page
	flags [leafLen]Perm
}

// mid is the middle level: 64 leaves, and which of them other Memories may also reference.
type mid struct {
	leaves [midLen]*leaf
	shared [midLen]bool
}

// Memory is a 32-bit big-endian address space of 4 KiB pages allocated on first write, with
// a three-level page table whose levels and pages can be shared copy-on-write with Clones.
// A Memory is used by one goroutine at a time. Clone marks its receiver's mids shared the
// first time; after that (and always for a loaded image's frozen base Memory) it only
// reads, so concurrent Clones of one parent are safe.
type Memory struct {
	root [rootLen]*mid
	// shared has bit i set when mid i is referenced by other Memories too: copy before
	// changing it. A bitmask, not 256 bools: the Memory, one per rank, takes the
	// allocator's 2,304-byte size instead of 2,688.
	shared midSet
	// gen moves whenever a page mapping, a page's identity or its predecoded code changes,
	// so CPUs flush the block and page caches they keep in front of the page table.
	gen uint64
	// derive is set on Clones: their Pokes share identical patched pages (mem_share.go).
	derive bool
}

// midSet is a set of the root's mid slots, one bit each.
type midSet [rootLen / 64]uint64

func (s *midSet) has(i int) bool { return s[i>>6]&(1<<(i&63)) != 0 }
func (s *midSet) set(i int)      { s[i>>6] |= 1 << (i & 63) }
func (s *midSet) clear(i int)    { s[i>>6] &^= 1 << (i & 63) }

// MemError describes a failed memory access: the address, the direction and why.
type MemError struct {
	Addr   uint32
	Write  bool
	Reason string
}

func (e *MemError) Error() string {
	dir := "read"
	if e.Write {
		dir = "write"
	}
	return fmt.Sprintf("ppc: %s at 0x%08x: %s", dir, e.Addr, e.Reason)
}

// Reasons carried by MemError.
const (
	reasonUnmapped = "unmapped"
	reasonPerm     = "permission denied"
)

// NewMemory returns an empty address space.
func NewMemory() *Memory { return &Memory{} }

// Clone returns a copy-on-write child: it shares every level and page of the table with m
// until either side writes. Cloning costs the root table only (2,304 bytes).
func (m *Memory) Clone() *Memory {
	c := &Memory{root: m.root, derive: true}
	for i, md := range m.root {
		if md != nil {
			if !m.shared.has(i) {
				m.shared.set(i)
			}
			c.shared.set(i)
		}
	}
	return c
}

// freeze marks every mid shared, so later Clones only read m: a loaded image's base
// Memory is frozen, and processes may then be made from it concurrently.
func (m *Memory) freeze() {
	for i, md := range m.root {
		if md != nil {
			m.shared.set(i)
		}
	}
}

// midFor returns the mid covering addr, private to m, creating it when create is set.
func (m *Memory) midFor(addr uint32, create bool) *mid {
	i := addr >> midShift
	md := m.root[i]
	if md == nil {
		if !create {
			return nil
		}
		md = &mid{}
		m.root[i] = md
		return md
	}
	if m.shared.has(int(i)) {
		m.gen++
		n := &mid{leaves: md.leaves}
		for j, l := range n.leaves {
			n.shared[j] = l != nil
		}
		m.root[i] = n
		m.shared.clear(int(i))
		md = n
	}
	return md
}

// leafFor returns the leaf covering addr, private to m, creating it when create is set.
func (m *Memory) leafFor(addr uint32, create bool) *leaf {
	md := m.midFor(addr, create)
	if md == nil {
		return nil
	}
	j := addr >> leafShift & (midLen - 1)
	l := md.leaves[j]
	if l == nil {
		if !create {
			return nil
		}
		l = &leaf{}
		md.leaves[j] = l
		return l
	}
	if md.shared[j] {
		m.gen++
		n := &leaf{pages: l.pages, flags: l.flags}
		for k, p := range n.pages {
			if p != nil {
				n.flags[k] |= flagShared
			}
		}
		md.leaves[j] = n
		md.shared[j] = false
		l = n
	}
	return l
}

// leafAt returns the leaf covering addr for reading (nil when none), and whether it may be
// shared with other Memories.
func (m *Memory) leafAt(addr uint32) (*leaf, bool) {
	i := addr >> midShift
	md := m.root[i]
	if md == nil {
		return nil, false
	}
	j := addr >> leafShift & (midLen - 1)
	return md.leaves[j], m.shared.has(int(i)) || md.shared[j]
}

// pageRange calls fn for every page overlapping [addr, addr+size).
func pageRange(addr, size uint32, fn func(pa uint32) error) error {
	if size == 0 {
		return nil
	}
	end := uint64(addr) + uint64(size)
	if end > 1<<32 {
		return &MemError{Addr: addr, Reason: fmt.Sprintf("range of %d bytes wraps the address space", size)}
	}
	for pa := uint64(addr) &^ pageMask; pa < end; pa += PageSize {
		if err := fn(uint32(pa)); err != nil {
			return err
		}
	}
	return nil
}

// Map makes [addr, addr+size) accessible with perm, rounding out to whole pages. Pages
// already mapped keep their contents and take the new permissions. Nothing is allocated
// until a page is first written.
func (m *Memory) Map(addr, size uint32, perm Perm) error {
	if perm&permMask == 0 {
		return &MemError{Addr: addr, Write: true, Reason: "map with no permissions"}
	}
	m.gen++
	return pageRange(addr, size, func(pa uint32) error {
		l := m.leafFor(pa, true)
		j := pa >> pageShift & (leafLen - 1)
		l.flags[j] = l.flags[j]&flagShared | perm&permMask
		return nil
	})
}

// Unmap removes [addr, addr+size); unmapped pages read and write as faults.
func (m *Memory) Unmap(addr, size uint32) error {
	m.gen++
	return pageRange(addr, size, func(pa uint32) error {
		if l := m.leafFor(pa, false); l != nil {
			j := pa >> pageShift & (leafLen - 1)
			l.pages[j] = nil
			l.flags[j] = 0
		}
		return nil
	})
}

// Protect changes the permissions of mapped pages in [addr, addr+size); an unmapped page in
// the range is an error (and pages before it keep their new permissions, as mprotect does).
func (m *Memory) Protect(addr, size uint32, perm Perm) error {
	if perm&permMask == 0 {
		return &MemError{Addr: addr, Write: true, Reason: "protect with no permissions (use Unmap)"}
	}
	m.gen++
	return pageRange(addr, size, func(pa uint32) error {
		if m.Perm(pa) == 0 {
			return &MemError{Addr: pa, Write: true, Reason: "protect: " + reasonUnmapped}
		}
		l := m.leafFor(pa, false)
		j := pa >> pageShift & (leafLen - 1)
		l.flags[j] = l.flags[j]&flagShared | perm&permMask
		return nil
	})
}

// Perm returns the permissions of the page holding addr (0 when unmapped).
func (m *Memory) Perm(addr uint32) Perm {
	l, _ := m.leafAt(addr)
	if l == nil {
		return 0
	}
	return l.flags[addr>>pageShift&(leafLen-1)] & permMask
}

// Mapped reports whether every page of [addr, addr+size) is mapped.
func (m *Memory) Mapped(addr, size uint32) bool {
	return pageRange(addr, size, func(pa uint32) error {
		if m.Perm(pa) == 0 {
			return errUnmapped
		}
		return nil
	}) == nil
}

var errUnmapped = &MemError{Reason: reasonUnmapped}

// readPage returns the page holding addr for reading with the needed permission; a nil
// page with a nil error is a mapped page never written (all zeros).
func (m *Memory) readPage(addr uint32, need Perm) (*page, error) {
	l, _ := m.leafAt(addr)
	if l == nil {
		return nil, &MemError{Addr: addr, Reason: reasonUnmapped}
	}
	j := addr >> pageShift & (leafLen - 1)
	f := l.flags[j]
	if f&permMask == 0 {
		return nil, &MemError{Addr: addr, Reason: reasonUnmapped}
	}
	if f&need != need {
		return nil, &MemError{Addr: addr, Reason: reasonPerm}
	}
	return l.pages[j], nil
}

// writePage returns the page holding addr, private to m and allocated, ready to be written.
// force skips the PermW check (debugger writes). Predecoded code on the page is dropped.
func (m *Memory) writePage(addr uint32, force bool) (*page, error) {
	l, shared := m.leafAt(addr)
	if l == nil {
		return nil, &MemError{Addr: addr, Write: true, Reason: reasonUnmapped}
	}
	j := addr >> pageShift & (leafLen - 1)
	f := l.flags[j]
	if f&permMask == 0 {
		return nil, &MemError{Addr: addr, Write: true, Reason: reasonUnmapped}
	}
	if !force && f&PermW == 0 {
		return nil, &MemError{Addr: addr, Write: true, Reason: reasonPerm}
	}
	if shared {
		l = m.leafFor(addr, false)
		f = l.flags[j]
	}
	p := l.pages[j]
	switch {
	case p == nil:
		m.gen++
		p = allocPage()
		l.pages[j] = p
	case f&flagShared != 0:
		m.gen++
		n := allocPage()
		*n.data = *p.data
		p = n
		l.pages[j] = p
		l.flags[j] = f &^ flagShared
	default:
		if p.code.Load() != nil {
			p.code.Store(nil)
			m.gen++
		}
	}
	return p, nil
}

// MemStats describes how much of an address space is private to it and how much it shares.
type MemStats struct {
	MappedPages   int // pages with any permission
	PrivatePages  int // allocated pages only this Memory references
	SharedPages   int // allocated pages shared copy-on-write with other Memories
	PrivateLeaves int
	SharedLeaves  int
	// PrivateBytes is what this Memory costs beyond what it shares: private pages, private
	// leaves and the root table.
	PrivateBytes int
}

// Stats counts the pages and page-table leaves of m.
func (m *Memory) Stats() MemStats {
	var s MemStats
	s.PrivateBytes = rootSize
	for i, md := range m.root {
		if md == nil {
			continue
		}
		if !m.shared.has(i) {
			s.PrivateBytes += midSize
		}
		for j, l := range md.leaves {
			if l != nil {
				s.countLeaf(l, m.shared.has(i) || md.shared[j])
			}
		}
	}
	return s
}

// countLeaf adds a leaf and its pages to s.
func (s *MemStats) countLeaf(l *leaf, shared bool) {
	if shared {
		s.SharedLeaves++
	} else {
		s.PrivateLeaves++
		s.PrivateBytes += leafSize
	}
	for k, p := range l.pages {
		f := l.flags[k]
		if f&permMask != 0 {
			s.MappedPages++
		}
		switch {
		case p == nil:
		case shared || f&flagShared != 0:
			s.SharedPages++
		default:
			s.PrivatePages++
			s.PrivateBytes += pageSize
		}
	}
}
