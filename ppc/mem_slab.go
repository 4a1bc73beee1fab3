package ppc

import "sync"

// slabPages is how many pages one slab holds: page bytes come from 4 MiB pointer-free
// slabs and page headers from arrays of the same count, so a process that writes ten pages
// makes no allocation of its own and the collector never scans page bytes.
//
// Slabs are kept per processor (sync.Pool is per-P): processes run on several threads at
// once, and two threads taking turns in one slab fault on neighbouring pages whose page
// table entries share a kernel lock; measured at 16,384 ranks, one shared slab tripled
// the system time. (Transparent huge pages for the slabs were measured and rejected too:
// with the kernel's synchronous compaction, touching 2 GiB took 13 s instead of 1.8 s.)
const slabPages = 1024

// slab is the unused rest of a processor's current slab. A slab lives as long as any of
// its pages; one the pool drops at a collection leaves only untouched bytes behind.
type slab struct {
	hdrs []page
	data []byte
}

var slabs = sync.Pool{New: func() any { return new(slab) }}

// allocPage returns a zeroed page.
func allocPage() *page {
	s := slabs.Get().(*slab)
	if len(s.hdrs) == 0 {
		s.hdrs = make([]page, slabPages)
	}
	p := &s.hdrs[0]
	s.hdrs = s.hdrs[1:]
	p.data = s.next()
	slabs.Put(s)
	return p
}

// allocData returns zeroed page bytes, for a page whose header is allocated alone.
func allocData() *[PageSize]byte {
	s := slabs.Get().(*slab)
	d := s.next()
	slabs.Put(s)
	return d
}

// prefault writes one byte of every page of a new slab, in order, on the thread that will
// use it. Measured at 16,384 ranks: without it, most of the slab's pages were first
// mapped read-only and then faulted again on the first store, each time with a TLB
// shootdown to every CPU (do_wp_page), and the run spent 3.1 s in the kernel; with it,
// 0.6 s.
func prefault(b []byte) {
	for i := 0; i < len(b); i += PageSize {
		b[i] = 0
	}
}

// next takes the next page of the slab's bytes.
func (s *slab) next() *[PageSize]byte {
	if len(s.data) == 0 {
		s.data = make([]byte, slabPages*PageSize)
		prefault(s.data)
	}
	d := (*[PageSize]byte)(s.data[:PageSize])
	s.data = s.data[PageSize:]
	return d
}
