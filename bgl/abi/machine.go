package abi

// The auxiliary vector's tags, the AT_HWCAP bits and the cache line size a PPC440 reports
// live in one place, ppc's loader (ppc.AT_PHDR, ..., ppc.HWCAP440, ppc.CacheLineSize),
// which builds the vector: ppc may import no project package, so this package cannot be
// their home.

// Machine constants of the BG/L compute node.
const (
	PageSize = 4096
	ClockHz  = 700000000 // PPC440 core and timebase frequency on BG/L
)
