//go:build linux

#include "textflag.h"

// func nativeEnter(entry uintptr, c *CPU) uint64
// The translated code keeps the CPU pointer in DI, uses AX, BX, CX, DX and SI, no
// stack beyond its return address, and returns its result in AX.
TEXT ·nativeEnter(SB), NOSPLIT, $0-24
	MOVQ entry+0(FP), AX
	MOVQ c+8(FP), DI
	CALL AX
	MOVQ AX, ret+16(FP)
	RET
