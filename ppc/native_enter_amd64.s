//go:build linux

#include "go_asm.h"
#include "textflag.h"

// func nativeEnter(entry uintptr, c *CPU) uint64
// The translated code keeps the CPU pointer in DI, uses AX, BX, CX, DX, SI and X0-X2,
// no stack beyond its return address, and returns its result in AX. Its floating-point
// code sets the MXCSR rounding mode from the guest's FPSCR and keeps the last MXCSR it
// set or read in CPU.nativeMXCSR: when that has a rounding mode other than nearest,
// Go's MXCSR is restored here (its sticky flags do not matter to Go). The check spares
// LDMXCSR, which costs more than the test, on the many entries that leave it alone.
TEXT ·nativeEnter(SB), NOSPLIT, $0-24
	MOVQ entry+0(FP), AX
	MOVQ c+8(FP), DI
	CALL AX
	MOVQ AX, ret+16(FP)
	TESTL $0x6000, CPU_nativeMXCSR(DI)
	JEQ done
	MOVL $0x1f80, CPU_nativeMXCSR(DI)
	LDMXCSR CPU_nativeMXCSR(DI)
done:
	RET

// func cpuid(leaf, sub uint32) (a, b, c, d uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL leaf+0(FP), AX
	MOVL sub+4(FP), CX
	CPUID
	MOVL AX, a+8(FP)
	MOVL BX, b+12(FP)
	MOVL CX, c+16(FP)
	MOVL DX, d+20(FP)
	RET

// func xgetbv0() uint32
TEXT ·xgetbv0(SB), NOSPLIT, $0-4
	MOVL $0, CX
	XGETBV
	MOVL AX, ret+0(FP)
	RET
