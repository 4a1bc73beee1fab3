package ppc

import "sync"

// slabPages is how many pages one slab holds: page bytes come from 1 MiB pointer-free
// slabs and page headers from arrays of the same count, so a process that writes ten pages
// makes no allocation of its own and the collector never scans page bytes. (Transparent
// huge pages for the slabs were measured and rejected: with the kernel's synchronous
// compaction, touching 2 GiB took 13 s instead of 1.8 s.)
const slabPages = 256

// slabs hands out pages to every Memory of the program. A slab lives as long as any of its
// pages: when jobs with different lifetimes interleave, a finished job's slab stays until
// the other job's pages in it are gone too (bounded by one slab per allocating burst).
var slabs struct {
	mu   sync.Mutex
	hdrs []page
	data []byte
}

// allocPage returns a zeroed page.
func allocPage() *page {
	slabs.mu.Lock()
	defer slabs.mu.Unlock()
	if len(slabs.hdrs) == 0 {
		slabs.hdrs = make([]page, slabPages)
	}
	p := &slabs.hdrs[0]
	slabs.hdrs = slabs.hdrs[1:]
	p.data = nextData()
	return p
}

// allocData returns zeroed page bytes, for a page whose header is allocated alone.
func allocData() *[PageSize]byte {
	slabs.mu.Lock()
	defer slabs.mu.Unlock()
	return nextData()
}

// nextData takes the next page of the current slab; slabs.mu is held.
func nextData() *[PageSize]byte {
	if len(slabs.data) == 0 {
		slabs.data = make([]byte, slabPages*PageSize)
	}
	d := (*[PageSize]byte)(slabs.data[:PageSize])
	slabs.data = slabs.data[PageSize:]
	return d
}
