//go:build !linux

package ppc

// slabBytes returns n zeroed bytes from the Go heap, faulted in one page at a time, which
// the collector frees with the slab's headers.
func slabBytes(n int) ([]byte, func()) { return heapSlab(n), nil }
