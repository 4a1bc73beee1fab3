//go:build linux

package ppc

import (
	"sync"
	"syscall"
	"unsafe"
)

// Executable memory and the entry stub.

// nativeSupported: this build translates blocks to machine code.
const nativeSupported = true

// nativeEnter calls translated code with the CPU in rdi and returns what it returns
// (native_enter_amd64.s).
//
//go:noescape
func nativeEnter(entry uintptr, c *CPU) uint64

// codeArena hands out executable memory: chunks mapped read-write, each translation
// copied into whole pages that are then made read-execute and never written again, so no
// page is ever writable and executable, and no code another goroutine may be running
// changes protection. A translation takes at least one page (most need a few hundred
// bytes: packing them is left for later). Code is never unmapped: a block dropped because
// its page was written leaves its translation behind, unreachable.
var codeArena struct {
	sync.Mutex
	chunk []byte
	used  int
}

const arenaChunk = 1 << 20

// installCode copies code into executable memory and returns its address.
func installCode(code []byte) (uintptr, error) {
	n := (len(code) + PageSize - 1) &^ (PageSize - 1)
	a := &codeArena
	if a.used+n > len(a.chunk) {
		m, err := syscall.Mmap(-1, 0, max(arenaChunk, n), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
		if err != nil {
			return 0, err
		}
		a.chunk, a.used = m, 0
	}
	mem := a.chunk[a.used : a.used+n]
	copy(mem, code)
	if err := syscall.Mprotect(mem, syscall.PROT_READ|syscall.PROT_EXEC); err != nil {
		return 0, err
	}
	a.used += n
	return uintptr(unsafe.Pointer(&mem[0])), nil
}

// translate makes b's translation once: concurrent CPUs sharing the block wait for the
// first.
func translate(b *block) *nativeCode {
	codeArena.Lock()
	defer codeArena.Unlock()
	if nc := b.native.Load(); nc != nil {
		return nc
	}
	nc := &nativeCode{}
	if code, n := translateCode(b, nc); n > 0 {
		if entry, err := installCode(code); err == nil {
			nc.entry, nc.insts = entry, n
			b.native.Store(nc)
			return nc
		}
	}
	b.native.Store(noNative)
	return noNative
}
