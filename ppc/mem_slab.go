package ppc

import (
	"runtime"
	"sync"
)

// slabPages is how many pages one slab holds: page bytes come from 4 MiB pointer-free
// slabs, each with an array of as many page headers, so a process that writes ten pages
// makes no allocation of its own and the collector never scans page bytes.
//
// The bytes are mapped outside the Go heap with every page already faulted in
// (slabBytes: mmap with MAP_POPULATE on Linux), because faulting them in one at a time
// was what a large launch spent most of its time on: on the shared 2-core VM, 1 GiB
// touched page by page took 5.2 s of CPU, populated by one mmap per slab 0.27 s. A slab's
// header array owns its bytes: page i's header points at page i's bytes, and the bytes
// are unmapped by a cleanup once no header of the array is referenced (a page table, a
// derived-page key or a CPU's page cache keeps its header, hence the whole array, alive).
// One slab is current for the whole process: with the pages populated at mmap, threads
// no longer fault next to each other (what once made slabs per processor pay), and a slab
// is never dropped half used by a collection.
const slabPages = 1024

// slabMu guards the current slab's unused headers.
var (
	slabMu   sync.Mutex
	slabFree []page
)

// allocPage returns a zeroed page.
func allocPage() *page {
	slabMu.Lock()
	if len(slabFree) == 0 {
		slabFree = newSlab()
	}
	p := &slabFree[0]
	slabFree = slabFree[1:]
	slabMu.Unlock()
	return p
}

// newSlab maps a slab's bytes and returns its headers, each pointing at its page.
func newSlab() []page {
	data, release := slabBytes(slabPages * PageSize)
	hdrs := make([]page, slabPages)
	for i := range hdrs {
		hdrs[i].data = (*[PageSize]byte)(data[i*PageSize:])
	}
	if release != nil {
		runtime.AddCleanup(&hdrs[0], func(release func()) { release() }, release)
	}
	return hdrs
}

// allocData returns zeroed page bytes, for a page whose header is allocated alone (a
// derived page, mem_share.go): they live in the Go heap, as long as that header.
func allocData() *[PageSize]byte { return new([PageSize]byte) }

// heapSlab returns n zeroed bytes from the Go heap, writing one byte of every page so
// that each is faulted in writable at once, on the thread that takes the slab, rather
// than first mapped read-only and faulted again on its first store.
func heapSlab(n int) []byte {
	b := make([]byte, n)
	for i := 0; i < len(b); i += PageSize {
		b[i] = 0
	}
	return b
}
