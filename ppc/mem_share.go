package ppc

import (
	"runtime"
	"strings"
	"sync"
	"unsafe"
	"weak"
)

// Patched pages shared between Memories. A debugger that patches the same bytes into the
// same page of many processes (a probe installed on every rank: the same trampoline in
// the same place, the same branch over the same instruction) would otherwise give every
// process a private copy of the page, and every copy its own predecoded code. Poke instead
// looks the result up by what it was made from: the page written (or none, for a page
// never written), its address, the offset and the bytes. The first Poke makes the page;
// every later identical Poke maps the same one, shared copy-on-write like a Clone's pages,
// so a program store or a different patch still copies it for that process alone, and
// the code predecoded on it is shared by all. The table holds its pages weakly: an entry
// goes when no Memory maps its page any more. Only Clones (processes) share patches this
// way, and only in executable pages (text and the instrumentation region): a loader's
// Memory, and a debugger writing a process's data, write in place as before (data written
// per rank differs, and sharing it would copy the page at every write).

// derivedKey names a patched page by how it was made.
type derivedKey struct {
	src  *page // the page patched; nil for a page never written (all zeros)
	vpn  uint32
	off  uint32
	data string
}

var derived struct {
	mu sync.Mutex
	m  map[derivedKey]weak.Pointer[page]
}

// pokeShared writes b, which lies inside one page at addr, as Poke does, into a page m
// shares with other Memories or has never written; it returns false, writing nothing,
// when the page is m's own (Poke then writes it in place). The range is known writable.
func (m *Memory) pokeShared(addr uint32, b []byte) bool {
	l, sharedLeaf := m.leafAt(addr)
	j := addr >> pageShift & (leafLen - 1)
	src := l.pages[j]
	if l.flags[j]&PermX == 0 || src != nil && !sharedLeaf && l.flags[j]&flagShared == 0 {
		return false
	}
	// The key views b rather than copying it: a probe installed on every rank writes the
	// same trampoline into every process, and a copy per process of every byte written
	// (then collected) cost more than the rest of the install. derivedPage keeps a copy
	// only when it makes a page.
	view := unsafe.String(unsafe.SliceData(b), len(b))
	p := derivedPage(derivedKey{src: src, vpn: addr >> pageShift, off: addr & pageMask, data: view})
	m.installShared(addr, p)
	return true
}

// installShared maps the shared page p at addr. Where the leaf (and its mid) are shared,
// the patched leaf and mid are shared too: every process patching the same page of the
// same table gets the same new leaf and mid, so installing a probe on 65,536 ranks copies
// no table either.
func (m *Memory) installShared(addr uint32, p *page) {
	i, j, k := addr>>midShift, addr>>leafShift&(midLen-1), addr>>pageShift&(leafLen-1)
	md := m.root[i]
	l := md.leaves[j]
	flags := l.flags[k] | flagShared
	switch {
	case !m.shared.has(int(i)) && !md.shared[j]:
		l.pages[k], l.flags[k] = p, flags
	case !m.shared.has(int(i)):
		md.leaves[j] = derivedLeaf(leafKey{l, k, p, flags})
	default:
		m.root[i] = derivedMid(midKey{md, j, derivedLeaf(leafKey{l, k, p, flags})})
	}
	m.gen++
}

// leafKey names a shared leaf by the leaf it was made from and the slot it changes.
type leafKey struct {
	src   *leaf
	k     uint32
	p     *page
	flags Perm
}

// midKey names a shared mid by the mid it was made from and the leaf it changes.
type midKey struct {
	src *mid
	j   uint32
	l   *leaf
}

var derivedTables struct {
	mu     sync.Mutex
	leaves map[leafKey]weak.Pointer[leaf]
	mids   map[midKey]weak.Pointer[mid]
}

// derivedLeaf returns the leaf k describes, making it the first time. Its pages are all
// shared.
func derivedLeaf(k leafKey) *leaf {
	t := &derivedTables
	t.mu.Lock()
	defer t.mu.Unlock()
	if l := t.leaves[k].Value(); l != nil {
		return l
	}
	n := &leaf{pages: k.src.pages, flags: k.src.flags}
	for i, p := range n.pages {
		if p != nil {
			n.flags[i] |= flagShared
		}
	}
	n.pages[k.k], n.flags[k.k] = k.p, k.flags
	if t.leaves == nil {
		t.leaves = map[leafKey]weak.Pointer[leaf]{}
	}
	wp := weak.Make(n)
	t.leaves[k] = wp
	runtime.AddCleanup(n, func(k leafKey) {
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.leaves[k] == wp {
			delete(t.leaves, k)
		}
	}, k)
	return n
}

// derivedMid returns the mid k describes, making it the first time. Its leaves are all
// shared.
func derivedMid(k midKey) *mid {
	t := &derivedTables
	t.mu.Lock()
	defer t.mu.Unlock()
	if md := t.mids[k].Value(); md != nil {
		return md
	}
	n := &mid{leaves: k.src.leaves}
	n.leaves[k.j] = k.l
	for i, l := range n.leaves {
		n.shared[i] = l != nil
	}
	if t.mids == nil {
		t.mids = map[midKey]weak.Pointer[mid]{}
	}
	wp := weak.Make(n)
	t.mids[k] = wp
	runtime.AddCleanup(n, func(k midKey) {
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.mids[k] == wp {
			delete(t.mids, k)
		}
	}, k)
	return n
}

// derivedPage returns the page k describes, making it the first time. k.data may view
// the caller's bytes: the table stores a copy of it, never k.data itself.
func derivedPage(k derivedKey) *page {
	derived.mu.Lock()
	defer derived.mu.Unlock()
	if p := derived.m[k].Value(); p != nil {
		return p
	}
	k.data = strings.Clone(k.data)
	p := &page{data: allocData()}
	if k.src != nil {
		*p.data = *k.src.data
	}
	copy(p.data[k.off:], k.data)
	if derived.m == nil {
		derived.m = map[derivedKey]weak.Pointer[page]{}
	}
	wp := weak.Make(p)
	derived.m[k] = wp
	runtime.AddCleanup(p, forgetDerived, derivedEntry{k, wp})
	return p
}

// derivedEntry is what a derived page's cleanup needs to drop its table entry.
type derivedEntry struct {
	k  derivedKey
	wp weak.Pointer[page]
}

func forgetDerived(e derivedEntry) {
	derived.mu.Lock()
	defer derived.mu.Unlock()
	if derived.m[e.k] == e.wp {
		delete(derived.m, e.k)
	}
}
