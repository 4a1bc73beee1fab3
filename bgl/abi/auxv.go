package abi

// Auxiliary-vector tags (include/uapi/linux/auxvec.h and asm/auxvec.h for PowerPC).
const (
	AT_NULL        = 0
	AT_PHDR        = 3
	AT_PHENT       = 4
	AT_PHNUM       = 5
	AT_PAGESZ      = 6
	AT_BASE        = 7
	AT_FLAGS       = 8
	AT_ENTRY       = 9
	AT_UID         = 11
	AT_EUID        = 12
	AT_GID         = 13
	AT_EGID        = 14
	AT_PLATFORM    = 15
	AT_HWCAP       = 16
	AT_CLKTCK      = 17
	AT_DCACHEBSIZE = 19
	AT_ICACHEBSIZE = 20
	AT_UCACHEBSIZE = 21
	AT_IGNOREPPC   = 22
	AT_SECURE      = 23
	AT_RANDOM      = 25
	AT_HWCAP2      = 26
	AT_EXECFN      = 31
)

// AT_HWCAP bits (asm/cputable.h) a PPC440 with its FPU reports.
const (
	HWCAP_32     = 0x80000000
	HWCAP_FPU    = 0x08000000
	HWCAP_4xxMAC = 0x02000000
	HWCAP_BOOKE  = 0x00008000

	// HWCAP440 is what the simulated nodes report, as qemu-ppc -cpu 440epx does:
	// FPU | 4xxMAC | BookE.
	HWCAP440 = HWCAP_FPU | HWCAP_4xxMAC | HWCAP_BOOKE
)

// Machine constants of the BG/L compute node.
const (
	PageSize       = 4096
	DCacheLineSize = 32        // AT_DCACHEBSIZE: memset's dcbz relies on it
	ClockHz        = 700000000 // PPC440 core and timebase frequency on BG/L
)
