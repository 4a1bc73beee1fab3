package ppc

import (
	"runtime"
	"sync"
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
	p := derivedPage(derivedKey{src: src, vpn: addr >> pageShift, off: addr & pageMask, data: string(b)})
	l = m.leafFor(addr, false)
	l.pages[j] = p
	l.flags[j] |= flagShared
	m.gen++
	return true
}

// derivedPage returns the page k describes, making it the first time.
func derivedPage(k derivedKey) *page {
	derived.mu.Lock()
	defer derived.mu.Unlock()
	if p := derived.m[k].Value(); p != nil {
		return p
	}
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
