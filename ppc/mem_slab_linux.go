package ppc

import "syscall"

// slabBytes maps n zeroed bytes with every page faulted in at once (MAP_POPULATE) and
// returns them with the function that unmaps them. Without the flag each page's first
// store would fault on its own (and a first load would map the shared zero page, then
// fault again on the store).
func slabBytes(n int) ([]byte, func()) {
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE,
		syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_POPULATE)
	if err != nil {
		// Out of address space or a refused mapping: the Go heap's failure mode (an
		// out-of-memory crash) is no worse, and it is the one every other allocation has.
		return heapSlab(n), nil
	}
	return b, func() { syscall.Munmap(b) }
}
