package abi

// The auxiliary vector's tags and the AT_HWCAP bits a PPC440 reports live in one place,
// ppc's loader (ppc.AT_PHDR, ..., ppc.HWCAP440), which builds the vector: ppc may import
// no project package, so this package cannot be their home.

// Machine constants of the BG/L compute node.
const (
	PageSize       = 4096
	DCacheLineSize = 32        // AT_DCACHEBSIZE: memset's dcbz relies on it
	ClockHz        = 700000000 // PPC440 core and timebase frequency on BG/L
)
